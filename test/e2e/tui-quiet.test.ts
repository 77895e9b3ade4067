import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();
const PASTE = Array.from({ length: 12 }, (_, index) => `pasted row ${index + 1}`).join('\n');

describe.skipIf(!hasTmux)('a quiet transcript (tmux, 100x40)', () => {
  it('a paste shows folded, a custom command as typed (both whole in Ctrl+O), one blank line between turns', async () => {
    const { root, home } = makeProject();
    mkdirSync(join(root, '.seek/commands'), { recursive: true });
    writeFileSync(join(root, '.seek/commands/review.md'), '---\ndescription: Review a file\n---\nReview $1 carefully, line by line, and report every problem you find.\n');
    h.server.enqueue({ text: 'Read the paste.' }, { text: 'Reviewed it.' });
    const t = h.start(root, home, { width: 100, height: 40 });
    await t.waitFor('ask seek');
    t.type('look at this: ');
    // A bracketed paste, as a terminal sends one.
    t.type(`\u001b[200~${PASTE}\u001b[201~`);
    await t.waitFor('[pasted text #1: 12 lines]');
    t.keys('Enter');
    await t.waitFor(/Read the paste\.[\s\S]*ask seek/);
    t.type('/review notes.txt');
    t.keys('Enter');
    await t.waitFor(/Reviewed it\.[\s\S]*ask seek/);
    expect(h.server.requests[0]!.body.messages.at(-1).content).toContain('pasted row 12');
    expect(h.server.requests[1]!.body.messages.at(-1).content).toContain('Review notes.txt carefully');

    const rows = t.history().split('\n').map((row) => row.trimEnd());
    expect(rows).toContain('› look at this: [pasted text: 12 lines]');
    expect(rows).toContain('› /review notes.txt');
    expect(rows.join('\n')).not.toContain('pasted row 1');
    expect(rows.join('\n')).not.toContain('line by line');
    // One blank line between the first answer and the next prompt.
    const next = rows.indexOf('› /review notes.txt');
    expect(rows.slice(next - 2, next)).toEqual(['Read the paste.', '']);

    t.keys('C-o');
    await t.waitFor('esc or ctrl+o close');
    const transcript = t.visible();
    expect(transcript).toContain('pasted row 12');
    expect(transcript).toContain('line by line');
    t.keys('Escape');
  });
});
