import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionFile, sessionsDir } from '../../../src/config/paths.js';
import { newSessionId } from '../../../src/session/format.js';
import { continueChoice, newestSession } from '../../../src/session/list.js';
import { lockSession, ownerFile, type SessionOwner } from '../../../src/session/lock.js';
import { readSession } from '../../../src/session/reader.js';
import { openResumeTarget, resumeWriter } from '../../../src/session/resume.js';
import { SessionWriter } from '../../../src/session/writer.js';
import { assistant, call, header, result, user } from './helpers.js';

const PID = '00112233aabbccdd';
let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'seek-lock-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const owner = (path: string): SessionOwner => JSON.parse(readFileSync(ownerFile(path), 'utf8')) as SessionOwner;
const ownerOf = (pid: number): SessionOwner => ({ pid, hostname: hostname(), since: '2025-01-01T00:00:00.000Z', token: 'feedfacefeedface' });

/** A session on disk with one finished turn, written through a deferred writer (locked). */
function startedSession(): { writer: SessionWriter; path: string; id: string } {
  const id = newSessionId();
  const path = sessionFile(home, PID, id);
  const writer = SessionWriter.deferred(path, header(id));
  writer.append({ type: 'message', message: user('first') });
  writer.append({ type: 'message', message: assistant('', [call('c1')]) });
  writer.append({ type: 'message', message: result('c1') });
  writer.append({ type: 'message', message: assistant('first answer') });
  writer.append({ type: 'event', name: 'loop_end', data: { reason: 'completed', turns: 2 } });
  return { writer, path, id };
}

describe('a session file exists once something happened', () => {
  it('keeps context and events in memory until the first prompt, then writes them all; a session left before leaves nothing', async () => {
    const id = newSessionId();
    const path = sessionFile(home, PID, id);
    const writer = SessionWriter.deferred(path, header(id));
    expect(writer.append({ type: 'event', name: 'worktree_enter', data: { id: 'w' } })).toBe(0);
    expect(writer.append({ type: 'message', message: user('<context source="worktree">here</context>') })).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect(writer.created).toBe(false);
    await writer.flush(); // nothing to flush yet
    expect(writer.append({ type: 'message', message: user('the prompt') })).toBe(2);
    expect(writer.created).toBe(true);
    expect(owner(path)).toMatchObject({ pid: process.pid, settled: 0 });
    await writer.close();
    expect(existsSync(ownerFile(path))).toBe(false); // released
    const loaded = await readSession(path);
    expect(loaded.header.id).toBe(id);
    expect(loaded.entries.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(loaded.messages.map((m) => m.content)).toEqual(['<context source="worktree">here</context>', 'the prompt']);

    const leftId = newSessionId();
    const left = SessionWriter.deferred(sessionFile(home, PID, leftId), header(leftId));
    left.append({ type: 'message', message: user('<context source="memory.index">x</context>') });
    await left.close();
    expect(() => left.append({ type: 'message', message: user('late') })).toThrow(/closed/);
    expect(readdirSync(sessionsDir(home, PID)).filter((name) => name.startsWith(leftId))).toEqual([]);
  });
});

describe('the session lock', () => {
  it('is held by the writing process, records finished turns, and is released on close', async () => {
    const { writer, path } = startedSession();
    expect(owner(path)).toMatchObject({ pid: process.pid, hostname: hostname(), settled: 0 });
    await writer.flush();
    expect(owner(path).settled).toBe(5);
    writer.append({ type: 'message', message: user('second, still running') });
    expect(owner(path).settled).toBe(5);
    expect(await lockSession(path)).toEqual({ heldBy: expect.objectContaining({ pid: process.pid }) });
    await writer.close();
    const again = await lockSession(path);
    expect('lock' in again).toBe(true);
    if ('lock' in again) again.lock.release();
    expect(existsSync(ownerFile(path))).toBe(false);
  });

  it('lets exactly one of two simultaneous takers win', async () => {
    const { writer, path } = startedSession();
    await writer.close();
    const outcomes = await Promise.all([lockSession(path), lockSession(path), lockSession(path)]);
    expect(outcomes.filter((o) => 'lock' in o)).toHaveLength(1);
    expect(outcomes.filter((o) => 'heldBy' in o && o.heldBy?.pid === process.pid)).toHaveLength(2);
    for (const o of outcomes) if ('lock' in o) o.lock.release();
  });

  it('is held by a live process and taken over once that process has died (a crash never locks a session)', async () => {
    const { writer, path } = startedSession();
    await writer.close();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      writeFileSync(ownerFile(path), JSON.stringify(ownerOf(child.pid!)));
      expect(await lockSession(path)).toEqual({ heldBy: expect.objectContaining({ pid: child.pid }) });
    } finally {
      child.kill('SIGKILL');
    }
    await exited;
    const taken = await lockSession(path);
    expect('lock' in taken && taken.lock.pid).toBe(process.pid);
    if ('lock' in taken) taken.lock.release();

    // A pid that already ended, and an owner file that is not JSON (a crash while writing it).
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    for (const text of [JSON.stringify(ownerOf(ended)), '{"pid":']) {
      writeFileSync(ownerFile(path), text);
      const outcome = await lockSession(path);
      expect('lock' in outcome).toBe(true);
      if ('lock' in outcome) outcome.lock.release();
    }
  });
});

