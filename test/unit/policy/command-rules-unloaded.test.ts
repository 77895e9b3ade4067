import { describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { evaluatePolicy, type PolicyRule } from '../../../src/policy/index.js';
import { shellParserLoaded } from '../../../src/policy/shell-parser.js';

/** Without the bash grammar (not loaded, or failed to load) every command is unreadable: deny and
 * ask rules on commands match it, allow rules never apply. Fail closed, never open. */
describe('rules on commands without the grammar', () => {
  const bash = (command: string): ActionRequest => ({ kind: 'bash', paths: [], command, summary: `bash: ${command}` });
  const state = (rules: PolicyRule[]) => ({ root: '/project', preference: 'ask' as const, workflow: 'none' as const, preApproved: false, rules, sandbox: { available: true } });

  it('deny rules match, allow rules do not apply (unless spelled as the whole line)', () => {
    expect(shellParserLoaded()).toBe(false);
    const deny: PolicyRule[] = [{ tool: 'bash', pattern: 'curl:*', decision: 'deny', source: 'user' }];
    expect(evaluatePolicy(state(deny), bash('ls -la'), { tool: 'bash', canAsk: true })).toMatchObject({ decision: 'deny', code: 'deny_rule' });
    const allow: PolicyRule[] = [{ tool: 'bash', pattern: 'npm test:*', decision: 'allow', source: 'user' }];
    expect(evaluatePolicy(state(allow), bash('npm test'), { tool: 'bash', canAsk: true }).decision).toBe('ask');
    const exact: PolicyRule[] = [{ tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' }];
    expect(evaluatePolicy(state(exact), bash('npm test'), { tool: 'bash', canAsk: true }).decision).toBe('allow');
  });
});
