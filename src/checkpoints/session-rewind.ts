/**
 * Rewinding the session a front end has open (the TUI's /rewind; `seek rewind` does the same for
 * a closed session): its checkpoints with what changed since each, the diff a code restore would
 * apply, the restore itself (its pre-restore checkpoint recorded through the open session's
 * TurnCheckpoints, so numbering stays right), and the conversation fork.
 */
import { readSession } from '../session/reader.js';
import { forkSessionBefore } from '../session/resume.js';
import { checkpointsOf, type CheckpointRecord } from './record.js';
import { CheckpointRepositories, type CheckpointRepository } from './repository.js';
import { planCodeRewind, rewindCode, rewindPoints, type CodeRewindPlan, type CodeRewindResult, type RewindPoint } from './rewind.js';
import type { TurnCheckpoints } from './turns.js';

export type SessionCheckpoint = CheckpointRecord & { entryIndex: number };
export type SessionRewindPoint = RewindPoint & { entryIndex: number };

export interface SessionRewindOptions {
  sessionId: string;
  seekHome: string;
  projectId: string;
  /** The session file (it exists: the session has a first message). */
  sessionPath: string;
  checkpoints: TurnCheckpoints;
  /** See CheckpointSettings.maxFileSize, maxUntrackedFiles and maxUntrackedBytes. */
  maxFileSize?: number;
  maxUntrackedFiles?: number;
  maxUntrackedBytes?: number;
}

export class SessionRewind {
  private readonly repos: CheckpointRepositories;

  constructor(private readonly options: SessionRewindOptions) {
    this.repos = new CheckpointRepositories(options);
  }

  /** The checkpoints recorded in the session file, oldest first. */
  async checkpoints(): Promise<SessionCheckpoint[]> {
    return checkpointsOf((await readSession(this.options.sessionPath)).entries);
  }

  /** Every checkpoint with the files changed since it (what rewinding to it undoes), oldest first. */
  async points(): Promise<SessionRewindPoint[]> {
    const all = await this.checkpoints();
    const points: SessionRewindPoint[] = [];
    for (const root of new Set(all.map((c) => c.root))) {
      const ofRoot = all.filter((c) => c.root === root);
      const listed = await rewindPoints(await this.repository(root), ofRoot);
      listed.forEach((point, i) => points.push({ ...point, entryIndex: ofRoot[i]!.entryIndex }));
    }
    return points.sort((a, b) => a.turn - b.turn);
  }

  /** What restoring the code of `target` would do now (conflicts: files changed outside seek). */
  async plan(target: CheckpointRecord): Promise<CodeRewindPlan> {
    const latest = (await this.checkpoints()).filter((c) => c.root === target.root).at(-1) ?? target;
    return planCodeRewind(await this.repository(target.root), this.options.sessionId, target, latest);
  }

  /** The patch the restore applies (from the tree now to the checkpoint's), as text lines. */
  async diffLines(plan: CodeRewindPlan): Promise<string[]> {
    if (plan.currentTree === plan.target.tree) return [];
    const repo = await this.repository(plan.target.root);
    const out = await repo.git.ok(repo.root, ['diff-tree', '-r', '-p', '--no-renames', '--no-color', plan.currentTree, plan.target.tree]);
    return out.replace(/\n$/, '').split('\n');
  }

  /** Carries out a plan whose conflicts the user accepted; `before.turn` undoes it. */
  async restoreCode(plan: CodeRewindPlan): Promise<CodeRewindResult> {
    const latest = (await this.checkpoints()).filter((c) => c.root === plan.target.root).at(-1) ?? plan.target;
    const repo = await this.repository(plan.target.root);
    const turn = this.options.checkpoints.nextTurn;
    return rewindCode(repo, plan, { sessionId: this.options.sessionId, turn, parent: latest, record: (record) => this.options.checkpoints.recordTaken(record) });
  }

  /** A new session holding the history before `target`'s turn; this one stays as it is. */
  async forkBefore(target: SessionCheckpoint): Promise<{ id: string; prompt: string | undefined }> {
    const fork = await forkSessionBefore(this.options.seekHome, this.options.projectId, this.options.sessionPath, target.entryIndex);
    return { id: fork.id, prompt: await this.promptOf(target) };
  }

  /** The whole prompt of the user turn that `target` started (the first user message at or after its place). */
  private async promptOf(target: SessionCheckpoint): Promise<string | undefined> {
    const { entries } = await readSession(this.options.sessionPath);
    for (const { index, entry } of entries) {
      if (index < target.entryIndex || entry.type !== 'message' || entry.message.role !== 'user') continue;
      const text = entry.message.content.trim();
      if (text) return text;
    }
    return undefined;
  }

  private repository(root: string): Promise<CheckpointRepository> {
    return this.repos.get(root);
  }
}
