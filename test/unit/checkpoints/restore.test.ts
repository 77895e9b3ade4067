import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyRestore,
  checkpointRef,
  openCheckpointRepository,
  planCodeRewind,
  restorePlan,
  rewindCode,
  seenRef,
  snapshotTree,
  takeCheckpoint,
  type CheckpointRecord,
} from '../../../src/checkpoints/index.js';
import { git, gitState, makePlainDir, makeRepo, treeState, writeFiles } from './helpers.js';

const SID = '20260101-000000-abcdef';

function record(turn: number, ref: string, snap: { commit: string; tree: string }, root: string): CheckpointRecord {
  return { turn, kind: 'turn', ref, ...snap, root, prompt: `turn ${turn}`, at: new Date().toISOString() };
}

/** Everything a turn might do: edit a tracked file, create files (one in a new directory),
 * delete a file, make a file executable, replace a file by a symlink, touch an ignored file. */
function messUp(root: string): void {
  writeFiles(root, { 'a.txt': 'alpha edited by the turn\n', 'new.txt': 'created\n', 'made/deep/x.txt': 'x\n', 'debug.log': 'the turn logged this\n' });
  rmSync(join(root, 'b.txt'));
  chmodSync(join(root, 'run.sh'), 0o755);
  rmSync(join(root, 'src', 'lib.ts'));
  symlinkSync('../a.txt', join(root, 'src', 'lib.ts'));
}

