/**
 * Runs a validated plan: each task starts as soon as its dependencies have completed (serial plans
 * are a chain), up to the subagent concurrency limit; a failed task skips its dependants while
 * independent branches go on. Writers that could overlap each work in their own worktree and are
 * merged back one at a time in plan order (a conflict fails that task with the report and changes
 * nothing); otherwise writers take turns in the working tree. Completed tasks are journalled so a
 * resumed run of the same plan reuses them.
 */
import type { ChildReport } from '../subagents/child-report.js';
import type { CleanupOutcome } from '../worktree/types.js';
import { reachability } from './plan.js';
import { capSummary, parseVerdict, taskPrompt } from './prompts.js';
import type { Role, RoleCatalog } from './roles.js';
import type { OrchestrationEvent, OrchestrationSummary, OrchestrationTotals, Plan, PlanTask, TaskRecord, TaskStatus } from './types.js';

/** A writer's diff as reviewers see it, at most this many bytes. */
export const DIFF_CAP = 16 * 1024;

export interface ChildRequest {
  task: PlanTask;
  role: Role;
  prompt: string;
  /** Run in a fresh worktree kept for the orchestrator (report.worktree). */
  isolate: boolean;
  signal: AbortSignal;
}

/** The git side, bound to the tree the plan works on (the project, or the worktree its caller
 * works in): snapshots and diffs of working states, ending a writer's worktree (a merge goes into
 * that tree), and that tree's uncommitted changes. */
export interface ChangeTracking {
  /** `dir` absent: the plan's tree. */
  snapshotTree(dir?: string): Promise<string>;
  diffTrees(from: string, to: string, maxBytes: number): Promise<string>;
  cleanup(path: string, ifDirty: 'keep' | 'merge'): Promise<CleanupOutcome>;
  /** `git status --porcelain` lines of the plan's tree. */
  treeChanges(): Promise<number>;
}

/** Completed tasks of earlier runs, by plan hash; and where new ones are written. */
export interface Journal {
  completed(planHash: string): ReadonlyMap<string, TaskRecord>;
  record(planHash: string, callId: string, record: TaskRecord): void;
}

export interface OrchestratorOptions {
  catalog: RoleCatalog;
  runChild: (request: ChildRequest) => Promise<ChildReport>;
  /** Absent outside git: no worktrees, no diffs; writers take turns in the working tree. */
  changes?: ChangeTracking;
  journal?: Journal;
  emit: (event: OrchestrationEvent) => void;
}

const ENDED: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'skipped', 'canceled']);

