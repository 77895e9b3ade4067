/**
 * The checkpoints a running session takes: one at the start of every user turn (recorded in the
 * session file, see record.ts) and, at its end, the session's `seen` ref (rewind.ts) moved to the
 * state the turn left. Neither ever fails a turn: a failure is reported through `notice` once,
 * and after a failure the session stops taking checkpoints (a tree too large for the time limit
 * would otherwise slow every turn).
 */
import { CheckpointRepositories, checkpointRef, seenRef, type CheckpointRepository } from './repository.js';
import { checkpointMessage, commitCheckpoint, snapshotTree, type Snapshot } from './snapshot.js';
import { checkpointEntry, firstLine, type CheckpointRecord } from './record.js';
import type { SessionEntryInput } from '../session/format.js';
import { errorText } from '../worktree/git.js';

/** A checkpoint that takes longer than this is abandoned (and checkpoints are turned off). */
const CHECKPOINT_TIMEOUT_MS = 20_000;

export interface TurnCheckpointsOptions {
  sessionId: string;
  seekHome: string;
  projectId: string;
  /** Checkpoints already recorded in the session (a resumed session, a fork's copies). */
  recorded: readonly CheckpointRecord[];
  append: (entry: SessionEntryInput) => void;
  notice: (text: string) => void;
}

export class TurnCheckpoints {
  private count: number;
  private last: CheckpointRecord | undefined;
  private current: Snapshot | undefined;
  private readonly repos: CheckpointRepositories;
  private disabled = false;

  constructor(private readonly options: TurnCheckpointsOptions) {
    this.repos = new CheckpointRepositories(options);
    this.count = options.recorded.reduce((max, r) => Math.max(max, r.turn), 0);
    this.last = options.recorded.at(-1);
  }

  /** Checkpoints `root` before the turn that `prompt` starts, and records it. */
  async atTurnStart(root: string, prompt: string): Promise<void> {
    this.current = undefined;
    await this.guarded(async () => {
      const repo = await this.repository(root);
      const turn = this.count + 1;
      const at = new Date();
      const ref = checkpointRef(this.options.sessionId, turn);
      const parent = this.last && this.last.root === repo.root ? this.last : undefined;
      const tree = await withTimeout(snapshotTree(repo));
      const snapshot = await commitCheckpoint(repo, tree, { ref, parent, message: checkpointMessage(this.options.sessionId, turn, at, firstLine(prompt)) });
      const record: CheckpointRecord = { turn, kind: 'turn', ref, ...snapshot, root: repo.root, prompt: firstLine(prompt), at: at.toISOString() };
      this.options.append(checkpointEntry(record));
      this.count = turn;
      this.last = record;
      this.current = snapshot;
    });
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
    const start = this.current;
    const last = this.last;
    if (!start || !last) return;
    this.current = undefined;
    await this.guarded(async () => {
      const repo = await this.repository(last.root);
      const tree = await withTimeout(snapshotTree(repo));
      const message = `seek: state at the end of turn ${last.turn} of session ${this.options.sessionId}\n`;
      await commitCheckpoint(repo, tree, { ref: seenRef(this.options.sessionId), parent: start, message });
    });
  }

  private repository(root: string): Promise<CheckpointRepository> {
    return this.repos.get(root);
  }

  private async guarded(step: () => Promise<void>): Promise<void> {
    if (this.disabled) return;
    try {
      await step();
    } catch (error) {
      this.disabled = true;
      this.options.notice(`checkpoint failed, so this session takes no more checkpoints (seek rewind cannot go back past here): ${errorText(error)}`);
    }
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it took more than ${CHECKPOINT_TIMEOUT_MS / 1000} s`)), CHECKPOINT_TIMEOUT_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
