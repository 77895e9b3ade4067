/**
 * `seek subagent list | kill | resume` through the real `seek` process, against an index written by
 * hand (no model involved): output, exit codes, orphan marking, kill requests, promotion hand-over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectId, sessionFile, subagentIndexFile, subagentKillRequestFile, subagentTranscriptFile } from '../../src/config/paths.js';
import { SessionWriter } from '../../src/session/writer.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const PARENT = '20250101-000000-000000';
const A = '20250101-000001-aaaaaa';
const B = '20250101-000002-bbbbbb';
const C = '20250101-000003-cccccc';
const D = '20250101-000004-dddddd';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const spawned: ChildProcess[] = [];
afterEach(() => {
  for (const child of spawned.splice(0)) child.kill('SIGKILL');
});

/** A process that exits at once; its pid is then (almost surely) free. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  return new Promise((resolve) => child.on('close', () => resolve(child.pid!)));
}

function sleeper(script = 'setInterval(() => {}, 1000)'): number {
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  spawned.push(child);
  return child.pid!;
}

interface Fixture {
  root: string;
  home: string;
  pid: string;
  env: Record<string, string>;
  write(events: object[]): void;
  events(): Array<Record<string, unknown>>;
}

function fixture(): Fixture {
  const { root, home } = makeProject();
  const pid = projectId(root);
  const file = subagentIndexFile(home, pid);
  return {
    root,
    home,
    pid,
    env: { SEEK_HOME: home },
    write(events) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''), { flag: 'a' });
    },
    events: () => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line)),
  };
}

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const started = (subSid: string, msAgo: number, extra: object = {}) => ({
  event: 'started', sub_sid: subSid, ts: iso(msAgo), parent_sid: PARENT, type: 'explore', description: `look at ${subSid.slice(-6)}`, depth: 1, pid: 1, host: 'another-host', ...extra,
});

/** A: completed 3 days ago; B: failed (timeout), long description; C: running on another host;
 * D: "active" but its local process is gone. */
async function fourChildren(f: Fixture): Promise<void> {
  f.write([
    started(A, 3 * DAY, { description: 'find the parser' }),
    { event: 'completed', sub_sid: A, ts: iso(3 * DAY - 60_000), tokens: { prompt: 12_000, completion: 345, cache_hit: 9000 }, turns: 4 },
    started(B, 2 * DAY, { type: 'general-purpose', description: `refactor ${'the module '.repeat(20)}` }),
    { event: 'failed', sub_sid: B, ts: iso(2 * DAY - 60_000), reason: 'timeout', tokens: { prompt: 800, completion: 50, cache_hit: 0 }, turns: 2 },
    started(C, 5 * HOUR, { parent_sid: '20250202-000000-000000' }),
    started(D, DAY + HOUR, { host: hostname(), pid: await deadPid() }),
  ]);
}