export async function runPlan(plan: Plan, callId: string, signal: AbortSignal, options: OrchestratorOptions): Promise<OrchestrationSummary> {
  const { changes } = options;
  const isolate = plan.concurrentWriters && changes !== undefined;
  const records = new Map<string, TaskRecord>();
  const status = new Map<string, TaskStatus>(plan.tasks.map((task) => [task.id, 'pending']));
  const set = (task: PlanTask, next: TaskStatus, extra: { subSid?: string; record?: TaskRecord } = {}): void => {
    status.set(task.id, next);
    options.emit({ type: 'orchestration_task', callId, taskId: task.id, status: next, ...extra });
  };
  const finish = (task: PlanTask, record: TaskRecord): void => {
    records.set(task.id, record);
    if (record.status === 'completed' && !record.reused) options.journal?.record(plan.hash, callId, record);
    mergeTurns.get(task.id)?.resolve();
    set(task, record.status, { record });
  };

  options.emit({
    type: 'orchestration_start',
    callId,
    mode: plan.mode,
    ...(plan.goal ? { goal: plan.goal } : {}),
    isolatedWriters: isolate,
    tasks: plan.tasks.map((task) => ({ id: task.id, role: task.role, task: task.task, dependsOn: task.dependsOn })),
  });

  // Isolated writers merge in plan order among those that may overlap: each waits for the merge
  // turns of the earlier ones, and merges run one at a time.
  const mergeTurns = new Map(plan.tasks.filter((task) => isolate && task.kind === 'writer').map((task) => [task.id, deferred()]));
  let mergeChain: Promise<unknown> = Promise.resolve();
  const writerTurns = new Lock(); // writers without worktrees take turns
  const reach = reachability(plan.tasks);

  const earlier = options.journal?.completed(plan.hash) ?? new Map<string, TaskRecord>();
  for (const task of plan.tasks) {
    const done = earlier.get(task.id);
    if (done?.status === 'completed') finish(task, { ...done, reused: true });
  }
  // Worktrees start at HEAD: the user's uncommitted work is not in them. Editors and the model are
  // told, so neither takes its absence for a bug.
  const notes: string[] = [];
  const isolatedToRun = isolate && plan.tasks.some((task) => task.kind === 'writer' && status.get(task.id) === 'pending');
  const uncommitted = isolatedToRun ? await changes?.treeChanges().catch(() => 0) : 0;
  if (uncommitted) notes.push(uncommittedNote(uncommitted));

  const execute = async (task: PlanTask): Promise<void> => {
    const role = options.catalog.resolve(task.role)!;
    const inputs = task.dependsOn.map((id) => records.get(id)!).sort((a, b) => indexOf(plan, a.id) - indexOf(plan, b.id));
    const writerInputs = inputs.filter((record) => plan.tasks[indexOf(plan, record.id)]!.kind === 'writer');
    const prompt = taskPrompt({
      ...(plan.goal ? { goal: plan.goal } : {}),
      task,
      inputs,
      ...(task.reviews ? { changes: writerInputs } : {}),
      ...(changes ? {} : { noDiffReason: '(no diff: this project is not a git repository; read the files the editor named)' }),
      ...(uncommitted && task.kind === 'writer' ? { worktreeNote: WORKTREE_AT_HEAD } : {}),
    });
    const writes = task.kind === 'writer';
    const release = writes && !isolate ? await writerTurns.acquire() : undefined;
    try {
      const before = writes && !isolate && changes ? await changes.snapshotTree().catch(() => undefined) : undefined;
      const report = await options.runChild({ task, role, prompt, isolate: writes && isolate, signal });
      const record = toRecord(task, report);
      if (writes && changes && report.worktree) {
        await endWorktree(task, record, report.worktree, changes);
      } else if (before && changes && record.status === 'completed') {
        const after = await changes.snapshotTree().catch(() => undefined);
        if (after) record.diff = await changes.diffTrees(before, after, DIFF_CAP).catch(() => undefined);
      }
      finish(task, record);
    } finally {
      release?.();
    }
  };

  /** A completed isolated writer: diff, wait for its merge turn, merge. A failed one: keep its work. */
  const endWorktree = async (task: PlanTask, record: TaskRecord, worktree: NonNullable<ChildReport['worktree']>, git: ChangeTracking): Promise<void> => {
    record.worktree = { path: worktree.path, branch: worktree.branch, kept: false };
    if (record.status !== 'completed') {
      const kept = await git.cleanup(worktree.path, 'keep');
      record.worktree.kept = kept.kind === 'kept';
      if (kept.kind === 'kept') record.hint = `${record.hint ?? ''} Its changes are kept: ${kept.result}`.trim();
      return;
    }
    const after = await git.snapshotTree(worktree.path).catch(() => undefined);
    if (after) record.diff = await git.diffTrees(worktree.base, after, DIFF_CAP).catch(() => undefined);
    const before = plan.tasks.filter((other) => other.index < task.index && mergeTurns.has(other.id) && !reach.get(task.id)!.has(other.id) && !reach.get(other.id)!.has(task.id));
    await Promise.all(before.map((other) => mergeTurns.get(other.id)!.promise));
    set(task, 'merging');
    const merged = mergeChain.then(() => git.cleanup(worktree.path, 'merge'));
    mergeChain = merged.catch(() => undefined);
    const outcome = await merged.catch((error: unknown) => ({ kind: 'failed', result: String(error) }) as CleanupOutcome);
    if (outcome.kind === 'merged') record.merge = { commit: outcome.commit };
    else if (outcome.kind === 'cleaned') record.hint = 'no changes to merge';
    else if (outcome.kind === 'merge_conflict') {
      Object.assign(record, { status: 'failed', reason: 'merge_conflict', hint: outcome.result, merge: { conflict: outcome.report } });
      record.worktree.kept = true;
    } else {
      Object.assign(record, { status: 'failed', reason: 'merge_error', hint: outcome.result });
      record.worktree.kept = true;
    }
  };

  const running = new Map<string, Promise<void>>();
  for (;;) {
    if (!signal.aborted) {
      skipBlocked(plan, status, records, finish); // after a cancel, the rest is cancelled, not skipped
      for (const task of plan.tasks) {
        if (status.get(task.id) !== 'pending' || !task.dependsOn.every((dep) => status.get(dep) === 'completed')) continue;
        set(task, 'running');
        const job = execute(task).catch((error: unknown) => finish(task, crashed(task, error)));
        running.set(task.id, job.finally(() => running.delete(task.id)));
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  for (const task of plan.tasks) {
    if (status.get(task.id) === 'pending') finish(task, blank(task, 'canceled', 'not started: the orchestration was cancelled'));
  }
  const ordered = plan.tasks.map((task) => records.get(task.id)!);
  const summary: OrchestrationSummary = {
    callId,
    mode: plan.mode,
    status: overall(ordered, signal.aborted),
    records: ordered,
    totals: totalsOf(ordered),
    ...(notes.length > 0 ? { notes } : {}),
  };
  options.emit({ type: 'orchestration_end', summary });
  return summary;
}

/** Told to an editor in a worktree when the main working tree has uncommitted changes. */
export const WORKTREE_AT_HEAD =
  'You work in your own git worktree, which starts at the last commit (HEAD): uncommitted changes in the user\'s working tree are not in it. Build on what is committed; your changes are merged back when you finish.';

function uncommittedNote(count: number): string {
  return `the working tree had ${count} uncommitted change${count === 1 ? '' : 's'} when the plan started; the editors' worktrees began at its HEAD without them, and their merges went into it around them (a merge that would overwrite them is refused)`;
}

/** Marks skipped every pending task whose dependency did not complete (repeatedly: skips cascade). */
function skipBlocked(plan: Plan, status: Map<string, TaskStatus>, records: Map<string, TaskRecord>, finish: (task: PlanTask, record: TaskRecord) => void): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const task of plan.tasks) {
      if (status.get(task.id) !== 'pending') continue;
      const blocker = task.dependsOn.find((dep) => ENDED.has(status.get(dep)!) && status.get(dep) !== 'completed');
      if (!blocker) continue;
      const why = records.get(blocker)?.status ?? status.get(blocker);
      finish(task, blank(task, 'skipped', `${blocker} ${why}`));
      changed = true;
    }
  }
}

