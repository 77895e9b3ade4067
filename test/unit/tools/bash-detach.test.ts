/**
 * A foreground bash command moved to the background (what Ctrl+B does through ForegroundCommands):
 * the pending call returns at once with the job, the output before and after the move is in the
 * job's log, the job is listed like a started one, the turn's cancellation no longer reaches it, and killBackgroundJobs (the session's end) ends it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backgroundOutputDir } from '../../../src/tools/background-jobs.js';
import { createBashTool, killBackgroundJobs, listBackgroundJobs } from '../../../src/tools/bash.js';
import { ForegroundCommands } from '../../../src/tools/foreground-commands.js';
import { makeCtx, run, tempDir } from './helpers.js';

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

afterAll(() => {
  killBackgroundJobs('SIGKILL');
  rmSync(backgroundOutputDir(), { recursive: true, force: true });
});

const WAITING = 'echo before; touch started; while [ ! -e release ]; do sleep 0.05; done; echo after; exit 3';

describe('moving a foreground bash command to the background', () => {
  it('returns at once with the job; the log holds the output before and after; the job ends on its own', async () => {
    const root = tempDir();
    const foreground = new ForegroundCommands();
    const controller = new AbortController();
    const pending = run(createBashTool({ foreground }), { command: WAITING }, makeCtx(root, { signal: controller.signal }));
    await waitFor(() => existsSync(join(root, 'started')), 'the command to start');
    expect(foreground.size).toBe(1);
    expect(foreground.detachNewest()).toBe(WAITING);
    expect(foreground.size).toBe(0);
    const result = await pending;
    const moved = /^moved to background job (bg-\d+) \(pid (\d+)\) by the user; it keeps running\. Its output so far and from now on is written to (\S+)$/.exec(result.content);
    expect(moved, result.content).not.toBeNull();
    expect(result.isError).toBeUndefined();
    const [, id, , log] = moved!;
    // The turn's cancellation no longer reaches the job: it goes on to print `after` below.
    controller.abort();
    expect(listBackgroundJobs().find((job) => job.id === id)).toMatchObject({ running: true, command: WAITING });
    // `before` may still be in the pipe, unread by seek, when the command is moved: it reaches the log all the same.
    await waitFor(() => readFileSync(log!, 'utf8') !== '', 'the output so far in the log');
    expect(readFileSync(log!, 'utf8')).toBe('before\n');
    writeFileSync(join(root, 'release'), '');
    await waitFor(() => readFileSync(log!, 'utf8').includes('seek: the command ended: exit code 3'), 'the job to end');
    expect(readFileSync(log!, 'utf8')).toBe('before\nafter\nseek: the command ended: exit code 3\n');
    expect(listBackgroundJobs().find((job) => job.id === id)).toMatchObject({ running: false, exitCode: 3 });
  });

  it('is ended with the other background jobs (the session ends)', async () => {
    const root = tempDir();
    const foreground = new ForegroundCommands();
    const pending = run(createBashTool({ foreground }), { command: WAITING }, makeCtx(root));
    await waitFor(() => existsSync(join(root, 'started')), 'the command to start');
    foreground.detachNewest();
    const id = /background job (bg-\d+)/.exec((await pending).content)![1];
    expect(killBackgroundJobs()).toBeGreaterThanOrEqual(1);
    await waitFor(() => listBackgroundJobs().find((job) => job.id === id)?.running === false, 'the job to be killed');
    expect(listBackgroundJobs().find((job) => job.id === id)?.exitCode).not.toBe(0);
  });

  it('leaves a command that ends first as an ordinary result, and unregisters it', async () => {
    const root = tempDir();
    const foreground = new ForegroundCommands();
    const result = await run(createBashTool({ foreground }), { command: 'echo quick' }, makeCtx(root));
    expect(result.content).toBe('quick\n\nexit code 0');
    expect(foreground.size).toBe(0);
    expect(foreground.detachNewest()).toBeUndefined();
  });
});
