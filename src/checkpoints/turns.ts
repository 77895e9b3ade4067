/**
 * The checkpoints a running session takes: one at the start of every user turn and one before
 * work is merged into its tree (recorded in the session file, see record.ts), and, at the end of
 * a turn, the session's `seen` ref (rewind.ts) moved to the state the turn left. None ever fails
 * a turn: a failure is reported through `notice` once, and after a failure the session stops
 * taking checkpoints (a tree too large for the time limit would otherwise slow every turn).
 *
 * The turn-start snapshot overlaps the turn's first request: `atTurnStart` reserves the entry's
 * place in the session file (before the turn's user message, where a conversation rewind forks)
 * and returns; the snapshot goes on while the request is in flight. Nothing of the turn may
 * change the tree before `settled()` resolves: the session awaits it before the first tool call,
 * hook or merge of the turn.
 */
import { CheckpointRepositories, checkpointRef, seenRef, type CheckpointRepository } from './repository.js';
import { checkpointMessage, commitCheckpoint, headSnapshot, snapshotTree, type Snapshot } from './snapshot.js';
import { CHECKPOINT_EVENT, checkpointEntry, firstLine, type CheckpointKind, type CheckpointRecord } from './record.js';
import type { SessionEntryInput } from '../session/format.js';
import { errorText } from '../worktree/git.js';
import { leftOutNotice, rememberLeftOut, type LeftOutDirectory } from './untracked.js';

/** A checkpoint that takes longer than this is abandoned (and checkpoints are turned off). */
const CHECKPOINT_TIMEOUT_MS = 20_000;

export interface TurnCheckpointsOptions {
  sessionId: string;
  seekHome: string;
  projectId: string;
  /** Checkpoints already recorded in the session (a resumed session, a fork's copies). */
  recorded: readonly CheckpointRecord[];
  append: (entry: SessionEntryInput) => void;
  /** Reserves the next entry of the session file, filled later (SessionWriter.reserve). */
  reserve: () => (entry: SessionEntryInput) => void;
  notice: (text: string) => void;
  /** See CheckpointSettings.maxFileSize, maxUntrackedFiles and maxUntrackedBytes. */
  maxFileSize?: number;
  maxUntrackedFiles?: number;
  maxUntrackedBytes?: number;
}

export class TurnCheckpoints {
  private count: number;
  private last: CheckpointRecord | undefined;
  private current: Snapshot | undefined;
  private pending: Promise<void> = Promise.resolve();
  /** Whether anything that can change the tree (a tool call) ran since the turn started. */
  private toolsRan = false;
  private readonly repos: CheckpointRepositories;
  private disabled = false;
  /** Directories left out that the session was told of (its earlier processes' checkpoints too). */
  private readonly announced: Set<string>;
  private readonly seeded = new Set<string>();

  constructor(private readonly options: TurnCheckpointsOptions) {
    this.repos = new CheckpointRepositories(options);
    this.count = options.recorded.reduce((max, r) => Math.max(max, r.turn), 0);
    this.last = options.recorded.at(-1);
    this.announced = new Set(options.recorded.flatMap((r) => (r.leftOut ?? []).map((dir) => `${r.root}\0${dir.path}`)));
  }

  /** Opens the repository of `root` ahead of the first turn, and lists its config and seeds the
   * snapshots' index (stat-cache.ts): their git processes run off the turn's path. */
  warm(root: string): void {
    if (!this.disabled) void this.repository(root).then((repo) => repo.statCache.prepare(), () => undefined);
  }

  /**
   * Starts the checkpoint of `root` before the turn that `prompt` starts: reserves its entry and
   * returns at once; opening the repository and the snapshot finish in the background (see
   * `settled`), overlapping the turn's first request. The checkpoint also becomes the session's
   * `seen` state, in the same git process: a turn that runs no tool leaves the tree as it saw it
   * at the start, and one that does moves `seen` again at its end.
   */
  async atTurnStart(root: string, prompt: string): Promise<void> {
    this.current = undefined;
    this.toolsRan = false;
    if (this.disabled) return;
    const previous = this.pending;
    const turn = ++this.count;
    const at = new Date();
    const fill = this.options.reserve();
    const what = firstLine(prompt);
    this.pending = previous
      .then(() => this.repository(root))
      .then((repo) => this.take(repo, turn, 'turn', what, at))
      .then((record) => {
        fill(checkpointEntry(record));
        this.current = record;
      })
      .catch((error: unknown) => {
        fill({ type: 'event', ts: at.toISOString(), name: `${CHECKPOINT_EVENT}_failed`, data: { turn, error: errorText(error) } });
        this.fail(error);
      });
  }