describe('seek subagent list', () => {
  it('says so when the project has none', async () => {
    const f = fixture();
    const run = await runSeek(['subagent', 'list'], { cwd: f.root, env: f.env });
    expect(run).toMatchObject({ code: 0, stdout: 'no subagents in this project\n', stderr: '' });
    expect(existsSync(subagentIndexFile(f.home, f.pid))).toBe(false);
  });

  it('prints a table, newest first, after marking dead children orphaned', async () => {
    const f = fixture();
    await fourChildren(f);
    const run = await runSeek(['subagent', 'list'], { cwd: f.root, env: f.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      [
        'ID      SUB-SID                 TYPE             STATUS            TURNS  TOKENS  AGE  DESCRIPTION',
        'cccccc  20250101-000003-cccccc  explore          active            -      -       5h   look at cccc…',
        'dddddd  20250101-000004-dddddd  explore          orphaned          -      -       1d   look at dddd…',
        'bbbbbb  20250101-000002-bbbbbb  general-purpose  failed (timeout)  2      850     2d   refactor the…',
        'aaaaaa  20250101-000001-aaaaaa  explore          completed         4      12k     3d   find the par…',
        '',
      ].join('\n'),
    );
    expect(f.events().at(-1)).toMatchObject({ event: 'orphaned', sub_sid: D });
    // Descriptions get what the other columns leave of 100 (here 13: general-purpose, failed (timeout)).
    for (const line of run.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('prints the records as JSON and filters by status and parent', async () => {
    const f = fixture();
    await fourChildren(f);
    const json = async (...args: string[]) => {
      const run = await runSeek(['subagent', 'list', '--json', ...args], { cwd: f.root, env: f.env });
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    };
    const all = await json();
    expect(all.map((r) => r.sub_sid)).toEqual([C, D, B, A]);
    expect(all[3]).toEqual({
      sub_sid: A, parent_sid: PARENT, type: 'explore', description: 'find the parser', depth: 1, pid: 1, host: 'another-host',
      status: 'completed', started_at: all[3]!.started_at, ended_at: all[3]!.ended_at,
      tokens: { prompt: 12_000, completion: 345, cache_hit: 9000 }, turns: 4,
    });
    expect((await json('--status', 'failed')).map((r) => [r.sub_sid, r.status])).toEqual([[D, 'orphaned'], [B, 'failed']]);
    expect((await json('--status', 'active')).map((r) => r.sub_sid)).toEqual([C]);
    expect((await json('--status', 'completed')).map((r) => r.sub_sid)).toEqual([A]);
    expect((await json('--parent', '20250202')).map((r) => r.sub_sid)).toEqual([C]);

    const none = await runSeek(['subagent', 'list', '--status', 'active', '--parent', PARENT], { cwd: f.root, env: f.env });
    expect(none.stdout).toBe('no subagents match the filter (4 in this project)\n');
    const bad = await runSeek(['subagent', 'list', '--status', 'sleeping'], { cwd: f.root, env: f.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("argument 'sleeping' is invalid");
  });
});

describe('seek subagent kill', () => {
  it('refuses unknown, ambiguous and finished children', async () => {
    const f = fixture();
    await fourChildren(f);
    const kill = (id: string) => runSeek(['subagent', 'kill', id], { cwd: f.root, env: f.env });
    expect(await kill('ffffff')).toMatchObject({ code: 1, stdout: '', stderr: 'seek: no subagent "ffffff" in this project; run seek subagent list to see them\n' });
    expect(await kill('20250101-00000')).toMatchObject({ code: 1, stderr: `seek: sub-sid "20250101-00000" is ambiguous: it matches ${C}, ${D}, ${B}, ${A}; type more of it\n` });
    expect(await kill('aaaaaa')).toMatchObject({ code: 1, stderr: `seek: subagent ${A} is not running (completed)\n` });
    expect(await kill(B)).toMatchObject({ code: 1, stderr: `seek: subagent ${B} is not running (failed (timeout))\n` });
  });

  it('marks a child whose process is gone orphaned', async () => {
    const f = fixture();
    const gone = await deadPid();
    f.write([started(D, HOUR, { host: hostname(), pid: gone })]);
    const run = await runSeek(['subagent', 'kill', 'dddddd'], { cwd: f.root, env: f.env });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `seek: subagent ${D} was no longer running (its seek process ${gone} is gone); marked orphaned\n` });
    expect(f.events().map((e) => e.event)).toEqual(['started', 'orphaned']);
    expect(existsSync(subagentKillRequestFile(f.home, f.pid, PARENT, D))).toBe(false);
  });

  it('times out when the running process does not act on the request (SEEK_SUBAGENT_KILL_WAIT_MS)', async () => {
    const f = fixture();
    const pid = sleeper();
    f.write([started(C, HOUR, { host: hostname(), pid })]);
    const run = await runSeek(['subagent', 'kill', C], { cwd: f.root, env: { ...f.env, SEEK_SUBAGENT_KILL_WAIT_MS: '300' } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `seek: kill requested, but subagent ${C} is still running after 300 ms; its seek process ${pid} has not acted on it yet (the request stays in place)\n`,
    });
    const request = JSON.parse(readFileSync(subagentKillRequestFile(f.home, f.pid, PARENT, C), 'utf8'));
    expect(typeof request.requested_by_pid).toBe('number');
    expect(f.events().map((e) => e.event)).toEqual(['started']);
  });

  it('reports killed once the running process records it', async () => {
    const f = fixture();
    const killFile = subagentKillRequestFile(f.home, f.pid, PARENT, C);
    const index = subagentIndexFile(f.home, f.pid);
    // Stands in for the seek process running the child: polls its kill file, records `killed`.
    const pid = sleeper(
      `const fs = require('fs'); setInterval(() => { if (fs.existsSync(${JSON.stringify(killFile)})) { fs.unlinkSync(${JSON.stringify(killFile)}); ` +
        `fs.appendFileSync(${JSON.stringify(index)}, JSON.stringify({ event: 'killed', sub_sid: ${JSON.stringify(C)}, ts: new Date().toISOString(), reason: 'killed' }) + '\\n'); process.exit(0); } }, 20);`,
    );
    f.write([started(C, HOUR, { host: hostname(), pid })]);
    const run = await runSeek(['subagent', 'kill', 'cccccc'], { cwd: f.root, env: f.env });
    expect(run).toMatchObject({ code: 0, stdout: `killed ${C}\n`, stderr: '' });
    expect(f.events().map((e) => e.event)).toEqual(['started', 'killed']);
  });
});

describe('seek subagent resume', () => {
  it('promotes the transcript and hands the rest of the command line to seek --resume', async () => {
    const f = fixture();
    f.write([started(A, HOUR), { event: 'completed', sub_sid: A, ts: iso(HOUR - 1000), tokens: { prompt: 10, completion: 5, cache_hit: 0 }, turns: 1 }]);
    const writer = SessionWriter.create(subagentTranscriptFile(f.home, f.pid, PARENT, A), {
      id: A, cwd: f.root, project_root: f.root, project_id: f.pid, provider: 'deepseek', model: 'deepseek-chat',
      system_prompt: 'child prompt', tools_hash: '0000000000000000', parent_sid: PARENT, subagent: { type: 'explore', description: 'find it' }, seek_version: '0.0.0',
    });
    writer.append({ type: 'message', message: { role: 'user', content: 'find the parser' } });
    writer.append({ type: 'message', message: { role: 'assistant', content: 'src/parser.ts', toolCalls: [], stopReason: 'stop' } });
    await writer.close();

    // `--list` makes the handed-over root command list sessions instead of calling a model.
    const run = await runSeek(['subagent', 'resume', 'aaaaaa', '--list'], { cwd: f.root, env: f.env });
    expect(run.code).toBe(0);
    const promoted = f.events().at(-1)!;
    expect(promoted).toMatchObject({ event: 'promoted', sub_sid: A });
    const sid = String(promoted.session_id);
    expect(run.stderr).toBe(`promoted ${A} to session ${sid}\n`);
    expect(run.stdout).toContain(`${sid} `);
    expect(run.stdout).toContain('find the parser');
    expect(existsSync(sessionFile(f.home, f.pid, sid))).toBe(true);

    const again = await runSeek(['subagent', 'resume', A, '--list'], { cwd: f.root, env: f.env });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`subagent ${A} was already promoted to session ${sid}; resuming that session\n`);
  });

  it('fails clearly for an unknown sub-sid and for a top-level session id', async () => {
    const f = fixture();
    const unknown = await runSeek(['subagent', 'resume', 'abcdef'], { cwd: f.root, env: f.env });
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'seek: no subagent "abcdef" in this project; run seek subagent list to see them\n' });
    const writer = SessionWriter.create(sessionFile(f.home, f.pid, PARENT), {
      id: PARENT, cwd: f.root, project_root: f.root, project_id: f.pid, provider: 'deepseek', model: 'm', system_prompt: 's', tools_hash: 't', seek_version: '0',
    });
    await writer.close();
    const session = await runSeek(['subagent', 'resume', PARENT], { cwd: f.root, env: f.env });
    expect(session).toMatchObject({ code: 1, stderr: `seek: ${PARENT} is a top-level session, not a subagent; continue it with: seek --resume ${PARENT}\n` });
  });
});
