import { tempDir } from '../../support/temp-dirs.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { subagentKillRequestFile } from '../../../src/config/paths.js';
import { createKillWatcher, requestKill, type KillWatcher } from '../../../src/subagents/kill-requests.js';

const PID = '0123456789abcdef';
let home: string;
let watcher: KillWatcher | undefined;
beforeEach(() => {
  home = tempDir('seek-kill-');
});
afterEach(() => watcher?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(5);
  }
}

describe('requestKill', () => {
  it('writes the request file (creating its directory) with the requesting pid and time', () => {
    requestKill(home, PID, 'parent', 'child');
    const file = subagentKillRequestFile(home, PID, 'parent', 'child');
    const request = JSON.parse(readFileSync(file, 'utf8'));
    expect(request.requested_by_pid).toBe(process.pid);
    expect(Number.isNaN(Date.parse(request.ts))).toBe(false);
  });
});

describe('createKillWatcher', () => {
  const fileOf = (subSid: string) => subagentKillRequestFile(home, PID, 'parent', subSid);

  it('fires once per request, deletes the file, and only for watched children', async () => {
    const killed: string[] = [];
    const watched = ['a', 'b'];
    watcher = createKillWatcher({ files: () => watched.map((subSid) => ({ subSid, file: fileOf(subSid) })), onKill: (id) => killed.push(id), intervalMs: 10 });
    watcher.start();
    watcher.start(); // idempotent: still one timer
    requestKill(home, PID, 'parent', 'b');
    requestKill(home, PID, 'parent', 'unwatched');
    await waitFor(() => killed.length > 0);
    expect(existsSync(fileOf('b'))).toBe(false);
    expect(existsSync(fileOf('unwatched'))).toBe(true);
    // A second request for the same child does not fire again.
    writeFileSync(fileOf('b'), '{}');
    requestKill(home, PID, 'parent', 'a');
    await waitFor(() => killed.length > 1);
    await sleep(50);
    expect(killed).toEqual(['b', 'a']);
  });

  it('survives a throwing handler', async () => {
    const seen: string[] = [];
    watcher = createKillWatcher({
      files: () => ['a', 'b'].map((subSid) => ({ subSid, file: fileOf(subSid) })),
      onKill: (id) => {
        seen.push(id);
        throw new Error('boom');
      },
      intervalMs: 10,
    });
    watcher.start();
    requestKill(home, PID, 'parent', 'a');
    await waitFor(() => seen.length === 1);
    requestKill(home, PID, 'parent', 'b');
    await waitFor(() => seen.length === 2);
  });

  it('stop() stops polling, and it can start again', async () => {
    const killed: string[] = [];
    let polls = 0;
    watcher = createKillWatcher({
      files: () => {
        polls += 1;
        return [{ subSid: 'a', file: fileOf('a') }];
      },
      onKill: (id) => killed.push(id),
      intervalMs: 10,
    });
    watcher.start();
    await waitFor(() => polls >= 2);
    watcher.stop();
    watcher.stop();
    const after = polls;
    requestKill(home, PID, 'parent', 'a');
    await sleep(80);
    expect(polls).toBe(after);
    expect(killed).toEqual([]);
    expect(existsSync(fileOf('a'))).toBe(true);
    watcher.start();
    await waitFor(() => killed.length === 1);
    expect(killed).toEqual(['a']);
  });
});
