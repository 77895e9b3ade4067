import { describe, expect, it } from 'vitest';
import { expandCommandText, splitArguments, substituteArguments, type ExpandDeps } from '../../../src/extensions/command-text.js';
import { ToolScope } from '../../../src/extensions/allowed-tools.js';

describe('argument substitution', () => {
  it('puts $ARGUMENTS and $1..$9 in place; quotes group words; missing positions are empty', () => {
    expect(substituteArguments('Fix issue $1 in $2 ($ARGUMENTS); $3.', '42 "src/a b.ts"')).toBe('Fix issue 42 in src/a b.ts (42 "src/a b.ts"); .');
    expect(splitArguments(`one 'two words' "three"`)).toEqual(['one', 'two words', 'three']);
    expect(substituteArguments('$10 is not $1', 'x')).toBe('$10 is not x');
  });

  it('appends the arguments to a body that uses none, and leaves a body alone without arguments', () => {
    expect(substituteArguments('Review the diff.', 'focus on tests')).toBe('Review the diff.\n\nArguments: focus on tests');
    expect(substituteArguments('Review the diff.', '  ')).toBe('Review the diff.');
  });
});

describe('expansion', () => {
  const files: Record<string, string> = { 'notes.md': 'the notes' };
  const deps = (runs: string[], deny?: string): ExpandDeps => ({
    run: async (command) => {
      runs.push(command);
      return deny ? { ok: false, reason: deny } : { ok: true, value: `output of ${command}\n` };
    },
    read: async (path) => (path in files ? { ok: true, value: { path, text: files[path]! } } : undefined),
  });

  it('replaces !`cmd` by its output and appends @files; unknown mentions stay as written', async () => {
    const runs: string[] = [];
    const result = await expandCommandText('ctx', 'Status: !`git status $1`\nSee @notes.md, mail me@example.com and @missing.txt', 'short', deps(runs));
    expect(runs).toEqual(['git status short']);
    expect(result).toEqual({ text: 'Status: output of git status short\nSee @notes.md, mail me@example.com and @missing.txt\n\n<file path="notes.md">\nthe notes\n</file>' });
  });

  it('stops at a refused command and says which', async () => {
    const runs: string[] = [];
    const result = await expandCommandText('ctx', 'A !`date` B !`whoami`', '', deps(runs, 'bash is not allowed in this mode'));
    expect(runs).toEqual(['date']);
    expect(result).toEqual({ error: '/ctx: !`date` was not run: bash is not allowed in this mode' });
  });
});

describe('the tool scope (allowed-tools)', () => {
  it('refuses tools outside every active limit, never the skill tool, and intersects limits', () => {
    const scope = new ToolScope();
    expect(scope.refusal('bash', 'bash')).toBeUndefined();
    scope.narrow({ by: 'skill "review"', tools: ['read_file', 'grep', 'bash', 'mcp__github__*'] });
    expect(scope.refusal('read_file', 'read_file')).toBeUndefined();
    expect(scope.refusal('mcp_call', 'mcp__github__create_issue')).toBeUndefined();
    expect(scope.refusal('mcp_call', 'mcp__gitlab__x')).toMatch(/^mcp__gitlab__x is refused: skill "review" allows only/);
    expect(scope.refusal('skill', 'skill')).toBeUndefined();
    expect(scope.refusal('write_file', 'write_file')).toContain('until this turn ends');
    scope.narrow({ by: 'command /ro', tools: ['read_file'] });
    expect(scope.refusal('bash', 'bash')).toMatch(/command \/ro allows only read_file/);
    scope.reset();
    expect(scope.refusal('write_file', 'write_file')).toBeUndefined();
  });
});
