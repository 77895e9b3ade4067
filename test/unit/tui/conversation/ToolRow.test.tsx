import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { ToolDisplay } from '../../../../src/agent/types.js';
import { formatDuration, ToolRow, type ToolItem } from '../../../../src/tui/components/conversation/index.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import type { ItemViewOptions } from '../../../../src/tui/types.js';
import { frameAtWidth, HAS_ANSI, widestLine } from './ink-at-width.js';

const COMPACT: ItemViewOptions = { width: 80, detail: false, color: true };
const DETAIL: ItemViewOptions = { width: 80, detail: true, color: true };

function tool(overrides: Partial<ToolItem>): ToolItem {
  return { kind: 'tool', id: 'call-1', name: 'bash', summary: 'npm test', status: 'done', durationMs: 1234, ...overrides };
}

function frame(item: ToolItem, options: ItemViewOptions = COMPACT): string {
  return render(<ToolRow item={item} options={options} />).lastFrame() ?? '';
}

const plainFrame = (item: ToolItem, options: ItemViewOptions = COMPACT): string => stripAnsi(frame(item, options));

const DIFF = `--- src/a.ts
+++ src/a.ts
@@ -1,3 +1,3 @@
 keep
-old line
+new line
 tail
`;

describe('ToolRow', () => {
  it('shows a glyph per status, coloured', () => {
    const cases: [ToolItem['status'], string, string][] = [
      ['running', '⋯', '\u001b[36m'],
      ['done', '✓', '\u001b[32m'],
      ['error', '✗', '\u001b[31m'],
      ['denied', '⊘', '\u001b[33m'],
    ];
    for (const [status, glyph, code] of cases) {
      const out = frame(tool({ status, output: 'x' }));
      expect(out.startsWith(`${code}${glyph}`)).toBe(true);
      expect(stripAnsi(out).split('\n')[0]).toMatch(new RegExp(`^${glyph} bash npm test`));
    }
  });

  it('shows the duration once finished, not while running', () => {
    expect(plainFrame(tool({ durationMs: 1234 })).split('\n')[0]).toBe('✓ bash npm test  1.2s');
    expect(plainFrame(tool({ durationMs: 34, status: 'running' }))).toBe('⋯ bash npm test');
    expect([formatDuration(34), formatDuration(1234), formatDuration(125_000)]).toEqual(['34ms', '1.2s', '2m 5s']);
  });

  it('cuts a long key argument to fit the width, keeping the duration', () => {
    const summary = `grep -rn ${'pattern '.repeat(40)}`;
    for (const width of [80, 200]) {
      const out = frameAtWidth(<ToolRow item={tool({ summary })} options={{ ...COMPACT, width }} />, width);
      const header = stripAnsi(out).split('\n')[0] ?? '';
      expect(header).toMatch(/… {2}1\.2s$/);
      expect(widestLine(out)).toBeLessThanOrEqual(width);
      expect(widestLine(out)).toBeGreaterThan(width - 3);
    }
  });

  it('shows the last three lines of a running command dimmed under it', () => {
    const out = frame(tool({ status: 'running', partial: 'one\ntwo\nthree\nfour\n' }));
    expect(stripAnsi(out)).toBe('⋯ bash npm test\n  two\n  three\n  four');
    expect(out).toContain('\u001b[2mfour'); // Ink re-encodes the closing codes, so only openings are checked
  });

  it('gives a one-line result hint per display kind', () => {
    const hint = (display: ToolDisplay, extra: Partial<ToolItem> = {}): string =>
      plainFrame(tool({ display, ...extra })).split('\n')[1] ?? '';
    expect(hint({ kind: 'diff', path: 'a.ts', diff: DIFF, added: 12, removed: 3 })).toBe('  └ +12 −3');
    expect(hint({ kind: 'command', command: 'npm test', cwd: '/', exitCode: 1, output: 'boom' }, { status: 'error' })).toBe(
      '  └ exit 1 · 1 line',
    );
    expect(hint({ kind: 'command', command: 'ls', cwd: '/', exitCode: 0, output: 'a\nb' })).toBe('  └ exit 0 · 2 lines');
    expect(hint({ kind: 'command', command: 'true', cwd: '/', exitCode: 0, output: '(no output)' })).toBe('  └ exit 0 · no output');
    expect(hint({ kind: 'file', path: 'a.ts', lines: 214, truncated: false })).toBe('  └ 214 lines');
    expect(hint({ kind: 'list', title: 'glob *.ts', items: ['a', 'b', 'c'], truncated: true })).toBe(
      '  └ 3 items (more not shown)',
    );
    expect(hint({ kind: 'list', title: 'glob *.ts', items: ['a', 'b'], truncated: false }, { name: 'glob' })).toBe('  └ 2 files');
    expect(hint({ kind: 'text', text: 'src/a.ts:3:x\nsrc/a.ts:9:x\nsrc/b.ts:1:x' }, { name: 'grep' })).toBe('  └ 3 matches in 2 files');
    expect(
      hint({
        kind: 'todos',
        items: [
          { content: 'a', status: 'completed' },
          { content: 'b', status: 'pending' },
        ],
      }),
    ).toBe('  └ 1/2 done');
    expect(hint({ kind: 'text', text: 'No matches' })).toBe('  └ No matches');
    expect(plainFrame(tool({ status: 'error', output: 'ENOENT: no such file\nstack…' })).split('\n')[1]).toBe(
      '  └ ENOENT: no such file',
    );
    expect(plainFrame(tool({ status: 'denied', output: 'Denied by rule deny bash(rm *)' })).split('\n')[1]).toBe(
      '  └ Denied by rule deny bash(rm *)',
    );
  });

  it('shows a coloured diff in detail mode', () => {
    const out = frame(tool({ name: 'edit', display: { kind: 'diff', path: 'a.ts', diff: DIFF, added: 1, removed: 1 } }), DETAIL);
    expect(out).toMatch(/\u001b\[31m-(\u001b\[[0-9;]*m)*old(\u001b\[[0-9;]*m)* line/); // Ink re-encodes closing codes: check openings
    expect(out).toMatch(/\u001b\[32m\+(\u001b\[[0-9;]*m)*new(\u001b\[[0-9;]*m)* line/);
    expect(out).toContain('\u001b[36m@@ -1,3 +1,3 @@');
    expect(stripAnsi(out).split('\n').slice(1, 7)).toEqual(['  +1 −1', '      --- src/a.ts', '      +++ src/a.ts', '      @@ -1,3 +1,3 @@', '  1 1  keep', '  2   -old line']);
  });

  it('says the tool once: a summary that starts with the name drops it', () => {
    const header = (name: string, summary: string) => plainFrame(tool({ name, summary, output: 'x' })).split('\n')[0];
    expect(header('bash', 'bash: npm test')).toBe('✓ bash npm test  1.2s');
    expect(header('grep', 'grep TODO in src')).toBe('✓ grep TODO in src  1.2s');
    expect(header('read_file', 'read src/a.ts')).toBe('✓ read src/a.ts  1.2s');
    expect(header('git', 'git status')).toBe('✓ git status  1.2s');
    expect(header('write_file', 'create notes.txt')).toBe('✓ write_file create notes.txt  1.2s');
  });

  it('a bash row: exit code, the last test summary line of the output, and its first lines', () => {
    const output = ['> vitest run', '', ' ✓ test/a.test.ts (3 tests)', ' ✗ test/b.test.ts (2 tests | 1 failed)', ' Test Files  1 failed | 1 passed (2)', '      Tests  1 failed | 4 passed (5)'].join('\n');
    const rows = plainFrame(tool({ status: 'error', summary: 'bash: npm test', display: { kind: 'command', command: 'npm test', cwd: '/', exitCode: 1, output } })).split('\n');
    expect(rows).toEqual(['✗ bash npm test  1.2s', '  └ exit 1 · 4 passed, 1 failed · 6 lines', '    > vitest run', '', '     ✓ test/a.test.ts (3 tests)', '    … 3 more lines · ctrl+t shows all']);
  });

  it('keeps an applied diff under its row with line numbers, collapsed past 8 lines', () => {
    const long = ['--- a.ts', '+++ a.ts', '@@ -1,2 +1,12 @@', ' keep', '-old', ...Array.from({ length: 10 }, (_, index) => `+line ${index + 1}`), ' tail'].join('\n');
    const rows = plainFrame(tool({ name: 'write_file', summary: 'overwrite a.ts', output: 'Overwrote a.ts (12 lines; +10 -1).', display: { kind: 'diff', path: 'a.ts', diff: long, added: 10, removed: 1 } })).split('\n');
    expect(rows[1]).toBe('  └ wrote 12 lines · +10 −1');
    expect(rows.slice(2)).toEqual([
      '          @@ -1,2 +1,12 @@',
      '     1  1  keep',
      '     2    -old',
      '        2 +line 1',
      '        3 +line 2',
      '        4 +line 3',
      '        5 +line 4',
      '        6 +line 5',
      '    … 6 more lines',
    ]);
  });

  it('a declined call with the user\'s words shows the words', () => {
    const output = 'The user declined: bash: npm test. They said what to do differently:\nuse yarn\nDo that instead; do not retry the declined call unchanged.';
    expect(plainFrame(tool({ status: 'denied', output })).split('\n')).toEqual(['⊘ bash npm test  1.2s', '  └ declined · you said: use yarn']);
  });

  it('shows command output, lists, todos and the model-facing text in detail mode', () => {
    const command = plainFrame(
      tool({ status: 'error', display: { kind: 'command', command: 'x', cwd: '/', exitCode: 2, output: 'line 1\nline 2' } }),
      DETAIL,
    );
    expect(command.split('\n').slice(1)).toEqual(['  line 1', '  line 2', '  exit 2']);
    const list = plainFrame(tool({ display: { kind: 'list', title: 't', items: ['src/a.ts', 'src/b.ts'], truncated: false } }), DETAIL);
    expect(list.split('\n').slice(1)).toEqual(['  src/a.ts', '  src/b.ts']);
    const todos = plainFrame(
      tool({
        display: {
          kind: 'todos',
          items: [
            { content: 'write tests', status: 'completed' },
            { content: 'fix bug', status: 'in_progress' },
            { content: 'ship', status: 'pending' },
          ],
        },
      }),
      DETAIL,
    );
    expect(todos.split('\n').slice(1)).toEqual(['  ☑ write tests', '  ◐ fix bug', '  ☐ ship']);
    const fallback = plainFrame(tool({ name: 'custom', output: 'what the model saw' }), DETAIL);
    expect(fallback.split('\n')[1]).toBe('  what the model saw');
  });

  it('caps long detail output at 200 lines with a marker', () => {
    const output = Array.from({ length: 250 }, (_unused, index) => `line ${index + 1}`).join('\n');
    const lines = plainFrame(tool({ display: { kind: 'command', command: 'x', cwd: '/', exitCode: 0, output } }), DETAIL).split(
      '\n',
    );
    expect(lines).toHaveLength(1 + 200 + 1);
    expect(lines[200]).toBe('  line 200');
    expect(lines[201]).toBe('  … 50 more lines');
  });

  it('emits no escape codes without colour', () => {
    const item = tool({ display: { kind: 'diff', path: 'a.ts', diff: DIFF, added: 1, removed: 1 } });
    expect(frame(item, { ...DETAIL, color: false })).not.toMatch(HAS_ANSI);
    expect(frame(tool({ status: 'running', partial: 'out' }), { ...COMPACT, color: false })).not.toMatch(HAS_ANSI);
  });

  it('strips escape codes from command output so they cannot restyle the screen', () => {
    const out = plainFrame(tool({ status: 'running', partial: '\u001b[31mred\u001b[0m \u001b[2Jclear' }));
    expect(out.split('\n')[1]).toBe('  red clear');
  });

  it('does not crash on empty strings', () => {
    expect(plainFrame(tool({ name: '', summary: '', output: '', partial: '' }))).toBe('✓   1.2s');
    expect(() => frame(tool({ status: 'error', output: '' }), DETAIL)).not.toThrow();
    expect(() => frame(tool({ display: { kind: 'text', text: '' } }), DETAIL)).not.toThrow();
  });
});
