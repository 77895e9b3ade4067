import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compactionSummaryMessage,
  isSessionId,
  newSessionId,
  SessionError,
} from '../../../src/session/format.js';
import { danglingToolCalls, interruptedToolResults, readSession } from '../../../src/session/reader.js';
import { SessionWriter } from '../../../src/session/writer.js';
import { assistant, call, header, result, user } from './helpers.js';

let base: string;
let counter = 0;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'seek-session-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));
const freshPath = (): string => join(base, `s${++counter}`, 'sessions', `${newSessionId()}.jsonl`);

const rejection = async (promise: Promise<unknown>): Promise<SessionError> => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SessionError);
  return error as SessionError;
};

describe('session ids', () => {
  it('are YYYYMMDD-HHMMSS-<6hex> in UTC', () => {
    const id = newSessionId(new Date('2025-03-04T05:06:07.890Z'));
    expect(id).toMatch(/^20250304-050607-[0-9a-f]{6}$/);
    expect(isSessionId(id)).toBe(true);
    expect(isSessionId('20250304-050607-ABCDEF')).toBe(false);
  });
});

describe('write and read', () => {
  it('round-trips header, messages, events and totals', async () => {
    const path = freshPath();
    const writer = SessionWriter.create(path, header('20250101-000000-aaaaaa', { subagent: { type: 'explore', description: 'look' }, parent_sid: 'p' }));
    const messages = [
      user('fix the bug'),
      assistant('reading', [call('c1')], 1000, 0, 0.002),
      result('c1', 'line1\nline2 "quoted"'),
      assistant('done', [], 1500, 1000, 0.001),
    ];
    const indexes = messages.map((message) => writer.append({ type: 'message', message }));
    expect(indexes).toEqual([0, 1, 2, 3]);
    expect(writer.append({ type: 'event', name: 'loop_end', data: { reason: 'completed' } })).toBe(4);
    await writer.flush();
    await writer.close();
    await writer.close(); // idempotent
    expect(() => writer.append({ type: 'event', name: 'late' })).toThrow(/closed/);

    const text = readFileSync(path, 'utf8');
    expect(text.split('\n')).toHaveLength(7); // header + 5 entries + trailing ''
    const loaded = await readSession(path);
    expect(loaded.header).toMatchObject({
      type: 'session',
      schema_version: 1,
      id: '20250101-000000-aaaaaa',
      system_prompt: 'You are seek.\nToday is 2025-01-01.\n',
      parent_sid: 'p',
      subagent: { type: 'explore', description: 'look' },
    });
    expect(loaded.header.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(loaded.messages).toEqual(messages);
    expect(loaded.entries.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    expect(loaded.entries[4]?.entry).toMatchObject({ type: 'event', name: 'loop_end', data: { reason: 'completed' } });
    expect(loaded.skippedLines).toBe(0);
    expect(loaded.danglingToolCalls).toEqual([]);
    expect(loaded.totals.turns).toBe(2);
    expect(loaded.totals.usage).toMatchObject({ inputTokens: 2500, outputTokens: 200, cacheReadTokens: 1000 });
    expect(loaded.totals.costUsd).toBeCloseTo(0.003, 12);
  });

  it('never reuses a session file', () => {
    const path = freshPath();
    SessionWriter.create(path, header('20250101-000000-bbbbbb'));
    expect(() => SessionWriter.create(path, header('20250101-000000-bbbbbb'))).toThrow(/EEXIST/);
  });

  it('skips a corrupt middle line and a half-written last line, keeping indexes stable', async () => {
    const path = freshPath();
    const writer = SessionWriter.create(path, header('20250101-000000-cccccc'));
    writer.append({ type: 'message', message: user('one') });
    await writer.close();
    appendFileSync(path, 'this is not json\n{"type":"message","ts":"x","message":{"role":"nobody"}}\n');
    appendFileSync(path, `${JSON.stringify({ type: 'message', ts: 't', message: user('two') })}\n`);
    appendFileSync(path, '{"type":"message","ts":"t","message":{"role":"user","cont');
    const loaded = await readSession(path);
    expect(loaded.skippedLines).toBe(3);
    expect(loaded.messages).toEqual([user('one'), user('two')]);
    expect(loaded.entries.map((e) => e.index)).toEqual([0, 3]);

    // Continuing terminates the torn line, so the next entry is whole and indexes keep counting.
    const again = SessionWriter.openForAppend(path);
    expect(again.entryCount).toBe(5);
    expect(again.append({ type: 'message', message: user('three') })).toBe(5);
    await again.close();
    const reloaded = await readSession(path);
    expect(reloaded.messages).toEqual([user('one'), user('two'), user('three')]);
    expect(reloaded.entries.map((e) => e.index)).toEqual([0, 3, 5]);
  });

  it('fails clearly on a missing file, a missing header and a newer schema', async () => {
    expect((await rejection(readSession(join(base, 'nope.jsonl')))).code).toBe('not_found');

    const empty = join(base, 'empty.jsonl');
    writeFileSync(empty, '');
    const noHeader = await rejection(readSession(empty));
    expect(noHeader.code).toBe('bad_header');
    expect(noHeader.message).toContain(empty);

    const headless = join(base, 'headless.jsonl');
    writeFileSync(headless, `${JSON.stringify({ type: 'message', ts: 't', message: user('hi') })}\n`);
    expect((await rejection(readSession(headless))).message).toMatch(/first line is not a valid session header/);
    expect(() => SessionWriter.openForAppend(headless)).toThrow(SessionError);

    const newer = join(base, 'newer.jsonl');
    writeFileSync(newer, `${JSON.stringify({ type: 'session', schema_version: 9 })}\n`);
    const version = await rejection(readSession(newer));
    expect(version.code).toBe('unsupported_version');
    expect(version.message).toMatch(/newer seek/);
  });
});

describe('interrupted runs', () => {
  it('finds tool calls without results at the end of the history', () => {
    const calls = [call('a'), call('b'), call('c')];
    expect(danglingToolCalls([user('go'), assistant('', calls)])).toEqual(calls);
    expect(danglingToolCalls([user('go'), assistant('', calls), result('b')])).toEqual([call('a'), call('c')]);
    expect(danglingToolCalls([user('go'), assistant('', calls), result('a'), result('b'), result('c')])).toEqual([]);
    expect(danglingToolCalls([user('go'), assistant('done')])).toEqual([]);
    expect(danglingToolCalls([user('go')])).toEqual([]);
    expect(danglingToolCalls([])).toEqual([]);
  });

  it('is reported by readSession, and the synthetic results answer every call', async () => {
    const path = freshPath();
    const writer = SessionWriter.create(path, header('20250101-000000-dddddd'));
    writer.append({ type: 'message', message: user('go') });
    writer.append({ type: 'message', message: assistant('', [call('x', 'bash'), call('y')]) });
    writer.append({ type: 'message', message: result('y') });
    await writer.close();
    const loaded = await readSession(path);
    expect(loaded.danglingToolCalls).toEqual([call('x', 'bash')]);
    const repairs = interruptedToolResults(loaded.danglingToolCalls);
    expect(repairs).toEqual([expect.objectContaining({ role: 'tool', toolCallId: 'x', toolName: 'bash', isError: true })]);
    expect(danglingToolCalls([...loaded.messages, ...repairs])).toEqual([]);
  });
});

describe('compaction', () => {
  it('replaces covered messages with one summary message; the file keeps everything', async () => {
    const path = freshPath();
    const writer = SessionWriter.create(path, header('20250101-000000-eeeeee'));
    writer.append({ type: 'message', message: user('first') });
    const through = writer.append({ type: 'message', message: assistant('answer one', [], 100, 0, 0.5) });
    writer.append({ type: 'message', message: user('second') });
    writer.append({ type: 'compaction', summary: 'We discussed one thing.', replaces_through: through });
    writer.append({ type: 'message', message: assistant('answer two', [], 100, 0, 0.25) });
    await writer.close();

    const loaded = await readSession(path);
    expect(loaded.messages).toEqual([
      compactionSummaryMessage('We discussed one thing.'),
      user('second'),
      assistant('answer two', [], 100, 0, 0.25),
    ]);
    expect(loaded.totals.costUsd).toBeCloseTo(0.75, 12); // compacted turns were still billed

    const again = SessionWriter.openForAppend(path);
    const last = again.append({ type: 'message', message: user('third') });
    again.append({ type: 'compaction', summary: 'Everything so far.', replaces_through: last });
    await again.close();
    expect((await readSession(path)).messages).toEqual([compactionSummaryMessage('Everything so far.')]);
  });
});

describe('concurrent writers', () => {
  it('keeps two sessions of one project apart while they interleave', async () => {
    const dir = join(base, 'concurrent', 'sessions');
    const a = SessionWriter.create(join(dir, '20250101-000000-111111.jsonl'), header('20250101-000000-111111'));
    const b = SessionWriter.create(join(dir, '20250101-000000-222222.jsonl'), header('20250101-000000-222222'));
    const big = 'x'.repeat(200_000);
    for (let i = 0; i < 50; i++) {
      a.append({ type: 'message', message: result(`a${i}`, i % 10 === 0 ? big : `a${i}`) });
      b.append({ type: 'message', message: result(`b${i}`, `b${i}`) });
      if (i % 10 === 0) await Promise.all([a.flush(), b.flush()]);
    }
    await Promise.all([a.close(), b.close()]);
    const [ra, rb] = await Promise.all([readSession(a.path), readSession(b.path)]);
    expect(ra.skippedLines + rb.skippedLines).toBe(0);
    // Entries as written (orphan results, which the history repair drops, are fine filler here).
    const ids = (loaded: typeof ra): string[] => loaded.entries.map(({ entry }) => (entry.type === 'message' && entry.message.role === 'tool' ? entry.message.toolCallId : ''));
    expect(ids(ra)).toEqual(Array.from({ length: 50 }, (_, i) => `a${i}`));
    expect(ids(rb)).toEqual(Array.from({ length: 50 }, (_, i) => `b${i}`));
  });
});
