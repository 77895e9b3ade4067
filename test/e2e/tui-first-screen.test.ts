import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { SLASH_COMMANDS } from '../../src/tui/commands/index.js';

const h = tuiHarness();
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe.skipIf(!hasTmux)('first screen, slash menu and /resume (tmux)', () => {
  for (const [width, height] of [
    [80, 24],
    [120, 40],
  ] as const) {
    it(`at ${width}x${height}: the first screen names version, model, provider, project, branch and mode, with tips; the slash menu says how many more`, async () => {
      const { root, home } = makeProject();
      const t = h.start(root, home, { width, height });
      const screen = await t.waitFor('ask seek');
      expect(screen).toContain(`seek ${VERSION} · deepseek-v4-flash via deepseek · mode ask`);
      expect(screen).toContain('project repo (main)');
      expect(screen).toMatch(/tip: \/ for commands/);
      expect(screen.match(/tip: /g)).toHaveLength(3);

      t.type('/');
      const menu = await t.waitFor(/↓ \d+ more/);
      const more = Number(/↓ (\d+) more/.exec(menu)![1]);
      const shown = menu.split('\n').filter((row) => /^ {2}\/[a-z]+ /.test(row)).length;
      expect(shown + more).toBe(SLASH_COMMANDS.length); // every command is either shown or counted
      t.keys('Up'); // the selection wraps to the last command: the window follows it
      await t.waitFor(/↑ \d+ more/);
      expect(t.visible()).toContain('/exit');
    });
  }

  it('/resume lists only sessions with a prompt and an answer, by first prompt and age', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ text: 'remembered answer' });
    expect((await runSeek(['-p', 'the earlier question'], { cwd: root, env: h.env(home) })).code).toBe(0);
    const t = h.start(root, home, { width: 80, height: 24 });
    await t.waitFor('ask seek');
    t.type('/resume');
    t.keys('Enter');
    const picker = await t.waitFor('Resume a session');
    expect(picker).toMatch(/❯ +\d+[smhd] ago {2}the earlier question/);
    expect(picker.split('\n').filter((row) => / ago {2}/.test(row))).toHaveLength(1);
    t.keys('Escape');
  });
});