function toRecord(task: PlanTask, report: ChildReport): TaskRecord {
  const completed = report.status === 'completed';
  const summary = completed ? capSummary(report.summary ?? '', report.transcriptPath) : undefined;
  return {
    id: task.id,
    role: task.role,
    status: completed ? 'completed' : report.reason === 'canceled' ? 'canceled' : 'failed',
    ...(completed ? {} : { reason: report.reason ?? 'failed', hint: firstLine(report.result.content) }),
    ...(summary !== undefined ? { summary } : {}),
    ...(report.subSid ? { subSid: report.subSid } : {}),
    turns: report.turns,
    modelCalls: report.modelCalls,
    toolCalls: report.toolCalls,
    tokens: report.tokens,
    costUsd: report.costUsd,
    ...(report.costKnown === false ? { costKnown: false } : {}),
    ...(completed && task.reviews ? { verdict: parseVerdict(report.summary ?? '') } : {}),
    ...(report.transcriptPath ? { transcriptPath: report.transcriptPath } : {}),
  };
}

/** The `[agent: failed reason=…] hint` line without its bracket: the hint. */
function firstLine(content: string): string {
  const line = content.split('\n')[0] ?? '';
  return line.replace(/^\[agent: failed reason=[^\]]*\]\s*/, '');
}

function blank(task: PlanTask, status: 'skipped' | 'canceled', hint: string): TaskRecord {
  return { id: task.id, role: task.role, status, hint, turns: 0, modelCalls: 0, toolCalls: 0, tokens: { prompt: 0, completion: 0, cache_hit: 0 }, costUsd: 0 };
}

function crashed(task: PlanTask, error: unknown): TaskRecord {
  return { ...blank(task, 'canceled', ''), status: 'failed', reason: 'internal_error', hint: `internal error: ${(error as Error).message ?? String(error)}` };
}

function overall(records: readonly TaskRecord[], aborted: boolean): OrchestrationSummary['status'] {
  if (aborted) return 'canceled';
  const completed = records.filter((record) => record.status === 'completed').length;
  if (completed === records.length) return 'completed';
  return completed === 0 ? 'failed' : 'partial';
}

export function totalsOf(records: readonly TaskRecord[]): OrchestrationTotals {
  const totals: OrchestrationTotals = {
    tasks: records.length,
    completed: 0,
    failed: 0,
    skipped: 0,
    canceled: 0,
    turns: 0,
    modelCalls: 0,
    toolCalls: 0,
    tokens: { prompt: 0, completion: 0, cache_hit: 0 },
    costUsd: 0,
  };
  for (const record of records) {
    totals[record.status]++;
    if (record.reused) continue; // billed in the run that did it
    totals.turns += record.turns;
    totals.modelCalls += record.modelCalls;
    totals.toolCalls += record.toolCalls;
    totals.tokens.prompt += record.tokens.prompt;
    totals.tokens.completion += record.tokens.completion;
    totals.tokens.cache_hit += record.tokens.cache_hit;
    totals.costUsd += record.costUsd;
    if (record.costKnown === false) totals.costKnown = false;
  }
  return totals;
}

const indexOf = (plan: Plan, id: string): number => plan.tasks.findIndex((task) => task.id === id);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** One holder at a time, first come first served. */
class Lock {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    const previous = this.tail;
    const next = deferred();
    this.tail = previous.then(() => next.promise);
    await previous;
    return next.resolve;
  }
}
