import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { backgroundOutputDir } from '../../../src/tools/background-jobs.js';
import { createBashTool, killBackgroundJobs, listBackgroundJobs } from '../../../src/tools/bash.js';
import { makeCtx, run, tempDir } from './helpers.js';

const tool = createBashTool();

/** Whether `pid` still runs. A zombie counts as dead: it has exited and only waits for its new
 * parent (often a container's init) to reap it. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(0) succeeded, so it runs
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

afterAll(() => {
  killBackgroundJobs('SIGKILL');
  rmSync(backgroundOutputDir(), { recursive: true, force: true });
});

describe('bash', () => {
  it('runs in ctx.cwd with SEEK_AGENT=1 and reports the exit code', async () => {
    const root = tempDir();
    const result = await run(tool, { command: 'pwd; echo "agent=$SEEK_AGENT"' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(`${root}\nagent=1\n\nexit code 0`);
    expect(result.display).toMatchObject({ kind: 'command', exitCode: 0, cwd: root });
  });

  it('marks a non-zero exit as an error and keeps stdout and stderr in arrival order', async () => {
    const root = tempDir();
    const result = await run(tool, { command: 'echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; echo out2; exit 2' }, makeCtx(root));
    expect(result.isError).toBe(true);
    expect(result.content).toBe('out1\nerr1\nout2\n\nexit code 2');
  });

  it('closes stdin, so commands that read it do not hang', async () => {
    const result = await run(tool, { command: 'cat; echo done' }, makeCtx(tempDir()));
    expect(result.content).toBe('done\n\nexit code 0');
  });

  it('streams output through onUpdate', async () => {
    const updates: string[] = [];
    await run(tool, { command: 'echo a; sleep 0.1; echo b' }, makeCtx(tempDir(), { onUpdate: (partial) => updates.push(partial) }));
    expect(updates.join('')).toBe('a\nb\n');
    expect(updates.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps head and tail of huge output around an omission marker', async () => {
    const result = await run(tool, { command: 'seq 1 100000' }, makeCtx(tempDir()));
    expect(result.content.length).toBeLessThan(31_000);
    expect(result.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.content).toMatch(/\[… \d+ chars omitted …\]/);
    expect(result.content.endsWith('99999\n100000\n\nexit code 0')).toBe(true);
  });

  it('kills the whole process tree on timeout, quickly', async () => {
    const root = tempDir();
    const started = Date.now();
    const result = await run(tool, { command: 'sleep 30 & echo $! > child.pid; sleep 30', timeout_ms: 300 }, makeCtx(root));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('timed out after 300 ms');
    const childPid = Number(readFileSync(`${root}/child.pid`, 'utf8'));
    await waitFor(() => !alive(childPid));
  });

  it('escalates to SIGKILL for processes that ignore SIGTERM', async () => {
    const started = Date.now();
    const result = await run(tool, { command: "trap '' TERM; sleep 30", timeout_ms: 200 }, makeCtx(tempDir()));
    expect(result.content).toContain('timed out');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops on abort and says so', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await run(tool, { command: 'echo begun; sleep 30 & sleep 30' }, makeCtx(tempDir(), { signal: controller.signal }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.isError).toBe(true);
    expect(result.content).toBe('begun\n\naborted by the user: the command and its child processes were killed');
  });

  it('does not wait for background children that keep the pipes open', async () => {
    const root = tempDir();
    const started = Date.now();
    const result = await run(tool, { command: 'sleep 30 & echo $! > bg.pid; echo started' }, makeCtx(root));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.content).toBe('started\n\nexit code 0');
    // The command ended, so what it left running is ended too (see bash-cleanup.test.ts).
    const bgPid = Number(readFileSync(`${root}/bg.pid`, 'utf8'));
    await waitFor(() => !alive(bgPid));
  });

  it('starts background jobs that write to an output file and can be killed', async () => {
    const root = tempDir();
    const result = await run(tool, { command: 'echo ready; sleep 30', run_in_background: true }, makeCtx(root));
    const match = /^started background job (bg-\d+) \(pid (\d+)\); output is written to (\S+)$/.exec(result.content);
    expect(match).not.toBeNull();
    const [, id, pid, file] = match!;
    await waitFor(() => readFileSync(file!, 'utf8') === 'ready\n');
    const job = listBackgroundJobs().find((entry) => entry.id === id);
    expect(job).toMatchObject({ pid: Number(pid), running: true, cwd: root, outputFile: file });
    expect(killBackgroundJobs()).toBeGreaterThanOrEqual(1);
    await waitFor(() => listBackgroundJobs().find((entry) => entry.id === id)?.running === false);
    expect(alive(Number(pid))).toBe(false);
  });

  it('describes itself as a bash action with the command', async () => {
    const request = await tool.describe!({ command: 'npm test' }, makeCtx('/work/p'));
    expect(request).toMatchObject({ kind: 'bash', command: 'npm test', summary: 'bash: npm test' });
    expect(tool.readOnly).toBe(false);
  });
});
