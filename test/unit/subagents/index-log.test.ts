import { tempDir } from '../../support/temp-dirs.js';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { subagentIndexFile } from '../../../src/config/paths.js';
import {
  appendSubagentEvent,
  isProcessAlive,
  readSubagentIndex,
  recoverOrphans,
} from '../../../src/subagents/index-log.js';
import type { SubagentIndexEvent } from '../../../src/subagents/types.js';

const PID = '0123456789abcdef';
let home: string;
beforeEach(() => {
  home = tempDir('seek-index-');
});

const tokens = { prompt: 100, completion: 20, cache_hit: 50 };
function started(subSid: string, ts: string, extra: Partial<Extract<SubagentIndexEvent, { event: 'started' }>> = {}): SubagentIndexEvent {
  return { event: 'started', sub_sid: subSid, ts, parent_sid: 'P', type: 'explore', description: `d ${subSid}`, depth: 1, pid: 4242, host: 'elsewhere', ...extra };
}
function writeLines(lines: Array<string | object>): void {
  const file = subagentIndexFile(home, PID);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
}
const indexLines = (): Array<Record<string, unknown>> =>
  readFileSync(subagentIndexFile(home, PID), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('appendSubagentEvent', () => {
  it('creates the project directory and appends one line per event', async () => {
    expect(appendSubagentEvent(home, PID, started('a', '2025-01-01T00:00:00.000Z'))).toBe(true);
    expect(appendSubagentEvent(home, PID, { event: 'completed', sub_sid: 'a', ts: '2025-01-01T00:01:00.000Z', tokens, turns: 3 })).toBe(true);
    expect(indexLines().map((e) => e.event)).toEqual(['started', 'completed']);
    expect(readFileSync(subagentIndexFile(home, PID), 'utf8').endsWith('}\n')).toBe(true);
  });

  it('never throws: a failure goes to onProblem and returns false', () => {
    const blocker = join(home, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const problems: string[] = [];
    expect(appendSubagentEvent(blocker, PID, started('a', 't'), (m) => problems.push(m))).toBe(false);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('could not record subagent a (started)');
  });

  it('keeps lines intact when two processes append 500 lines each at once', async () => {
    appendSubagentEvent(home, PID, started('seed', 't')); // the file exists before both start
    const file = subagentIndexFile(home, PID);
    const script = (tag: string) =>
      `const fs=require('fs');for(let i=0;i<500;i++)fs.appendFileSync(${JSON.stringify(file)},JSON.stringify({event:'orphaned',sub_sid:'${tag}'+i,ts:'t',pad:'x'.repeat(300)})+'\\n',{flag:'a'});`;
    const run = (tag: string) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script(tag)], { stdio: 'ignore' });
        child.on('error', reject);
        child.on('close', resolve);
      });
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0]);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').slice(1);
    expect(lines).toHaveLength(1000);
    const ids = lines.map((l) => (JSON.parse(l) as { sub_sid: string }).sub_sid);
    expect(new Set(ids).size).toBe(1000);
  });
});

