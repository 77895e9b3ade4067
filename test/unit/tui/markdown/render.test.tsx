import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { beforeEach, describe, expect, it } from 'vitest';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { clearMarkdownCache, renderMarkdown } from '../../../../src/tui/markdown/render.js';
import { textWidth } from '../../../../src/tui/markdown/width.js';
import { frameAtWidth, HAS_ANSI, widestLine } from '../conversation/ink-at-width.js';

const colored = (text: string, width = 80): string => renderMarkdown(text, { width, color: true });
const plain = (text: string, width = 80): string => renderMarkdown(text, { width, color: false });
const widths = (output: string): number[] => output.split('\n').map((line) => textWidth(stripAnsi(line)));

const SAMPLE = `# Plan

Some **bold**, *italic*, \`code\` and a [link](https://example.com/docs) here.

- first item with enough words to need wrapping when the terminal is narrow
  - nested item
- second

1. one
2. two

> quoted advice

---

| Name | Value |
|------|------:|
| a | 1 |

\`\`\`ts
const answer: number = 42; // comment
\`\`\`
`;

beforeEach(() => clearMarkdownCache());

describe('renderMarkdown', () => {
  it('renders headings bold and coloured, without the # markers', () => {
    const out = colored('# Title\n\n### Small');
    expect(out).toMatch(/\u001b\[1;4;35mTitle\u001b\[0m/);
    expect(out).toMatch(/\u001b\[1;36mSmall/);
    expect(plain('# Title\n\n### Small')).toBe('Title\n\nSmall');
  });

  it('styles inline bold, italic, code and shows a link with its url dimmed', () => {
    const out = colored('A **b** *i* `c` [docs](https://x.dev/d) <https://y.dev>');
    expect(out).toContain('\u001b[1mb\u001b[0m');
    expect(out).toContain('\u001b[3mi\u001b[0m');
    expect(out).toContain('\u001b[36mc\u001b[0m');
    expect(out).toContain('\u001b[2m(https://x.dev/d)\u001b[0m');
    expect(plain('A **b** *i* `c` [docs](https://x.dev/d) <https://y.dev>')).toBe(
      'A b i c docs (https://x.dev/d) https://y.dev',
    );
  });

  it('renders nested bullet and numbered lists with a hanging indent', () => {
    const text = '- alpha beta gamma delta epsilon zeta eta theta\n  - nested\n- two\n\n8. eight\n9. nine\n10. ten';
    expect(plain(text, 24)).toBe(
      [
        '• alpha beta gamma delta',
        '  epsilon zeta eta theta',
        '  ◦ nested',
        '• two',
        '',
        ' 8. eight',
        ' 9. nine',
        '10. ten',
      ].join('\n'),
    );
    expect(plain('- [x] done\n- [ ] open')).toBe('• [x] done\n• [ ] open');
  });

  it('renders quotes with a bar and rules across the width', () => {
    expect(plain('> a quoted line', 30)).toBe('│ a quoted line');
    expect(plain('---', 12)).toBe('─'.repeat(12));
  });

  it('draws tables with box characters at their natural width when they fit', () => {
    const out = plain('| Name | Value |\n|------|------:|\n| a | 1 |\n| bb | 22 |', 200);
    expect(out).toBe(
      [
        '┌──────┬───────┐',
        '│ Name │ Value │',
        '├──────┼───────┤',
        '│ a    │     1 │',
        '│ bb   │    22 │',
        '└──────┴───────┘',
      ].join('\n'),
    );
  });

  it('fits wide tables to the width and wraps cells inside their columns, no text cut', () => {
    const long = 'a description that is far too long for a narrow terminal to show in one cell';
    const table = `| Key | Description | N |\n|---|---|---|\n| id | ${long} | 7 |\n| other | short | 8 |`;
    for (const width of [40, 80]) {
      const out = plain(table, width);
      expect(Math.max(...widths(out))).toBeLessThanOrEqual(width);
      expect(Math.max(...widths(out))).toBeGreaterThan(width - 3); // the long column takes the room
      expect(out).not.toContain('…');
      expect(out).toMatch(/│ id +│/); // short columns keep their width
      // Every word of the long cell, in order, inside its column.
      const column = out
        .split('\n')
        .filter((line) => line.startsWith('│'))
        .map((line) => line.split('│')[2]!.trim())
        .join(' ');
      expect(column).toContain(long);
      expect(out).toMatch(/├─+┼─+┼─+┤\n│ other/); // wrapped rows are ruled apart
    }
    expect(plain(table, 200)).toContain(long);
    expect(plain(table, 200).split('\n')).toHaveLength(6); // nothing wraps: no rules between rows
  });

  it('shows a table too wide for its columns as a list of "header: value" lines', () => {
    const table = '| Name | Kind | Path | Owner | Notes |\n|---|---|---|---|---|\n| parser | module | src/markdown/parse.ts | core team | streams tokens as they come |\n| cli | entry | bin/seek.js | tools | starts everything |';
    const out = plain(table, 30);
    expect(Math.max(...widths(out))).toBeLessThanOrEqual(30);
    expect(out).not.toContain('┌');
    expect(out.split('\n').slice(0, 6)).toEqual(['Name: parser', 'Kind: module', 'Path: src/markdown/parse.ts', 'Owner: core team', 'Notes: streams tokens as', '  they come']);
    expect(out).toContain('\n\nName: cli\n');
  });

  it('highlights fenced code with colour and leaves it plain without', () => {
    const code = '```ts\nconst answer: number = 42; // comment\n```';
    const out = colored(code);
    const [label, line] = out.split('\n');
    expect(stripAnsi(label ?? '')).toBe('ts');
    expect(line).toContain('\u001b[35mconst\u001b[0m'); // keyword
    expect(line).toContain('\u001b[33m42\u001b[0m'); // number
    expect(line).toContain('\u001b[3;90m// comment\u001b[0m'); // comment
    const bare = plain(code);
    expect(bare).not.toMatch(HAS_ANSI);
    expect(bare).toBe('ts\nconst answer: number = 42; // comment');
  });

  it('shows unknown languages plain, still in a code block', () => {
    const out = colored('```nosuchlang\nlet x = 1\n```');
    expect(out.split('\n')[1]).toBe('let x = 1');
  });

  it('cuts a long code line at the width over rows, with no gutter or marker, no character lost; keeps it whole for the scrollback', () => {
    const longLine = `const value = ${'"x".repeat(3) + '.repeat(30)}"end";`;
    for (const width of [40, 80, 200]) {
      const out = colored(`\`\`\`js\n${longLine}\nshort();\n\`\`\``, width);
      const lines = out.split('\n').map(stripAnsi);
      expect(Math.max(...lines.map(textWidth))).toBeLessThanOrEqual(width);
      expect(lines.at(-1)).toBe('short();');
      const rows = lines.slice(1, -1);
      expect(rows[0]!.startsWith('const value')).toBe(true);
      expect(textWidth(rows[0]!)).toBe(Math.min(width, textWidth(longLine)));
      expect(rows.join('')).toBe(longLine);
      expect(out).not.toContain('…');
      const kept = stripAnsi(renderMarkdown(`\`\`\`js\n${longLine}\n\`\`\``, { width, color: true, keepLongLines: true }));
      expect(kept.split('\n')[1]).toBe(longLine);
    }
  });

  it('renders an unclosed fence while streaming as a code block in progress', () => {
    expect(plain('Here:\n\n```ts\nconst a = 1;\nconst b')).toBe('Here:\n\nts\nconst a = 1;\nconst b');
    expect(plain('```py')).toBe('py\n');
    expect(colored('```ts\nconst a = 1;\nconst b')).toContain('\u001b[35mconst\u001b[0m');
  });

  it('never throws on incomplete or odd input', () => {
    const inputs = ['', '**', 'a **dangling', '| a | b |\n|--', '```', '~~~\n', '[x](', '<div>', '1.', '- ', '> ', '#'];
    for (const input of inputs) {
      for (const width of [1, 2, 10, 80]) expect(() => colored(input, width)).not.toThrow();
    }
    for (let cut = 0; cut <= SAMPLE.length; cut += 1) {
      const out = colored(SAMPLE.slice(0, cut), 30);
      expect(Math.max(0, ...widths(out))).toBeLessThanOrEqual(30);
    }
  });

  it('wraps CJK text by columns, breaking between characters', () => {
    const text = '这是一个用于测试换行的中文句子，它没有空格，所以必须在字符之间换行。English words mixed in.';
    const out = plain(text, 20);
    const lineWidths = widths(out);
    expect(Math.max(...lineWidths)).toBeLessThanOrEqual(20);
    expect(lineWidths.slice(0, 3).every((width) => width >= 18)).toBe(true);
    expect(out.replace(/[\n ]/g, '')).toBe(text.replace(/ /g, '')); // nothing lost but the spaces at breaks
    // Closing punctuation never starts a line.
    expect(out.split('\n').some((line) => /^[，。]/.test(line))).toBe(false);
  });

  it('keeps the same layout with and without colour', () => {
    for (const width of [40, 80, 200]) expect(stripAnsi(colored(SAMPLE, width))).toBe(plain(SAMPLE, width));
  });

  it('removes escape sequences and control characters from the text', () => {
    expect(plain('safe \u001b[2Jtext\u0007 here')).toBe('safe text here');
  });

  it('gives the same result incrementally as from scratch, for every prefix', () => {
    const text = `${SAMPLE}\nIntro\n===\n\n1. item\n\n   continued\n\n* a\n\n  * nested after blank\n\nend`;
    const incremental = Array.from({ length: text.length + 1 }, (_unused, cut) => colored(text.slice(0, cut), 50));
    for (let cut = 0; cut <= text.length; cut += 1) {
      clearMarkdownCache();
      expect(colored(text.slice(0, cut), 50)).toBe(incremental[cut]);
    }
  });

  it('lays out inside Ink without being re-wrapped, at 80 and 200 columns', () => {
    const long = `${SAMPLE}\n${'word '.repeat(100)}`;
    const { lastFrame } = render(<Text>{colored(long, 80)}</Text>);
    expect(stripAnsi(lastFrame() ?? '')).toBe(plain(long, 80));
    const wide = frameAtWidth(<Text>{colored(long, 200)}</Text>, 200);
    expect(widestLine(wide)).toBeLessThanOrEqual(200);
    expect(widestLine(wide)).toBeGreaterThan(150); // the paragraph uses the room
    expect(stripAnsi(wide)).toBe(plain(long, 200));
  });
});