describe('continuing a session another process is writing', () => {
  it('forks: a new session carrying the finished turns, recording where it came from; the original is not touched', async () => {
    const { writer, path, id } = startedSession();
    await writer.flush(); // turn 1 finished
    writer.append({ type: 'message', message: user('second, still running') });
    const before = readFileSync(path, 'utf8');

    const target = await openResumeTarget(home, PID, path, { save: true });
    expect(target.header.id).not.toBe(id);
    expect(target.path).toBe(sessionFile(home, PID, target.header.id));
    expect(target.header.forked_from).toEqual({ session_id: id, entries: 5, pid: process.pid });
    expect(target.header.system_prompt).toBe(header(id).system_prompt);
    expect(target.messages.map((m) => m.content)).toEqual(['first', '', 'ok', 'first answer']);
    expect(target.notices).toEqual([expect.stringContaining(`session ${id} is open in another seek process (pid ${process.pid}); continuing in a new session ${target.header.id}`)]);
    expect(target.lock).toBeUndefined();

    const fork = resumeWriter(target);
    expect(existsSync(target.path)).toBe(false); // created with its first message, like any session
    expect(fork.append({ type: 'message', message: user('from the fork') })).toBe(5);
    await fork.close();
    const reread = await readSession(target.path);
    expect(reread.header.forked_from).toEqual({ session_id: id, entries: 5, pid: process.pid });
    expect(reread.messages.map((m) => m.content)).toEqual(['first', '', 'ok', 'first answer', 'from the fork']);
    expect(reread.totals.turns).toBe(2);

    expect(readFileSync(path, 'utf8')).toBe(before);
    writer.append({ type: 'message', message: assistant('second answer') });
    await writer.close();
    expect((await readSession(path)).messages.map((m) => m.content)).toEqual(['first', '', 'ok', 'first answer', 'second, still running', 'second answer']);
  });

  it('continues in place, locked, when nobody else writes it; --no-save takes no lock', async () => {
    const { writer, path, id } = startedSession();
    await writer.close();
    const unsaved = await openResumeTarget(home, PID, path, { save: false });
    expect(unsaved.lock).toBeUndefined();
    expect(existsSync(ownerFile(path))).toBe(false);
    const target = await openResumeTarget(home, PID, path, { save: true });
    expect(target.header.id).toBe(id);
    expect(target.path).toBe(path);
    expect(owner(path).pid).toBe(process.pid);
    const again = resumeWriter(target);
    expect(owner(path).settled).toBe(5);
    again.append({ type: 'message', message: user('next') });
    await again.close();
    expect(existsSync(ownerFile(path))).toBe(false);
    expect((await readSession(path)).messages).toHaveLength(5);
  });

  it('names the damage it repaired, and a fork leaves the damaged lines behind', async () => {
    const { writer, path, id } = startedSession();
    await writer.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[3] = '{"type":"message","ts":"x","message":{"role":"tool","toolCallId":"c1",'; // the result, torn
    writeFileSync(path, lines.join('\n'));
    const repaired = await openResumeTarget(home, PID, path, { save: false });
    expect(repaired.notices).toEqual([`${path} was damaged: skipped 1 unreadable line; repaired the history (1 lost tool result marked)`]);
    expect(repaired.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true, content: '[tool result lost: the session file was damaged]' });

    writeFileSync(ownerFile(path), JSON.stringify(ownerOf(process.pid)));
    const fork = await openResumeTarget(home, PID, path, { save: true });
    expect(fork.header.forked_from).toEqual({ session_id: id, entries: 5, pid: process.pid }); // no settled count: every entry
    const writerOfFork = resumeWriter(fork);
    writerOfFork.append({ type: 'message', message: user('go on') });
    await writerOfFork.close();
    const reread = await readSession(fork.path);
    expect(reread.skippedLines).toBe(0);
    expect(reread.messages).toEqual([...fork.messages, user('go on')]);
    rmSync(ownerFile(path));
  });
});

