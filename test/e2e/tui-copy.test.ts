import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

const CODE = [
  'function greet(name: string): string {',
  `  return ['Hello', name, ${Array.from({ length: 12 }, (_, index) => `'part${index}'`).join(', ')}].join(' '); // a line wider than the terminal`,
  '}',
];
const URL = `https://example.com/${Array.from({ length: 28 }, (_, index) => `segment${index}`).join('/')}?q=1`;

describe.skipIf(!hasTmux)('copying from the scrollback (tmux, 80x24)', () => {
  it('a code block copies as exactly its lines, and a 300-character URL comes back unbroken', async () => {
    expect(URL.length).toBeGreaterThan(290);
    const { root, home } = makeProject();
    h.server.enqueue({ text: ['Here is the code:', '', '```ts', ...CODE, '```', '', `Docs: ${URL}`, '', 'Done.'].join('\n') });
    const t = h.start(root, home, { width: 80, height: 24 });
    await t.waitFor('ask seek');
    t.type('show me');
    t.keys('Enter');
    await t.waitFor(/Done\.[\s\S]*ask seek/);
    const rows = t.joinedHistory().split('\n').map((row) => row.trimEnd());
    const start = rows.indexOf(CODE[0]!);
    expect(start, rows.join('\n')).toBeGreaterThan(-1);
    expect(rows.slice(start, start + CODE.length)).toEqual(CODE);
    expect(rows.some((row) => row.includes(URL)), rows.join('\n')).toBe(true);
    expect(rows.join('\n')).not.toMatch(/[│↪]/);
  });
});
