import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sessionFile } from '../../../src/config/paths.js';
import { SessionRewind, TurnCheckpoints } from '../../../src/checkpoints/index.js';
import { readSession } from '../../../src/session/reader.js';
import { SessionWriter } from '../../../src/session/writer.js';
import { assistant, header, user } from '../session/helpers.js';
import { makeRepo, treeState, writeFiles } from './helpers.js';

const SID = '20260101-000000-abcdef';
const PID = '0123456789abcdef';

/** An open session (file, writer, TurnCheckpoints) in a real repository, as the runtime holds it. */
function openSession() {
  const { root, home } = makeRepo();
  const path = sessionFile(home, PID, SID);
  const writer = SessionWriter.create(path, header(SID));
  onTestFinished(() => writer.close());
  const notices: string[] = [];
  const checkpoints = new TurnCheckpoints({ sessionId: SID, seekHome: home, projectId: PID, recorded: [], append: (e) => void writer.append(e), reserve: () => writer.reserve(), notice: (t) => void notices.push(t) });
  const rewind = new SessionRewind({ sessionId: SID, seekHome: home, projectId: PID, sessionPath: path, checkpoints });
  /** One user turn that writes `files`. */
  const turn = async (prompt: string, files: Record<string, string>) => {
    await checkpoints.atTurnStart(root, prompt);
    await checkpoints.beforeTool(); // the turn's tools write the files
    writer.append({ type: 'message', message: user(prompt) });
    writeFiles(root, files);
    writer.append({ type: 'message', message: assistant('done') });
    await checkpoints.atTurnEnd();
  };
  return { root, home, path, writer, checkpoints, rewind, turn, notices };
}

describe('SessionRewind (the open session /rewind works on)', () => {
  it('lists every checkpoint with the files changed since it, and diffs what a restore would apply', async () => {
    const s = openSession();
    await s.turn('first\nmore lines', { 'b.txt': 'beta\nbeta 2\n' });
    await s.turn('second', { 'new.txt': 'made\n' });
    const points = await s.rewind.points();
    expect(points.map((p) => [p.turn, p.kind, p.prompt])).toEqual([
      [1, 'turn', 'first'],
      [2, 'turn', 'second'],
    ]);
    expect(points[0]!.changedSince).toEqual([
      { path: 'b.txt', added: 1, removed: 0 },
      { path: 'new.txt', added: 1, removed: 0 },
    ]);
    expect(points[1]!.changedSince).toEqual([{ path: 'new.txt', added: 1, removed: 0 }]);
    const plan = await s.rewind.plan(points[0]!);
    expect(plan.conflicts).toEqual([]);
    const diff = await s.rewind.diffLines(plan);
    expect(diff).toContain('diff --git a/b.txt b/b.txt');
    expect(diff).toContain('-beta 2');
    expect(diff).toContain('deleted file mode 100644');
    expect(diff).toContain('-made');
    expect(s.notices).toEqual([]);
  });

  it('restores the code, records the state before under the next number, and numbering goes on after it', async () => {
    const s = openSession();
    const before = treeState(s.root);
    await s.turn('change', { 'b.txt': 'changed\n', 'made.txt': 'new\n' });
    const [first] = await s.rewind.points();
    const plan = await s.rewind.plan(first!);
    const result = await s.rewind.restoreCode(plan);
    expect(treeState(s.root)).toEqual(before);
    expect(result.before).toMatchObject({ turn: 2, kind: 'restore', prompt: 'before rewinding to 1' });
    await s.turn('next', {});
    const points = await s.rewind.points();
    expect(points.map((p) => [p.turn, p.kind])).toEqual([
      [1, 'turn'],
      [2, 'restore'],
      [3, 'turn'],
    ]);
    // Restoring the restore point undoes the rewind.
    await s.rewind.restoreCode(await s.rewind.plan(points[1]!));
    expect(readFileSync(join(s.root, 'made.txt'), 'utf8')).toBe('new\n');
  });

  it('names files changed since the session last saw them as conflicts', async () => {
    const s = openSession();
    await s.turn('change', { 'b.txt': 'by the turn\n' });
    writeFiles(s.root, { 'b.txt': 'by an editor\n' });
    const [first] = await s.rewind.points();
    expect((await s.rewind.plan(first!)).conflicts).toEqual(['b.txt']);
  });

  it("forks the conversation before a turn and gives back that turn's whole prompt", async () => {
    const s = openSession();
    await s.turn('one', {});
    await s.turn('two\nwith a second line', {});
    const points = await s.rewind.points();
    const fork = await s.rewind.forkBefore(points[1]!);
    expect(fork.prompt).toBe('two\nwith a second line');
    const copied = await readSession(sessionFile(s.home, PID, fork.id));
    const users = copied.entries.flatMap(({ entry }) => (entry.type === 'message' && entry.message.role === 'user' ? [entry.message.content] : []));
    expect(users).toEqual(['one']);
    expect(copied.header.forked_from?.session_id).toBe(SID);
  });
});
