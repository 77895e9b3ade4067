import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMeta, writeMeta } from '../../../src/worktree/store.js';
import { makeProject } from './helpers.js';

/** A real process that stands in for another running seek session. */
async function otherProcess(): Promise<{ pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  return {
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

describe('cleanup of a worktree another seek process owns', () => {
  it('refuses discard, merge and keep while the owner runs; works once it is gone', async () => {
    const { manager } = makeProject();
    const dirty = await manager.create();
    const clean = await manager.create();
    writeFileSync(join(dirty.path, 'a.txt'), 'work in progress\n');
    const other = await otherProcess();
    try {
      for (const info of [dirty, clean]) {
        const meta = (await readMeta(manager.worktreesDir, info.id))!;
        await writeMeta(manager.worktreesDir, { ...meta, owner_pid: other.pid, owner_host: hostname() });
      }
      for (const ifDirty of ['discard', 'merge', 'keep'] as const) {
        const outcome = await manager.cleanup(dirty.path, ifDirty);
        expect(outcome, ifDirty).toMatchObject({ kind: 'failed', reason: 'cleanup_error' });
        expect(outcome.result).toContain(`belongs to another running seek process (pid ${other.pid})`);
      }
      expect(readFileSync(join(dirty.path, 'a.txt'), 'utf8')).toBe('work in progress\n');
      // keep would remove a clean worktree: not while its session may be about to work in it.
      expect((await manager.cleanup(clean.path, 'keep')).kind).toBe('failed');
      expect(existsSync(clean.path)).toBe(true);
    } finally {
      await other.stop();
    }
    expect((await manager.cleanup(dirty.path, 'discard')).kind).toBe('discarded');
    expect((await manager.cleanup(clean.path, 'keep')).kind).toBe('cleaned');
  });

  it('lets this process end its own worktrees, and one whose owner ran on another host', async () => {
    const { manager } = makeProject();
    const own = await manager.create();
    writeFileSync(join(own.path, 'a.txt'), 'mine\n');
    expect((await manager.cleanup(own.path, 'discard')).kind).toBe('discarded');
    const remote = await manager.create();
    const meta = (await readMeta(manager.worktreesDir, remote.id))!;
    await writeMeta(manager.worktreesDir, { ...meta, owner_pid: process.ppid, owner_host: `not-${hostname()}` });
    expect((await manager.cleanup(remote.path, 'keep')).kind).toBe('cleaned');
  });
});
