/**
 * Ctrl+B on a running foreground `bash` command (tmux): the command becomes a background job
 * that keeps running, the pending call returns at once with the job's id and log file, so the
 * model's next request arrives while the command still runs; what it printed before the move and
 * after it is in the job's log.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { waitUntil } from '../support/tmux.js';

const h = tuiHarness();
const COMMAND = 'echo before-move; touch started; while [ ! -e release ]; do sleep 0.1; done; echo after-move';

describe.skipIf(!hasTmux)('Ctrl+B on a foreground bash command (tmux, 110x36)', () => {
  it('moves the running command to a background job; the turn goes on and the later output is in the job log', async () => {
    const { root, home } = makeProject();
    h.server.setFallback((request) => {
      const assistants = request.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;
      if (assistants === 0) return { toolCalls: [{ name: 'bash', arguments: { command: COMMAND } }] };
      return { text: 'Went on while the command runs.' };
    });
    const t = h.start(root, home, { width: 110, height: 36, args: ['--yolo'] });
    await t.waitFor('ask seek');
    t.type('run the slow command');
    t.keys('Enter');
    await waitUntil(() => existsSync(join(root, 'started')), 'the command started', 30_000);
    expect(h.server.requests).toHaveLength(1);
    t.keys('C-b');
    await t.waitFor(/moved the command "echo before-move.*to the background/, 30_000);
    await waitUntil(() => h.server.requests.length >= 2, 'the next model request', 30_000);
    // The command still runs (it waits for `release`): the request came without waiting for it.
    expect(existsSync(join(root, 'release'))).toBe(false);
    const result = JSON.stringify(h.server.requests[1]!.body.messages);
    const moved = /moved to background job (bg-\d+) \(pid \d+\) by the user; it keeps running\. Its output so far and from now on is written to (\S+\.log)/.exec(JSON.parse(result).find((m: { role: string }) => m.role === 'tool')?.content ?? '');
    expect(moved, result).not.toBeNull();
    const log = moved![2]!;
    await t.waitFor('Went on while the command runs.', 30_000);
    expect(readFileSync(log, 'utf8')).toContain('before-move');
    expect(readFileSync(log, 'utf8')).not.toContain('after-move');
    writeFileSync(join(root, 'release'), '');
    await waitUntil(() => readFileSync(log, 'utf8').includes('the command ended: exit code 0'), 'the job to end', 30_000);
    const text = readFileSync(log, 'utf8');
    expect(text.indexOf('before-move')).toBeLessThan(text.indexOf('after-move'));
  }, 180_000);
});
