import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

const LONG_CELL = 'keeps every word of this long description even when the terminal is only eighty columns wide';
const LONG_CODE = `const settings = { ${Array.from({ length: 12 }, (_, index) => `option${index}: ${index}`).join(', ')} };`;
const ANSWER = [
  '| Setting | Description | Default |',
  '|---|---|---|',
  `| retries | ${LONG_CELL} | 3 |`,
  '| timeout | how long to wait | 30s |',
  '',
  '```ts',
  LONG_CODE,
  '```',
  '',
  'End of the answer.',
].join('\n');

describe.skipIf(!hasTmux)('Markdown at 80 columns (tmux)', () => {
  it('wraps a wide table inside its columns; a long code line stays one line (the terminal wraps it), nothing cut', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ text: ANSWER });
    const t = h.start(root, home, { width: 80, height: 24 });
    await t.waitFor('ask seek');
    t.type('show the settings');
    t.keys('Enter');
    await t.waitFor('End of the answer.');
    const rows = t.history().split('\n');
    expect(rows.join('\n')).not.toContain('…');
    for (const row of rows) expect(row.trimEnd().length).toBeLessThanOrEqual(80);

    // The Description column, read top to bottom, holds the whole cell.
    const tableRows = rows.filter((row) => row.startsWith('│'));
    const description = tableRows.map((row) => row.split('│')[2]?.trim() ?? '').filter(Boolean).join(' ');
    expect(description).toContain(LONG_CELL);
    expect(tableRows.some((row) => /│ retries +│/.test(row))).toBe(true);

    // The code line is printed whole, with no gutter: joined again, it is exactly the source line.
    expect(t.joinedHistory().split('\n').map((row) => row.trimEnd())).toContain(LONG_CODE);
  });
});
