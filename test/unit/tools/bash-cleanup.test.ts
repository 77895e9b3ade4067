import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backgroundOutputDir } from '../../../src/tools/background-jobs.js';
import { createBashTool, killBackgroundJobs } from '../../../src/tools/bash.js';
import type { ToolResult } from '../../../src/agent/types.js';
import { makeCtx, run, tempDir } from './helpers.js';

const tool = createBashTool();

/**
 * A `sleep` duration that doubles as a unique marker: `sleep 1000.<random digits>` is an ordinary
 * sleep, and no other process on the machine has that argument.
 */
function newMarker(): string {
  return `1000.${randomInt(1e9, 1e10)}`;
}

/** Live (non-zombie) `sleep <marker>` processes, found through /proc. */
function sleepersWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (path.basename(argv[0] ?? '') === 'sleep' && argv[1] === marker) found.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const markers: string[] = [];
function marker(): string {
  const value = newMarker();
  markers.push(value);
  return value;
}

afterAll(() => {
  // A failing test must not leave its sleepers behind. (Not in afterEach: tests run concurrently.)
  for (const value of markers.splice(0)) for (const pid of sleepersWith(value)) process.kill(pid, 'SIGKILL');
  killBackgroundJobs('SIGKILL');
  rmSync(backgroundOutputDir(), { recursive: true, force: true });
});

/** How a command leaves a process behind. `M` is replaced by the marker. */
const leftBehind: [string, string][] = [
  ['sleep &', 'sleep M &'],
  ['nohup … &', 'nohup sleep M >/dev/null 2>&1 &'],
  ['setsid … & (a new session and group)', 'setsid sleep M >/dev/null 2>&1 &'],
  ['a double-forked daemon', '( setsid sh -c "sleep M" >/dev/null 2>&1 & ) &'],
];

describe.skipIf(process.platform !== 'linux')('bash ends everything a foreground command started (Linux)', () => {
  it.each(leftBehind)('when the command exits: %s', async (_name, starter) => {
    const root = tempDir();
    const id = marker();
    // The command waits until the test has seen its sleeper run, then exits with it still running.
    const pending = run(tool, { command: `${starter.replace('M', id)}\nuntil [ -e go ]; do sleep 0.01; done; echo done` }, makeCtx(root));
    await waitFor(() => sleepersWith(id).length > 0, 'the sleeper runs');
    writeFileSync(path.join(root, 'go'), '');
    const result = await pending;
    expect(result.content).toBe('done\n\nexit code 0');
    await waitFor(() => sleepersWith(id).length === 0, 'the sleeper is gone');
  });

  // Concurrent: each waits out its own 3 s timeout.
  it.concurrent.for(leftBehind)('when the command times out: %s', async ([, starter], { expect }) => {
    const id = marker();
    let seen = false;
    const pending = run(tool, { command: `${starter.replace('M', id)}\nsleep 1000`, timeout_ms: 3_000 }, makeCtx(tempDir()));
    let result: ToolResult | undefined;
    void pending.then((value) => (result = value));
    await waitFor(() => (seen ||= sleepersWith(id).length > 0) || result !== undefined, 'the sleeper runs or the command ends');
    result = await pending;
    expect(seen).toBe(true);
    expect(result.content).toContain('timed out after 3000 ms');
    await waitFor(() => sleepersWith(id).length === 0, 'the sleeper is gone');
  });

  it.each(leftBehind)('when the command is cancelled: %s', async (_name, starter) => {
    const id = marker();
    const controller = new AbortController();
    const pending = run(tool, { command: `${starter.replace('M', id)}\nsleep 1000` }, makeCtx(tempDir(), { signal: controller.signal }));
    await waitFor(() => sleepersWith(id).length > 0, 'the sleeper runs');
    controller.abort();
    const result = await pending;
    expect(result.content).toContain('aborted by the user');
    await waitFor(() => sleepersWith(id).length === 0, 'the sleeper is gone');
  });

  it('leaves run_in_background jobs (and what they started) running until seek ends them', async () => {
    const root = tempDir();
    const id = marker();
    const started = await run(tool, { command: `setsid sleep ${id} >/dev/null 2>&1 & sleep 1000`, run_in_background: true }, makeCtx(root));
    expect(started.content).toMatch(/^started background job bg-\d+/);
    await waitFor(() => sleepersWith(id).length > 0, 'the job runs its sleeper');
    // A foreground command that ends meanwhile does not touch the job's processes.
    expect((await run(tool, { command: 'echo hi' }, makeCtx(root))).content).toBe('hi\n\nexit code 0');
    expect(sleepersWith(id).length).toBe(1);
    // What seek's exit does: end the jobs, including what left their process group.
    killBackgroundJobs();
    await waitFor(() => sleepersWith(id).length === 0, "the job's sleeper is gone");
  });
});