describe('checkpoints in a git repository', () => {
  it('restores the whole tree exactly and never touches the index, HEAD, stash, branches or ignored files', async () => {
    const { root, home } = makeRepo();
    const before = treeState(root);
    const git0 = gitState(root);
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    expect(repo.shadow).toBe(false);
    const ref = checkpointRef(SID, 1);
    const snap = await takeCheckpoint(repo, { ref, message: 'checkpoint 1' });
    expect(git(root, 'rev-parse', ref).trim()).toBe(snap.commit);
    expect(git(root, 'rev-parse', `${ref}^`).trim()).toBe(git0.head.trim()); // parent: HEAD
    expect(git(root, 'cat-file', '-p', `${snap.tree}`)).not.toContain('debug.log'); // ignored: never captured
    expect(gitState(root)).toEqual(git0);

    messUp(root);
    const plan = await restorePlan(repo, (await snapshotTree(repo)).tree, snap.tree);
    expect(plan.map((c) => `${c.status} ${c.path}`).sort()).toEqual(
      ['added b.txt', 'deleted made/deep/x.txt', 'deleted new.txt', 'modified a.txt', 'modified run.sh', 'modified src/lib.ts'].sort(),
    );
    expect(await applyRestore(repo, snap.tree, plan)).toEqual([]);

    const after = treeState(root);
    // Byte-identical files and modes; the ignored file keeps what the turn wrote (never touched).
    expect({ ...after, 'debug.log': undefined }).toEqual({ ...before, 'debug.log': undefined });
    expect(readFileSync(join(root, 'debug.log'), 'utf8')).toBe('the turn logged this\n');
    expect(existsSync(join(root, 'made'))).toBe(false);
    expect(gitState(root)).toEqual(git0);
  });

  it('an unchanged tree reuses the previous checkpoint; a changed one gets a child of it', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    const first = await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' });
    const same = await takeCheckpoint(repo, { ref: checkpointRef(SID, 2), parent: first, message: 'two' });
    expect(same).toEqual(first);
    writeFiles(root, { 'c.txt': 'c\n' });
    const third = await takeCheckpoint(repo, { ref: checkpointRef(SID, 3), parent: first, message: 'three' });
    expect(third.commit).not.toBe(first.commit);
    expect(git(root, 'rev-parse', `${checkpointRef(SID, 3)}^`).trim()).toBe(first.commit);
    expect(git(root, 'log', '--format=%s', '-1', third.commit).trim()).toBe('three');
  });

  it('rewindCode checkpoints the state first, so rewinding to that checkpoint undoes the restore', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    const git0 = gitState(root);
    const start = treeState(root);
    const one = record(1, checkpointRef(SID, 1), await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' }), repo.root);
    messUp(root);
    const messed = treeState(root);
    // The turn ended: the session saw this state.
    await takeCheckpoint(repo, { ref: seenRef(SID), parent: one, message: 'seen' });

    const plan = await planCodeRewind(repo, SID, one, one);
    expect(plan.conflicts).toEqual([]);
    const recorded: CheckpointRecord[] = [];
    const result = await rewindCode(repo, plan, { sessionId: SID, turn: 2, parent: one, record: (r) => void recorded.push(r) });
    expect(recorded).toEqual([result.before]);
    expect(result.before).toMatchObject({ turn: 2, kind: 'restore', ref: checkpointRef(SID, 2) });
    expect({ ...treeState(root), 'debug.log': undefined }).toEqual({ ...start, 'debug.log': undefined });

    const undo = await planCodeRewind(repo, SID, result.before, result.before);
    expect(undo.conflicts).toEqual([]);
    await rewindCode(repo, undo, { sessionId: SID, turn: 3, parent: result.before, record: () => undefined });
    expect(treeState(root)).toEqual(messed);
    // The undo brought the turn's changes back (so git status shows them); the rest is as it was.
    expect({ ...gitState(root), status: '' }).toEqual({ ...git0, status: '' });
  });

  it('lists files changed outside the session since it last saw the tree as conflicts', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    const one = record(1, checkpointRef(SID, 1), await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' }), repo.root);
    writeFiles(root, { 'a.txt': 'the turn wrote this\n' });
    await takeCheckpoint(repo, { ref: seenRef(SID), parent: one, message: 'seen' });
    // After the turn, the user edits a file in an editor.
    writeFiles(root, { 'b.txt': 'my own edit\n' });
    const plan = await planCodeRewind(repo, SID, one, one);
    expect(plan.changes.map((c) => c.path).sort()).toEqual(['a.txt', 'b.txt']);
    expect(plan.conflicts).toEqual(['b.txt']);
  });

  it("never runs the repository's own filter drivers while checkpointing or restoring", async () => {
    const { root, home } = makeRepo();
    const marker = join(root, '..', 'filter-ran');
    git(root, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    git(root, 'config', 'filter.evil.smudge', `touch ${marker}; cat`);
    writeFiles(root, { '.gitattributes': '*.txt filter=evil\n' });
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    const snap = await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' });
    writeFiles(root, { 'a.txt': 'changed\n' });
    await applyRestore(repo, snap.tree, await restorePlan(repo, (await snapshotTree(repo)).tree, snap.tree));
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('alpha staged\n');
    expect(existsSync(marker)).toBe(false);
  });

  it('leaves a directory holding ignored files where the checkpoint has a file', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    const snap = await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' });
    rmSync(join(root, 'b.txt'));
    writeFiles(root, { 'b.txt/tracked.txt': 'a file of the turn\n', 'b.txt/trace.log': 'ignored\n' });
    const plan = await restorePlan(repo, (await snapshotTree(repo)).tree, snap.tree);
    expect(plan.map((c) => `${c.status} ${c.path}`).sort()).toEqual(['added b.txt', 'deleted b.txt/tracked.txt']);
    expect(await applyRestore(repo, snap.tree, plan)).toEqual(['b.txt']);
    expect(readFileSync(join(root, 'b.txt', 'trace.log'), 'utf8')).toBe('ignored\n');
    expect(existsSync(join(root, 'b.txt', 'tracked.txt'))).toBe(false);
  });

  it('never writes a path the checkpoint has that git ignores now', async () => {
    const { root, home } = makeRepo();
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'p1' });
    writeFiles(root, { 'out/keep.txt': 'old\n' });
    const snap = await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' });
    writeFiles(root, { '.gitignore': '*.log\nout/\n', 'out/keep.txt': 'new, and ignored now\n' });
    const plan = await restorePlan(repo, (await snapshotTree(repo)).tree, snap.tree);
    expect(plan.map((c) => c.path).sort()).toEqual(['.gitignore', 'out/keep.txt']);
    const skipped = await applyRestore(repo, snap.tree, plan);
    expect(skipped).toEqual(['out/keep.txt']);
    expect(readFileSync(join(root, 'out', 'keep.txt'), 'utf8')).toBe('new, and ignored now\n');
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toBe('*.log\n');
  });
});

describe('checkpoints of a directory that is not a git repository', () => {
  it('live in a shadow repository under SEEK_HOME and restore exactly', async () => {
    const { root, home } = makePlainDir();
    const start = treeState(root);
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: 'plain1' });
    expect(repo.shadow).toBe(true);
    const snap = await takeCheckpoint(repo, { ref: checkpointRef(SID, 1), message: 'one' });
    expect(existsSync(join(root, '.git'))).toBe(false);
    expect(existsSync(join(home, 'projects', 'plain1', 'checkpoints.git', 'HEAD'))).toBe(true);

    writeFiles(root, { 'notes.md': '# changed\n', 'extra/new.txt': 'n\n' });
    rmSync(join(root, 'deep'), { recursive: true });
    chmodSync(join(root, 'tool.sh'), 0o755);
    mkdirSync(join(root, 'emptydir'));
    writeFileSync(join(root, 'emptydir', '.keep'), '');
    rmSync(join(root, 'emptydir', '.keep'));

    const plan = await restorePlan(repo, (await snapshotTree(repo)).tree, snap.tree);
    await applyRestore(repo, snap.tree, plan);
    expect({ ...treeState(root), 'emptydir/': undefined }).toEqual(start);
    expect(existsSync(join(root, '.git'))).toBe(false);
  });
});
