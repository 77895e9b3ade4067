import { afterEach, describe, expect, it } from 'vitest';
import { findShownPath } from '../../../../src/tui/components/conversation/tool-path.js';
import { detailBody, headerLine, type ToolItem } from '../../../../src/tui/components/conversation/tool-lines.js';
import { lineToString, setHyperlinks, stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { fileUrl } from '../../../../src/tui/markdown/file-links.js';
import { lineWidth } from '../../../../src/tui/markdown/width.js';
import { itemsFromHistory } from '../../../../src/tui/state/conversation.js';
import type { Message } from '../../../../src/providers/types.js';

const OSC8 = '\u001b]8;;';
const FILE = '/work/proj/src/tools/read-file.ts';

function tool(overrides: Partial<ToolItem>): ToolItem {
  return { kind: 'tool', id: 'c1', name: 'read_file', summary: 'read src/tools/read-file.ts', status: 'done', durationMs: 1234, paths: [FILE], ...overrides };
}

afterEach(() => setHyperlinks(false));

describe('the path a tool row shows (findShownPath)', () => {
  it('finds the path at the end of the summary as the tool showed it', () => {
    expect(findShownPath('src/tools/read-file.ts', [FILE])).toEqual({ before: '', shown: 'src/tools/read-file.ts', file: FILE });
    expect(findShownPath('foo bar in src/tools', ['/work/proj/src/tools'])).toEqual({ before: 'foo bar in ', shown: 'src/tools', file: '/work/proj/src/tools' });
    expect(findShownPath('*.ts in .', ['/work/proj'])).toEqual({ before: '*.ts in ', shown: '.', file: '/work/proj' });
    expect(findShownPath(`create ${FILE}`, [FILE])?.shown).toBe(FILE);
  });

  it('finds nothing when the summary does not end with the file', () => {
    expect(findShownPath('npm test', [FILE])).toBeUndefined();
    expect(findShownPath('read other.ts', [FILE])).toBeUndefined();
    expect(findShownPath('read -file.ts', [FILE])).toBeUndefined();
    expect(findShownPath('read src/tools/read-file.ts', undefined)).toBeUndefined();
  });
});

describe('tool rows with links on', () => {
  it('link the shown path to the absolute file, the text as before', () => {
    setHyperlinks(true);
    const line = lineToString(headerLine(tool({}), 80), true);
    expect(line).toContain(`${OSC8}${fileUrl(FILE)}\u001b\\src/tools/read-file.ts${OSC8}\u001b\\`);
    expect(stripAnsi(line)).toBe('✓ read src/tools/read-file.ts  1.2s');
  });

  it('cut the text before the path first; a path wider than the row is cut with … and its link stays whole', () => {
    setHyperlinks(true);
    const grep = tool({ name: 'grep', summary: `grep ${'pattern'.repeat(6)} in src/tools`, paths: ['/work/proj/src/tools'] });
    const header = headerLine(grep, 40);
    expect(lineWidth(header)).toBeLessThanOrEqual(40);
    expect(stripAnsi(lineToString(header, true))).toMatch(/^✓ grep pattern\S*… src\/tools {2}1\.2s$/);
    const cut = headerLine(tool({ summary: `read ${'long/'.repeat(12)}read-file.ts`, paths: [`/p/${'long/'.repeat(12)}read-file.ts`] }), 40);
    expect(lineWidth(cut)).toBeLessThanOrEqual(40);
    const out = lineToString(cut, true);
    expect(stripAnsi(out)).toMatch(/^✓ read long\/long\/\S*…  1\.2s$/);
    expect(out).toContain(`${OSC8}${fileUrl(`/p/${'long/'.repeat(12)}read-file.ts`)}\u001b\\`);
  });

  it('link the file names of an edit diff\'s headers in the detail view', () => {
    const diff = '--- src/a.ts\n+++ src/a.ts\n@@ -1 +1 @@\n-old\n+new\n';
    const edit = tool({ name: 'edit_file', summary: 'edit src/a.ts', paths: ['/work/proj/src/a.ts'], display: { kind: 'diff', path: 'src/a.ts', diff, added: 1, removed: 1 } });
    const rows = () => detailBody(edit, 60).map((line) => lineToString(line, true));
    expect(rows().join('\n')).not.toContain(OSC8);
    setHyperlinks(true);
    const headers = rows().filter((row) => /^(---|\+\+\+)/.test(stripAnsi(row).trim()));
    expect(headers).toHaveLength(2);
    for (const row of headers) expect(row).toContain(`${OSC8}${fileUrl('/work/proj/src/a.ts')}\u001b\\`);
  });

  it('are laid out as before with links off', () => {
    const grep = tool({ name: 'grep', summary: `grep ${'pattern'.repeat(6)} in src/tools`, paths: ['/work/proj/src/tools'] });
    const withoutPaths = { ...grep, paths: undefined };
    for (const width of [40, 80]) {
      expect(lineToString(headerLine(grep, width), true)).toBe(lineToString(headerLine(withoutPaths, width), true));
      expect(lineToString(headerLine(grep, width), true)).not.toContain(OSC8);
    }
  });
});

describe('files of resumed tool rows', () => {
  const assistant = (calls: { id: string; name: string; arguments: string }[]): Message => ({ role: 'assistant', content: '', toolCalls: calls, stopReason: 'tool_calls' });
  it('come from the kept view, else from the arguments and the session directory', () => {
    const history: Message[] = [
      assistant([
        { id: 'r1', name: 'read_file', arguments: JSON.stringify({ path: 'src/a.ts' }) },
        { id: 'g1', name: 'glob', arguments: JSON.stringify({ pattern: '*.ts' }) },
        { id: 'b1', name: 'bash', arguments: JSON.stringify({ command: 'ls' }) },
        { id: 'e1', name: 'edit_file', arguments: JSON.stringify({ path: 'x.ts' }) },
      ]),
      { role: 'tool', toolCallId: 'r1', toolName: 'read_file', content: 'x', isError: false },
      { role: 'tool', toolCallId: 'g1', toolName: 'glob', content: 'x', isError: false },
      { role: 'tool', toolCallId: 'b1', toolName: 'bash', content: 'x', isError: false },
      { role: 'tool', toolCallId: 'e1', toolName: 'edit_file', content: 'x', isError: false, view: { title: 'edit x.ts', paths: ['/elsewhere/x.ts'] } },
    ];
    const paths = itemsFromHistory(history, '/work/proj').map((item) => (item.kind === 'tool' ? item.paths : undefined));
    expect(paths).toEqual([['/work/proj/src/a.ts'], ['/work/proj'], undefined, ['/elsewhere/x.ts']]);
    expect(itemsFromHistory(history).map((item) => (item.kind === 'tool' ? item.paths : undefined))).toEqual([undefined, undefined, undefined, ['/elsewhere/x.ts']]);
  });
});
