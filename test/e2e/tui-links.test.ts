import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { waitUntil, type TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

const URL = `https://example.com/${Array.from({ length: 28 }, (_, index) => `segment${index}`).join('/')}?q=1`;
const GUIDE = 'https://example.org/guide';
const ANSWER = `Docs: ${URL}\n\nSee [the guide](${GUIDE}) too. Done.`;
const OSC8 = '\u001b]8;;';
const link = (target: string) => `${OSC8}${target}\u001b\\`;

/** One answer with a bare URL and a Markdown link, its terminal output recorded; returns the bytes
 * written to the terminal and the terminal. */
async function answerRecorded(env: Record<string, string>): Promise<{ raw: string; t: TmuxSeek }> {
  const { root, home } = makeProject();
  const log = join(tempDir('seek-links-'), 'output.log');
  h.server.enqueue({ text: ANSWER });
  const t = h.start(root, home, { width: 80, height: 24, env });
  await t.waitFor('ask seek');
  t.recordOutput(log);
  t.type('links please');
  t.keys('Enter');
  await t.waitFor(/Done\.[\s\S]*ask seek/);
  // The status bar is drawn after the answer is printed: once it is in the log, so is the answer.
  await waitUntil(() => existsSync(log) && /Done\.[\s\S]*ask seek/.test(readFileSync(log, 'latin1')), 'the answer reached the recorded output');
  return { raw: readFileSync(log, 'utf8'), t };
}

describe.skipIf(!hasTmux)('links in answers (tmux, 80x24)', () => {
  it('are OSC 8 hyperlinks, while the text shown stays the whole unbroken URL', async () => {
    const { raw, t } = await answerRecorded({});
    expect(raw).toContain(`${link(URL)}`);
    expect(raw).toContain(link(GUIDE));
    // Each link is closed again.
    expect(raw.split(OSC8).length - 1).toBeGreaterThanOrEqual(4);
    expect(raw).toContain(`${OSC8}\u001b\\`);
    const rows = t.joinedHistory().split('\n');
    expect(rows.some((row) => row.includes(URL)), rows.join('\n')).toBe(true);
    expect(rows.some((row) => row.includes(`the guide (${GUIDE})`))).toBe(true);
  });

  it('are plain text with SEEK_HYPERLINKS=0 and with NO_COLOR', async () => {
    const runs: Array<Record<string, string>> = [{ SEEK_HYPERLINKS: '0' }, { NO_COLOR: '1' }];
    for (const env of runs) {
      const { raw, t } = await answerRecorded(env);
      expect(raw, JSON.stringify(env)).not.toContain(OSC8);
      expect(t.joinedHistory()).toContain(URL);
      if (env !== runs.at(-1)) t.kill(); // the harness kills the last one
    }
  });
});
