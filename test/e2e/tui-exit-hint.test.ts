import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

describe.skipIf(!hasTmux)('the exit line (tmux)', () => {
  it('offers seek --resume only for a saved session, and the command it shows resumes it', async () => {
    const { root, home } = makeProject();
    // Nothing sent: nothing saved, no hint.
    const empty = h.start(root, home, { width: 100, height: 30 });
    await empty.waitFor('ask seek');
    empty.type('/exit');
    empty.keys('Enter');
    const gone = await empty.waitFor('[seek exited 0]');
    expect(gone).not.toContain('resume with');
    empty.kill();

    h.server.enqueue({ text: 'Hello from the first run.' }, { text: 'Welcome back.' });
    const first = h.start(root, home, { width: 100, height: 30 });
    await first.waitFor('ask seek');
    first.type('say hello');
    first.keys('Enter');
    await first.waitFor(/Hello from the first run\.[\s\S]*ask seek/);
    first.type('/exit');
    first.keys('Enter');
    const exited = await first.waitFor('[seek exited 0]');
    const hint = /resume with: seek (--resume \S+)/.exec(exited);
    expect(hint, exited).not.toBeNull();

    const again = TmuxSeek.start({ cwd: root, env: h.env(home), args: hint![1]!.split(' '), width: 100, height: 30 });
    try {
      await again.waitFor(/› say hello[\s\S]*Hello from the first run\.[\s\S]*ask seek/);
      again.type('and now?');
      again.keys('Enter');
      await again.waitFor('Welcome back.');
    } finally {
      again.kill();
    }
  });
});
