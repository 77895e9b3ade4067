import { describe, expect, it } from 'vitest';
import { statusText } from '../../../../src/tui/commands/hooks.js';

describe('/hooks status column', () => {
  it('says the state and, when not active, why (never [object Object])', () => {
    expect(statusText({ state: 'active' })).toBe('active');
    expect(statusText({ state: 'untrusted', reason: 'script changed: scripts/guard.sh' })).toBe('untrusted (script changed: scripts/guard.sh)');
    expect(statusText({ state: 'skipped', reason: 'bash -n failed' })).toBe('skipped (bash -n failed)');
  });
});
