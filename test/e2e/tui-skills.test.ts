import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

function put(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe.skipIf(!hasTmux)('skills and custom commands in the terminal UI (tmux)', () => {
  it('offers custom commands in the slash menu with their description, runs one, and lists skills', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.claude/commands/frontend/review.md'), '---\ndescription: Review a frontend file\nargument-hint: "<file>"\n---\nReview $1 for the frontend team.\n');
    put(join(userHome, '.claude/skills/pdf/SKILL.md'), '---\nname: pdf\ndescription: Fill PDF forms\n---\nUse the script.\n');
    h.server.enqueue({ text: 'Reviewed it.' });
    const t = h.start(root, home, { width: 120, height: 40, env: { HOME: userHome } });
    await t.waitFor('ask seek');
    // Named by its file, as in Claude Code; the folder shows in the description.
    t.type('/revi');
    await t.waitFor(/\/review\s+Review a frontend file \(project:frontend\) <file>/);
    t.type('ew src/app.tsx');
    t.keys('Enter');
    await t.waitFor('Reviewed it.');
    expect(h.server.requests[0]!.body.messages.at(-1).content).toBe('Review src/app.tsx for the frontend team.');
    t.type('/skills');
    t.keys('Enter');
    await t.waitFor(/pdf\s+Fill PDF forms/);
    await t.waitFor(join(userHome, '.claude', 'skills', 'pdf', 'SKILL.md'));
  });
});