describe('readSubagentIndex', () => {
  it('is empty for a missing file', async () => {
    expect(await readSubagentIndex(home, PID)).toEqual({ records: [], skippedLines: 0 });
  });

  it('folds started + end events; the last event wins; newest first', async () => {
    writeLines([
      started('20250101-000000-aaaaaa', '2025-01-01T00:00:00.000Z', { worktree_path: '/wt' }),
      started('20250102-000000-bbbbbb', '2025-01-02T00:00:00.000Z', { parent_sub_sid: '20250101-000000-aaaaaa', depth: 2 }),
      { event: 'failed', sub_sid: '20250101-000000-aaaaaa', ts: '2025-01-01T00:05:00.000Z', reason: 'timeout', tokens, turns: 2 },
      { event: 'orphaned', sub_sid: '20250101-000000-aaaaaa', ts: '2025-01-01T00:06:00.000Z' },
      started('20250102-000000-cccccc', '2025-01-02T00:00:00.000Z'),
    ]);
    const { records, skippedLines } = await readSubagentIndex(home, PID);
    expect(skippedLines).toBe(0);
    expect(records.map((r) => r.sub_sid)).toEqual(['20250102-000000-cccccc', '20250102-000000-bbbbbb', '20250101-000000-aaaaaa']);
    expect(records[1]).toEqual({
      sub_sid: '20250102-000000-bbbbbb',
      parent_sid: 'P',
      parent_sub_sid: '20250101-000000-aaaaaa',
      type: 'explore',
      description: 'd 20250102-000000-bbbbbb',
      depth: 2,
      pid: 4242,
      host: 'elsewhere',
      status: 'active',
      started_at: '2025-01-02T00:00:00.000Z',
    });
    // orphaned after failed: status and ended_at from the last event, tokens/turns/reason kept.
    expect(records[2]).toMatchObject({ status: 'orphaned', ended_at: '2025-01-01T00:06:00.000Z', reason: 'timeout', tokens, turns: 2, worktree_path: '/wt' });
  });

  it('records a promotion', async () => {
    writeLines([
      started('s1', '2025-01-01T00:00:00.000Z'),
      { event: 'completed', sub_sid: 's1', ts: '2025-01-01T00:01:00.000Z', tokens, turns: 4 },
      { event: 'promoted', sub_sid: 's1', ts: '2025-01-01T00:02:00.000Z', session_id: '20250101-000200-abcdef' },
    ]);
    const [record] = (await readSubagentIndex(home, PID)).records;
    expect(record).toMatchObject({ status: 'promoted', promoted_to: '20250101-000200-abcdef', turns: 4, tokens, ended_at: '2025-01-01T00:02:00.000Z' });
  });

  it('skips and counts malformed lines, orphan events, duplicate starts and unknown kinds', async () => {
    writeLines([
      '{"event":"started","sub_sid":"torn',
      'not json',
      '[1,2]',
      { event: 'started', sub_sid: 'x', ts: 't' }, // started without parent_sid/type/description
      { event: 'completed', sub_sid: 'ghost', ts: 't', tokens, turns: 1 }, // no started
      started('s1', '2025-01-01T00:00:00.000Z'),
      started('s1', '2025-01-05T00:00:00.000Z', { type: 'plan' }), // duplicate
      { event: 'paused', sub_sid: 's1', ts: 't' }, // unknown kind
      { event: 'promoted', sub_sid: 's1', ts: 't' }, // promoted without session_id
      { event: 'completed', sub_sid: 's1', ts: 't', tokens: { prompt: 'many' } }, // bad tokens
      '',
      '   ',
    ]);
    const { records, skippedLines } = await readSubagentIndex(home, PID);
    expect(skippedLines).toBe(9);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ sub_sid: 's1', type: 'explore', status: 'active', started_at: '2025-01-01T00:00:00.000Z' });
  });

  it('reads lines without pid and host as an unknown process, and defaults depth and cache_hit', async () => {
    writeLines([
      { event: 'started', sub_sid: 's1', ts: 't', parent_sid: 'P', type: 'explore', description: 'd', future_field: 1 },
      { event: 'completed', sub_sid: 's1', ts: 't2', tokens: { prompt: 5, completion: 1 }, turns: 1 },
    ]);
    const [record] = (await readSubagentIndex(home, PID)).records;
    expect(record).toMatchObject({ pid: 0, host: '', depth: 1, tokens: { prompt: 5, completion: 1, cache_hit: 0 } });
  });
});

describe('recoverOrphans', () => {
  const host = 'this-host';

  it('returns [] fast for a missing index and creates nothing', async () => {
    expect(await recoverOrphans(home, PID, { host, isAlive: () => false })).toEqual([]);
    expect(() => readFileSync(subagentIndexFile(home, PID))).toThrow();
  });

  it('marks active children of dead local processes, once', async () => {
    writeLines([
      started('dead', '2025-01-01T00:00:00.000Z', { host, pid: 111 }),
      started('alive', '2025-01-01T00:00:01.000Z', { host, pid: 222 }),
      started('remote', '2025-01-01T00:00:02.000Z', { host: 'other-host', pid: 111 }),
      started('mine', '2025-01-01T00:00:03.000Z', { host, pid: process.pid }),
      started('done', '2025-01-01T00:00:04.000Z', { host, pid: 111 }),
      { event: 'completed', sub_sid: 'done', ts: 't', tokens, turns: 1 },
      { event: 'started', sub_sid: 'unknown', ts: '2025-01-01T00:00:05.000Z', parent_sid: 'P', type: 'explore', description: 'd' },
    ]);
    const asked: number[] = [];
    const isAlive = (pid: number): boolean => {
      asked.push(pid);
      return pid === 222;
    };
    expect(await recoverOrphans(home, PID, { host, isAlive })).toEqual(['dead']);
    expect(asked.sort()).toEqual([111, 222]); // never asked about our own pid or other hosts
    const records = (await readSubagentIndex(home, PID)).records;
    const status = Object.fromEntries(records.map((r) => [r.sub_sid, r.status]));
    expect(status).toEqual({ dead: 'orphaned', alive: 'active', remote: 'active', mine: 'active', done: 'completed', unknown: 'active' });

    expect(await recoverOrphans(home, PID, { host, isAlive })).toEqual([]);
    expect(indexLines().filter((e) => e.event === 'orphaned')).toHaveLength(1);
  });

  it('never orphans the current process, even when told it is dead', async () => {
    writeLines([started('mine', 't', { host, pid: process.pid })]);
    expect(await recoverOrphans(home, PID, { host, isAlive: () => false })).toEqual([]);
  });

  it('uses the real host name and process table by default', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    const deadPid = await new Promise<number>((resolve) => gone.on('close', () => resolve(gone.pid!)));
    writeLines([started('dead', 't', { host: hostname(), pid: deadPid })]);
    expect(await recoverOrphans(home, PID)).toEqual(['dead']);
  });
});

describe('isProcessAlive', () => {
  it('sees this process, not a finished one, and never pid 0 or negatives', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    const gone = spawn(process.execPath, ['-e', '0']);
    const deadPid = await new Promise<number>((resolve) => gone.on('close', () => resolve(gone.pid!)));
    expect(isProcessAlive(deadPid)).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
  });
});
