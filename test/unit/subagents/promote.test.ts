import { tempDir } from '../../support/temp-dirs.js';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionFile, subagentTranscriptFile } from '../../../src/config/paths.js';
import { isSessionId } from '../../../src/session/format.js';
import { findSession } from '../../../src/session/list.js';
import { readSession } from '../../../src/session/reader.js';
import { SessionWriter } from '../../../src/session/writer.js';
import { appendSubagentEvent, readSubagentIndex } from '../../../src/subagents/index-log.js';
import { promoteSubagent } from '../../../src/subagents/promote.js';
import { assistant, call, header, result, user } from '../session/helpers.js';

const PID = '0123456789abcdef';
const PARENT = '20250101-000000-aaaaaa';
const CHILD = '20250101-000100-bbbbbb';
let home: string;
beforeEach(() => {
  home = tempDir('seek-promote-');
});

/** A finished child: prompt, a tool round trip, a compaction, an answer, the end marker. */
async function writeChild(status: 'completed' | 'active' = 'completed', index = true): Promise<void> {
  const writer = SessionWriter.create(
    subagentTranscriptFile(home, PID, PARENT, CHILD),
    header(CHILD, { system_prompt: 'parent prompt\n# Subagent\nchild part', parent_sid: PARENT, subagent: { type: 'explore', description: 'look around' } }),
  );
  writer.append({ type: 'message', ts: '2025-01-01T00:01:01.000Z', message: user('find it') }); // 0
  writer.append({ type: 'event', name: 'model_change', data: { model: 'x' } }); // 1
  writer.append({ type: 'message', message: assistant('', [call('c1')]) }); // 2
  writer.append({ type: 'message', message: result('c1', 'file text') }); // 3
  writer.append({ type: 'compaction', summary: 'looked at a.ts', replaces_through: 3 }); // 4
  writer.append({ type: 'message', message: assistant('The answer is in README.md.') }); // 5
  writer.append({ type: 'event', name: 'subagent_end', data: { status: 'completed', turns: 2 } }); // 6
  await writer.close();
  if (!index) return;
  appendSubagentEvent(home, PID, { event: 'started', sub_sid: CHILD, ts: '2025-01-01T00:01:00.000Z', parent_sid: PARENT, type: 'explore', description: 'look around', depth: 1, pid: 1, host: 'h' });
  if (status === 'completed') appendSubagentEvent(home, PID, { event: 'completed', sub_sid: CHILD, ts: '2025-01-01T00:02:00.000Z', tokens: { prompt: 1, completion: 1, cache_hit: 0 }, turns: 2 });
}

describe('promoteSubagent', () => {
  it('writes a readable top-level session with the child\'s history, and records the promotion', async () => {
    await writeChild();
    const child = await readSession(subagentTranscriptFile(home, PID, PARENT, CHILD));
    const promotion = await promoteSubagent(home, PID, CHILD);

    expect(isSessionId(promotion.sessionId)).toBe(true);
    expect(promotion.sessionId).not.toBe(CHILD);
    expect(promotion.path).toBe(sessionFile(home, PID, promotion.sessionId));
    const session = await readSession(promotion.path);
    expect(session.skippedLines).toBe(0);
    expect(session.header).toMatchObject({ id: promotion.sessionId, parent_sid: PARENT, promoted_from: CHILD, system_prompt: child.header.system_prompt, model: child.header.model });
    expect(session.header.subagent).toBeUndefined();
    expect(session.messages).toEqual(child.messages);
    expect(session.entries.map((e) => e.entry.type)).toEqual(['message', 'message', 'message', 'compaction', 'message']);
    // The compaction covered old entries 0..3 (0, 2, 3 copied): in the copy that is 0..2.
    const compaction = session.entries[3]!.entry;
    expect(compaction).toMatchObject({ type: 'compaction', replaces_through: 2 });
    expect(session.entries[0]!.entry.ts).toBe('2025-01-01T00:01:01.000Z');
    expect(session.totals).toEqual(child.totals);

    // `seek --resume <new>` finds it as a session, not a subagent.
    expect(await findSession(home, PID, promotion.sessionId)).toMatchObject({ kind: 'session', path: promotion.path });
    const [record] = (await readSubagentIndex(home, PID)).records;
    expect(record).toMatchObject({ sub_sid: CHILD, status: 'promoted', promoted_to: promotion.sessionId, turns: 2 });
    // The child's own transcript is untouched.
    expect(readFileSync(subagentTranscriptFile(home, PID, PARENT, CHILD), 'utf8').split('\n')).toHaveLength(9);
  });

  it('finds a transcript the index does not know', async () => {
    await writeChild('completed', false);
    const promotion = await promoteSubagent(home, PID, CHILD);
    expect((await readSession(promotion.path)).messages).toHaveLength(2);
    expect(await readSubagentIndex(home, PID)).toEqual({ records: [], skippedLines: 0 }); // no orphan `promoted` line
  });

  it('refuses a running child and an unknown one', async () => {
    await writeChild('active');
    await expect(promoteSubagent(home, PID, CHILD)).rejects.toThrow(/still running/);
    await expect(promoteSubagent(home, PID, '20250101-000100-cccccc')).rejects.toMatchObject({ name: 'SessionError', code: 'not_found' });
  });
});
