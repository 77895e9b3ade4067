import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointsOf, seenRef, TurnCheckpoints, type CheckpointRecord } from '../../../src/checkpoints/index.js';
import type { SessionEntryInput } from '../../../src/session/format.js';
import { git, makeRepo, writeFiles } from './helpers.js';

const SID = '20260101-000000-abcdef';

function harness(recorded: CheckpointRecord[] = []) {
  const { root, home } = makeRepo();
  const entries: SessionEntryInput[] = [];
  const notices: string[] = [];
  const checkpoints = new TurnCheckpoints({ sessionId: SID, seekHome: home, projectId: 'p1', recorded, append: (e) => void entries.push(e), reserve: () => { const at = entries.push({ type: "event", name: "reserved", data: {} }) - 1; return (e) => void (entries[at] = e); }, notice: (t) => void notices.push(t) });
  const records = () => checkpointsOf(entries.map((entry, index) => ({ index, entry: { ts: '', ...entry } as never })));
  return { root, checkpoints, entries, notices, records };
}

describe('TurnCheckpoints', () => {
  it('records a checkpoint entry at every turn start and moves the seen ref at its end', async () => {
    const { root, checkpoints, notices, records } = harness();
    await checkpoints.atTurnStart(root, 'first prompt\nsecond line');
    await checkpoints.settled();
    expect(records()).toEqual([expect.objectContaining({ turn: 1, kind: 'turn', prompt: 'first prompt', ref: `refs/seek/checkpoints/${SID}/1`, root })]);
    await checkpoints.beforeTool(); // a tool of the turn changes the tree
    writeFiles(root, { 'a.txt': 'the turn changed this\n' });
    await checkpoints.atTurnEnd();
    const first = records()[0]!;
    expect(git(root, 'rev-parse', `${seenRef(SID)}^`).trim()).toBe(first.commit);
    await checkpoints.atTurnStart(root, 'second');
    await checkpoints.settled();
    const second = records()[1]!;
    expect(second.turn).toBe(2);
    expect(git(root, 'rev-parse', `${second.ref}^`).trim()).toBe(first.commit); // parent: the previous checkpoint
    expect(git(root, 'log', '-1', '--format=%B', second.commit)).toMatch(/^seek checkpoint: session 20260101-000000-abcdef, turn 2, \d{4}-.*\n\nsecond\n/);
    expect(notices).toEqual([]);
  });

  it('ends a turn that ran no tool without a second snapshot: the seen state is the turn-start one', async () => {
    const { root, checkpoints, records } = harness();
    await checkpoints.atTurnStart(root, 'just talk');
    await checkpoints.settled();
    // The turn-start checkpoint moved `seen` too, in the same git process: the end needs none.
    expect(git(root, 'rev-parse', seenRef(SID)).trim()).toBe(records()[0]!.commit);
    writeFiles(root, { 'a.txt': 'changed by an editor while the model answered\n' });
    await checkpoints.atTurnEnd();
    const first = records()[0]!;
    expect(git(root, 'rev-parse', seenRef(SID)).trim()).toBe(first.commit);
    // So the editor's change counts as an outside one.
    expect(git(root, 'diff', '--name-only', seenRef(SID)).trim()).toBe('a.txt');
  });

  it('lets a read-only call run before the turn-start snapshot is in, and a turn of reads alone ends without a second snapshot', async () => {
    const { root, checkpoints, records } = harness();
    await checkpoints.atTurnStart(root, 'read only');
    let settled = false;
    void checkpoints.settled().then(() => (settled = true));
    await checkpoints.beforeTool({ readOnly: true });
    expect(settled).toBe(false); // it did not wait for the snapshot
    await checkpoints.settled();
    writeFiles(root, { 'a.txt': 'changed by an editor while the model read\n' });
    await checkpoints.atTurnEnd();
    expect(git(root, 'rev-parse', seenRef(SID)).trim()).toBe(records()[0]!.commit);
    // A call that may write waits for the snapshot, and the turn's end moves `seen` to what it left.
    await checkpoints.atTurnStart(root, 'write');
    await checkpoints.beforeTool();
    expect(records()).toHaveLength(2);
    writeFiles(root, { 'b.txt': 'written by the turn\n' });
    await checkpoints.atTurnEnd();
    expect(git(root, 'diff', '--name-only', seenRef(SID)).trim()).toBe('');
  });

  it('numbers on from the checkpoints a resumed session already has', async () => {
    const prior: CheckpointRecord = { turn: 4, kind: 'turn', ref: 'refs/seek/checkpoints/x/4', commit: 'c', tree: 't', root: '/elsewhere', prompt: 'p', at: '' };
    const { root, checkpoints, records } = harness([prior]);
    await checkpoints.atTurnStart(root, 'next');
    await checkpoints.settled();
    expect(records()[0]).toMatchObject({ turn: 5, ref: `refs/seek/checkpoints/${SID}/5` });
  });

  it('turns a failure into one notice, never an exception, and takes no more checkpoints after it', async () => {
    const { root, checkpoints, entries, notices } = harness();
    const missing = join(root, 'no-such-dir');
    await expect(checkpoints.atTurnStart(missing, 'x')).resolves.toBeUndefined();
    await checkpoints.settled();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('checkpoint failed');
    await checkpoints.atTurnStart(root, 'y');
    await checkpoints.settled();
    // The repository is opened in the background (off the first request's path), so its failure
    // fills the place the turn reserved, like a failed snapshot's.
    expect(entries).toEqual([expect.objectContaining({ type: 'event', name: 'checkpoint_failed', data: expect.objectContaining({ turn: 1 }) })]);
    expect(notices).toHaveLength(1);
  });

  it('fills the place reserved for a snapshot that failed with a failure event, so later entries keep their indexes', async () => {
    const { root, checkpoints, entries, notices } = harness();
    writeFileSync(join(root, '.git', 'index'), 'not an index');
    await checkpoints.atTurnStart(root, 'x');
    await checkpoints.settled();
    expect(entries).toEqual([expect.objectContaining({ type: 'event', name: 'checkpoint_failed', data: expect.objectContaining({ turn: 1, error: expect.stringMatching(/index/) }) })]);
    expect(notices).toEqual([expect.stringContaining('checkpoint failed')]);
  });
});
