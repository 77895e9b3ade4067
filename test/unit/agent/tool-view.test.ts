import { describe, expect, it } from 'vitest';
import { displayFromView, keptDisplay } from '../../../src/agent/tool-view.js';
import type { ToolDisplay } from '../../../src/agent/types.js';

describe('kept displays', () => {
  const command: ToolDisplay = { kind: 'command', command: 'ls', cwd: '/p', exitCode: 0, output: 'a\nb\n' };

  it('leave out a command output or a text equal to the content, and bring it back', () => {
    const kept = keptDisplay(command, 'a\nb\n\nexit code 0');
    expect(kept).toEqual({ kind: 'command', command: 'ls', cwd: '/p', exitCode: 0, outputInContent: 4 });
    expect(displayFromView(JSON.parse(JSON.stringify(kept)), 'a\nb\n\nexit code 0')).toEqual(command);
    const text: ToolDisplay = { kind: 'text', text: 'found' };
    expect(displayFromView(keptDisplay(text, 'found'), 'found')).toEqual(text);
  });

  it('keep a display that differs from the content, and read views written before this format', () => {
    expect(keptDisplay(command, 'other\n\nexit code 0')).toBe(command);
    expect(displayFromView(command, 'anything')).toEqual(command);
    expect(displayFromView(undefined, 'x')).toBeUndefined();
    const diff: ToolDisplay = { kind: 'diff', path: 'a', diff: '-x\n+y', added: 1, removed: 1 };
    expect(displayFromView(keptDisplay(diff, 'Edited a'), 'Edited a')).toEqual(diff);
  });
});
