import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFile, subagentTranscriptFile } from '../../../src/config/paths.js';
import { SessionError } from '../../../src/session/format.js';
import { findSession, listSessions, newestSession, oneLineTitle } from '../../../src/session/list.js';
import { SessionWriter } from '../../../src/session/writer.js';
import type { Message } from '../../../src/providers/types.js';
import { assistant, call, header, result, user } from './helpers.js';

const PID = 'fedcba9876543210';
const OLD = '20250101-090000-aaaaaa';
const MID = '20250102-090000-bbbbbb';
const NEW = '20250103-090000-abcdef';
const SUB1 = '20250102-091500-123456';
const SUB2 = '20250102-093000-ab0000';

let home: string;

async function writeSession(path: string, id: string, messages: Message[], mtime: number, extra = {}): Promise<void> {
  const writer = SessionWriter.create(path, header(id, extra));
  for (const message of messages) writer.append({ type: 'message', message });
  writer.append({ type: 'event', name: 'loop_end', data: {} });
  await writer.close();
  utimesSync(path, mtime, mtime);
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'seek-list-'));
  const long = `Refactor   the\n\nsession   layer ${'so that it is fast '.repeat(10)}`;
  await writeSession(sessionFile(home, PID, OLD), OLD, [user('old work'), assistant('ok', [], 10, 5, 0.01)], 1_000_000);
  await writeSession(
    sessionFile(home, PID, MID),
    MID,
    [user('<context>memory: likes tests</context>'), user(long), assistant('', [call('c1')], 100, 50, 0.1), result('c1', 'x'.repeat(5000)), assistant('done', [], 200, 150, 0.2)],
    3_000_000,
  );
  await writeSession(sessionFile(home, PID, NEW), NEW, [user('newest')], 2_000_000, { model: 'deepseek-v4-pro' });
  const subHeader = { parent_sid: MID, subagent: { type: 'explore', description: 'find callers' } };
  await writeSession(subagentTranscriptFile(home, PID, MID, SUB1), SUB1, [user('look for callers'), assistant('found', [], 7, 0, 0.05)], 2_500_000, subHeader);
  await writeSession(subagentTranscriptFile(home, PID, MID, SUB2), SUB2, [user('second child')], 2_600_000, subHeader);
  // Not sessions: a damaged file and an unrelated name are left out, never fatal.
  writeFileSync(sessionFile(home, PID, '20250104-000000-dddddd'), 'garbage\n');
  writeFileSync(join(home, 'projects', PID, 'sessions', 'notes.jsonl'), '');
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('listSessions', () => {
  it('lists newest first with titles, counts and totals', async () => {
    const list = await listSessions(home, PID);
    expect(list.map((s) => s.id)).toEqual([MID, NEW, OLD]);
    const mid = list[0]!;
    expect(mid.title).toBe(oneLineTitle('Refactor the session layer so that it is fast so that it is fast so that it is fast'));
    expect(mid.title.length).toBeLessThanOrEqual(80);
    expect(mid.title.startsWith('Refactor the session layer so that')).toBe(true);
    expect(mid.title.endsWith('…')).toBe(true);
    expect(mid).toMatchObject({ messages: 5, turns: 2, model: 'deepseek-v4-flash' });
    expect(mid.usage).toMatchObject({ inputTokens: 300, cacheReadTokens: 200, outputTokens: 200 });
    expect(mid.cost_usd).toBeCloseTo(0.3, 12);
    expect(mid.updated_at).toBe(new Date(3_000_000_000).toISOString());
    expect(mid.subagents).toBeUndefined();
    expect(list[1]).toMatchObject({ id: NEW, title: 'newest', model: 'deepseek-v4-pro', turns: 0, cost_usd: 0 });
  });

  it('lists subagents under their parent when asked', async () => {
    const list = await listSessions(home, PID, { includeSubagents: true });
    expect(list.map((s) => s.id)).toEqual([MID, NEW, OLD]);
    const children = list[0]!.subagents!;
    expect(children.map((c) => c.id)).toEqual([SUB2, SUB1]);
    expect(children[1]).toMatchObject({
      parent_sid: MID,
      subagent: { type: 'explore', description: 'find callers' },
      title: 'look for callers',
      turns: 1,
    });
    expect(list[1]!.subagents).toEqual([]);
  });

  it('returns nothing for a project without sessions', async () => {
    expect(await listSessions(home, '0000000000000000')).toEqual([]);
    expect(await newestSession(home, '0000000000000000')).toBeUndefined();
  });
});

describe('newestSession', () => {
  it('is the session written last; a damaged file written last stops it, named, and an older damaged one is not looked at', async () => {
    // The damaged file was written last (mtime now) but has no header: never passed over.
    const damaged = sessionFile(home, PID, '20250104-000000-dddddd');
    await expect(newestSession(home, PID)).rejects.toMatchObject({ code: 'unreadable_newest', exitStatus: 2, message: expect.stringContaining(damaged) });
    utimesSync(damaged, 500_000, 500_000);
    expect(await newestSession(home, PID)).toEqual({
      id: MID,
      kind: 'session',
      path: sessionFile(home, PID, MID),
      updated_at: new Date(3_000_000_000).toISOString(),
    });
  });
});

describe('findSession', () => {
  const code = async (query: string): Promise<string> => {
    const error = await findSession(home, PID, query).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    return (error as SessionError).code;
  };

  it('resolves full ids, unique prefixes and sub-sids', async () => {
    expect(await findSession(home, PID, OLD)).toMatchObject({ id: OLD, kind: 'session' });
    expect(await findSession(home, PID, '20250103')).toMatchObject({ id: NEW });
    expect(await findSession(home, PID, SUB1)).toEqual({
      id: SUB1,
      kind: 'subagent',
      parent_sid: MID,
      path: subagentTranscriptFile(home, PID, MID, SUB1),
    });
    expect(await findSession(home, PID, '20250102-0915')).toMatchObject({ id: SUB1, kind: 'subagent' });
    expect(await findSession(home, PID, '123456')).toMatchObject({ id: SUB1 });
  });

  it('rejects ambiguous and unknown ids with clear messages', async () => {
    expect(await code('20250102')).toBe('ambiguous'); // MID and both subagents
    await expect(findSession(home, PID, '20250102')).rejects.toThrow(/ambiguous: it matches .*20250102-090000-bbbbbb/);
    expect(await code('ab')).toBe('ambiguous'); // random tails abcdef and ab0000
    expect(await code('20991231')).toBe('not_found');
    await expect(findSession(home, PID, 'zzz')).rejects.toThrow(/No session "zzz" in this project/);
    expect(await code('  ')).toBe('not_found');
  });
});