  /** Resolves when the turn-start checkpoint is in (or has failed): the tree may change after it. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** Before a tool call of the turn: waits for the turn-start checkpoint, and notes that the turn
   * may change the tree (so its end takes a snapshot for the `seen` ref). A call that cannot change
   * the tree (`readOnly`: a core tool that only reads) neither waits nor counts: it runs while the
   * snapshot is taken, and a turn of reads alone needs no second snapshot at its end. */
  async beforeTool(options: { readOnly?: boolean } = {}): Promise<void> {
    if (options.readOnly) return;
    this.toolsRan = true;
    await this.pending;
  }

  /**
   * Checkpoints `root` before work is merged into it (a worktree's, delegate_tasks' editors'),
   * so a rewind can go back to just before the merge. Recorded when taken.
   */
  async beforeMerge(root: string, what: string): Promise<void> {
    await this.pending;
    if (this.disabled) return;
    try {
      const repo = await this.repository(root);
      const record = await this.take(repo, ++this.count, 'merge', firstLine(what), new Date());
      this.options.append(checkpointEntry(record));
    } catch (error) {
      this.fail(error);
    }
  }

  /** The number the session's next checkpoint gets. */
  get nextTurn(): number {
    return this.count + 1;
  }

  /** Records a checkpoint taken outside a turn (the state before a rewind from the TUI), so the
   * numbers of later ones go on from it. */
  recordTaken(record: CheckpointRecord): void {
    this.options.append(checkpointEntry(record));
    this.count = Math.max(this.count, record.turn);
    this.last = record;
  }

  /** Moves the session's `seen` ref to the state the turn left. */
  async atTurnEnd(): Promise<void> {
    await this.pending;
    const start = this.current;
    const last = this.last;
    if (!start || !last || this.disabled) return;
    this.current = undefined;
    try {
      // Nothing of the turn could change the tree: the session saw it as it was at the start (where
      // the turn's checkpoint already put `seen`), and whatever changed since was changed by
      // something else. No second snapshot, no git process.
      if (!this.toolsRan) return;
      const repo = await this.repository(last.root);
      const { tree, leftOut } = await withTimeout(snapshotTree(repo));
      this.announce(repo, leftOut);
      const message = `seek: state at the end of turn ${last.turn} of session ${this.options.sessionId}\n`;
      await commitCheckpoint(repo, tree, { ref: seenRef(this.options.sessionId), parent: start, message });
    } catch (error) {
      this.fail(error);
    }
  }

  /** Snapshots the tree and commits it as checkpoint `turn` (parent: the previous one of the root). */
  private async take(repo: CheckpointRepository, turn: number, kind: CheckpointKind, what: string, at: Date): Promise<CheckpointRecord> {
    const ref = checkpointRef(this.options.sessionId, turn);
    // The first checkpoint of a root has HEAD for parent: read while the tree is snapshotted.
    const parent = this.last && this.last.root === repo.root ? this.last : headSnapshot(repo);
    if (parent instanceof Promise) parent.catch(() => undefined); // awaited below unless the snapshot fails first
    const { tree, unrestorable, leftOut } = await withTimeout(snapshotTree(repo));
    this.announce(repo, leftOut);
    const alsoRefs = kind === 'turn' ? [seenRef(this.options.sessionId)] : [];
    const snapshot = await commitCheckpoint(repo, tree, { ref, alsoRefs, parent, message: checkpointMessage(this.options.sessionId, turn, at, what) });
    const record: CheckpointRecord = { turn, kind, ref, ...snapshot, root: repo.root, prompt: what, at: at.toISOString(), ...(unrestorable.length > 0 ? { unrestorable } : {}), ...(leftOut.length > 0 ? { leftOut } : {}) };
    this.last = record;
    return record;
  }

  /** One notice per directory left out in the session (a resumed session's earlier checkpoints
   * that left it out count). */
  private announce(repo: CheckpointRepository, dirs: readonly LeftOutDirectory[]): void {
    for (const dir of dirs) {
      const key = `${repo.root}\0${dir.path}`;
      if (this.announced.has(key)) continue;
      this.announced.add(key);
      this.options.notice(leftOutNotice(dir, repo.limits));
    }
  }

  /** The repository of `root`; the first time, told which directories the session left out before. */
  private async repository(root: string): Promise<CheckpointRepository> {
    const repo = await this.repos.get(root);
    if (!this.seeded.has(repo.root)) {
      this.seeded.add(repo.root);
      for (const record of this.options.recorded) if (record.root === repo.root) for (const dir of record.leftOut ?? []) rememberLeftOut(repo.statCache.leftOut, dir);
    }
    return repo;
  }

  private fail(error: unknown): void {
    if (this.disabled) return;
    this.disabled = true;
    this.options.notice(`checkpoint failed, so this session takes no more checkpoints (seek rewind cannot go back past here): ${errorText(error)}`);
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it took more than ${CHECKPOINT_TIMEOUT_MS / 1000} s`)), CHECKPOINT_TIMEOUT_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
