import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { diffLines, DiffView } from '../../../../src/tui/components/conversation/index.js';
import { linesToString, stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { frameAtWidth, HAS_ANSI, widestLine } from './ink-at-width.js';

const DIFF = `===================================================================
--- src/a.ts
+++ src/a.ts
@@ -10,4 +10,4 @@
 const a = 1;
-const b = 2;
+const b = 3;
 const c = 4;
\\ No newline at end of file
`;

describe('DiffView', () => {
  it('colours added lines green, removed red, hunk headers cyan, file headers bold', () => {
    const out = render(<DiffView diff={DIFF} color />).lastFrame() ?? '';
    expect(out).toContain('\u001b[32m+const b = 3;');
    expect(out).toContain('\u001b[31m-const b = 2;');
    expect(out).toContain('\u001b[36m@@ -10,4 +10,4 @@');
    expect(out).toContain('\u001b[1m--- src/a.ts');
    expect(out).toContain('\u001b[1m+++ src/a.ts');
    expect(stripAnsi(out).split('\n')).toEqual([
      '--- src/a.ts',
      '+++ src/a.ts',
      '@@ -10,4 +10,4 @@',
      ' const a = 1;',
      '-const b = 2;',
      '+const b = 3;',
      ' const c = 4;',
      '\\ No newline at end of file',
    ]);
  });

  it('emits no escape codes without colour', () => {
    const out = render(<DiffView diff={DIFF} color={false} />).lastFrame() ?? '';
    expect(out).not.toMatch(HAS_ANSI);
    expect(out).toContain('+const b = 3;');
  });

  it('caps at maxLines with a marker and shows line numbers on request', () => {
    const capped = stripAnsi(render(<DiffView diff={DIFF} color maxLines={3} />).lastFrame() ?? '');
    expect(capped.split('\n')).toEqual(['--- src/a.ts', '+++ src/a.ts', '@@ -10,4 +10,4 @@', '… 5 more lines']);
    const numbered = linesToString(diffLines(DIFF, { lineNumbers: true }), false).split('\n');
    // The old number, then the new one: a removed line has only the old, an added line only the new.
    expect(numbered.slice(3, 7)).toEqual(['10 10  const a = 1;', '11    -const b = 2;', '   11 +const b = 3;', '12 12  const c = 4;']);
  });

  it('cuts long lines at the width instead of wrapping them', () => {
    const long = `@@ -1 +1 @@\n-${'x'.repeat(300)}\n+${'y'.repeat(300)}\n`;
    for (const width of [80, 200]) {
      const out = frameAtWidth(<DiffView diff={long} color width={width} />, width);
      expect(out.split('\n')).toHaveLength(3);
      expect(widestLine(out)).toBe(width);
      expect(stripAnsi(out)).toContain('…');
    }
  });

  it('highlights the changed words of a replaced line, not the words both versions share', () => {
    const lines = diffLines('@@ -1 +1 @@\n-const total = price * count;\n+const total = price * quantity;\n', { words: true });
    const removed = lines[1]!;
    const added = lines[2]!;
    const emphasised = (line: typeof removed) => line.filter((segment) => segment.style?.underline === true).map((segment) => segment.text.trim());
    expect(emphasised(removed)).toEqual(['count']);
    expect(emphasised(added)).toEqual(['quantity']);
    expect(linesToString([added], false)).toBe('+const total = price * quantity;');
    // A rewrite (almost nothing shared) is left whole: highlighting every word says nothing.
    const rewrite = diffLines('@@ -1 +1 @@\n-alpha beta gamma\n+one two three\n', { words: true });
    expect(rewrite.flat().some((segment) => segment.style?.underline === true)).toBe(false);
  });

  it('wraps long lines under the number gutter when asked, keeping every character', () => {
    const long = `@@ -1 +1 @@\n-${'x'.repeat(50)}\n+${'y'.repeat(50)}\n`;
    const rows = linesToString(diffLines(long, { width: 30, wrap: true, lineNumbers: true }), false).split('\n');
    expect(rows.every((row) => row.length <= 30)).toBe(true);
    expect(rows.join('').replace(/[^y]/g, '')).toHaveLength(50);
    expect(rows[1]!.startsWith('1   -x')).toBe(true);
    expect(rows[2]!.startsWith('    x')).toBe(true); // a wrapped row: blank gutter
  });

  it('renders nothing for an empty diff', () => {
    expect(render(<DiffView diff="" color />).lastFrame()).toBe('');
  });
});