describe('what --continue picks', () => {
  let project = '99887766554433f0';
  beforeEach(() => {
    project = `99887766554433${(Number.parseInt(project.slice(-2), 16) + 1).toString(16).padStart(2, '0')}`;
  });
  const write = async (id: string, messages: Parameters<typeof user>[0][] | 'answered', mtime: number): Promise<string> => {
    const path = sessionFile(home, project, id);
    const writer = SessionWriter.create(path, header(id));
    if (messages === 'answered') {
      writer.append({ type: 'message', message: user('real work') });
      writer.append({ type: 'message', message: assistant('done') });
    } else {
      for (const text of messages) writer.append({ type: 'message', message: user(text) });
    }
    await writer.close();
    utimesSync(path, mtime, mtime);
    return path;
  };

  it('the newest session with a prompt or an answer: one killed before its first answer counts, files with neither are passed over', async () => {
    expect(await continueChoice(home, project)).toEqual({});
    await write('20250101-000000-aaaaaa', 'answered', 1_000_000);
    const killed = await write('20250102-000000-bbbbbb', ['killed before the first answer'], 2_000_000);
    await write('20250103-000000-cccccc', [], 3_000_000);
    await write('20250103-000001-cccccd', ['<context source="memory">only seek\'s own context</context>'], 3_500_000);
    const older = sessionFile(home, project, '20241231-000000-ffffff');
    writeFileSync(older, 'not a header\n');
    utimesSync(older, 500_000, 500_000);

    expect(await continueChoice(home, project)).toEqual({ session: expect.objectContaining({ id: '20250102-000000-bbbbbb', path: killed }) });
  });

  it('stops at a newest file it cannot read (bad header, newer format), naming it, and never picks an older one', async () => {
    await write('20250101-000000-aaaaaa', 'answered', 1_000_000);
    const newer = sessionFile(home, project, '20250104-000000-dddddd');
    writeFileSync(newer, `${JSON.stringify({ type: 'session', schema_version: 9, id: 'x' })}\n`);
    utimesSync(newer, 4_000_000, 4_000_000);
    expect(await continueChoice(home, project)).toEqual({
      unreadable: { path: newer, reason: expect.stringMatching(new RegExp(`^${newer.replaceAll('.', '\\.')} was written by a newer seek`)) },
    });
    await expect(newestSession(home, project)).rejects.toMatchObject({ code: 'unreadable_newest', exitStatus: 2, message: expect.stringContaining(newer) });

    const bad = sessionFile(home, project, '20250105-000000-eeeeee');
    writeFileSync(bad, 'not a header\n');
    utimesSync(bad, 5_000_000, 5_000_000);
    expect(await continueChoice(home, project)).toEqual({ unreadable: { path: bad, reason: `${bad} is not a seek session: its first line is not a valid session header.` } });

    // A valid header whose only other line (the prompt, torn) cannot be read: damaged, not empty.
    const torn = sessionFile(home, project, '20250106-000000-fafafa');
    writeFileSync(torn, `${JSON.stringify({ ...header('20250106-000000-fafafa'), type: 'session', schema_version: 1, created_at: '2025-01-06T00:00:00.000Z' })}\n{"type":"message","ts":"x","message":{"role":"user","con`);
    utimesSync(torn, 6_000_000, 6_000_000);
    expect(await continueChoice(home, project)).toEqual({ unreadable: { path: torn, reason: `${torn} is damaged: 1 of its lines cannot be read, and none that can holds a prompt or an answer.` } });
  });
});
