/**
 * Orchestration in a session: the `delegate_tasks` tool and `seek run` both come here. It builds
 * the plan, has the user review it (interactive ask mode only), runs it with the session's
 * subagent manager (children adopt into the session's bill like `agent` children) and worktrees,
 * journals completed tasks in the session file, and formats the result.
 */
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { CostTracker } from '../cost/tracker.js';
import { roleCatalog } from '../orchestrator/roles.js';
import type { ChangeTracking, ChildRequest } from '../orchestrator/orchestrator.js';
import type { PlanReviewRequest, ReviewPlanFn } from '../orchestrator/review.js';
import type { SessionJournal } from '../orchestrator/journal.js';
import type { OrchestrationEvent, OrchestrationSummary, Plan, PlanTask, TaskSpec } from '../orchestrator/types.js';
import type { ChildReport, SpawnParent, SubagentManager } from '../subagents/manager.js';
import type { SharedLimit } from '../subagents/types.js';
import { createDelegateTasksTool } from '../tools/delegate-tasks.js';
import type { MergeGuard, WorktreeManager } from '../worktree/manager.js';
import { mergeGuard } from '../policy/write-guard.js';

export interface OrchestrationOptions {
  subagents: SubagentManager;
  worktrees?: WorktreeManager;
  /** The session's agent as the children's parent (the same as the agent tool's). */
  parent: () => SpawnParent;
  journal: SessionJournal;
  sink: { emit?: (event: OrchestrationEvent) => void };
  /** Asked before a plan runs, when `shouldReview()` says so (interactive ask mode). */
  reviewPlan?: ReviewPlanFn;
  shouldReview: () => boolean;
  /** Runs tasks elsewhere (a fleet of workers, `seek run --queue`) instead of as local children. */
  dispatch?: PlanDispatch;
}

/** Where a dispatched task runs and what it works on. */
export interface DispatchContext {
  plan: Plan;
  callId: string;
  /** The tree the plan works on (editors' changes merge into it). */
  tree: string;
  worktrees?: WorktreeManager;
  /** Records in the session that a task went to the fleet as this job (before it is queued). */
  recordJob(taskId: string, jobId: string): void;
  /** Tasks of this plan completed in an earlier run of the session (they are reused, not run). */
  completed: ReadonlySet<string>;
  /** Whether an earlier run of this plan in the session was cancelled (its cancelled jobs are
   * not run again unless the dispatcher was asked to). */
  cancelledBefore: boolean;
  /** Records in the session that this run of the plan was cancelled. */
  recordCancel(): void;
}

/**
 * Runs plan tasks somewhere else with the scheduler unchanged: dependencies, results passed on,
 * reviewers' diffs and merges in plan order stay the orchestrator's. An editor's changes come
 * back as a local seek worktree (`report.worktree`, kept) that is diffed and merged like a local
 * editor's; with a dispatcher every editor is isolated (its work happens on another checkout).
 */
export interface PlanDispatch {
  runChild(request: ChildRequest, context: DispatchContext): Promise<ChildReport>;
  /** The orchestrator skipped this task (a dependency did not complete, e.g. its merge was
   * refused here): its work elsewhere, if any, is stopped. */
  skipped?(taskId: string, context: DispatchContext): void;
}

/** One task run directly (a fleet worker's job): its text is already the full task prompt. */
export interface SingleTask {
  id: string;
  role: string;
  prompt: string;
  /** A token budget tighter than the role's (what is left of a fleet run's token cap): the child
   * gets the usual wrap-up notice near it and stops at it. */
  budgetTokens?: number;
  /** The run's caps shared with other jobs (a fleet run's spend in Redis): the child is told to
   * wrap up on its next request once they are reached. */
  sharedLimit?: SharedLimit;
}

export interface OrchestrationRun {
  result: ToolResult;
  /** Absent when the plan was invalid or rejected before anything ran. */
  summary?: OrchestrationSummary;
}

export class Orchestration {
  readonly catalog;

  constructor(private readonly options: OrchestrationOptions) {
    this.catalog = roleCatalog(options.subagents.types);
  }

  /** The delegate_tasks tool of the session (depth 0 only: children do not orchestrate). */
  tool(): Tool {
    return createDelegateTasksTool({
      roles: this.catalog.names,
      maxConcurrent: this.options.subagents.maxConcurrent,
      run: async (tasks, ctx) => (await this.run(tasks, ctx)).result,
    });
  }

  /** Validates, reviews (when asked to), runs and formats. Never throws. */
  async run(specs: readonly TaskSpec[], ctx: ToolContext, goal?: string): Promise<OrchestrationRun> {
    // The orchestrator loads with the first plan: most sessions never delegate.
    const [{ buildPlan, PlanError }, { runPlan }, { formatResult }, { reviewRequest }] = await Promise.all([
      import('../orchestrator/plan.js'),
      import('../orchestrator/orchestrator.js'),
      import('../orchestrator/result.js'),
      import('../orchestrator/review.js'),
    ]);
    let plan: Plan;
    try {
      plan = buildPlan(specs, this.catalog.resolve, this.catalog.names, goal);
    } catch (error) {
      if (!(error instanceof PlanError)) throw error;
      return rejected(`invalid plan, nothing was run: ${error.message}`);
    }
    const isolate = (p: Plan): boolean => p.concurrentWriters && this.options.worktrees !== undefined;
    const resuming = this.options.journal.completed(plan.hash).size > 0;
    if (this.options.reviewPlan && this.options.shouldReview() && !resuming) {
      const request = (p: Plan): PlanReviewRequest =>
        reviewRequest(p, isolate(p), this.catalog.names, (tasks) => request(buildPlan(tasks, this.catalog.resolve, this.catalog.names, goal)));
      const decision = await this.options.reviewPlan(request(plan), ctx.signal);
      if (decision.kind === 'reject') {
        return rejected(`the user rejected the plan${decision.reason ? `: ${decision.reason}` : ''}; nothing was run`);
      }
      try {
        plan = buildPlan(decision.tasks, this.catalog.resolve, this.catalog.names, goal);
      } catch (error) {
        if (!(error instanceof PlanError)) throw error;
        return rejected(`the edited plan is invalid, nothing was run: ${error.message}`);
      }
    }
    const { worktrees, dispatch, journal } = this.options;
    const submitted = journal.fleetJobsOf(plan.hash);
    if (!dispatch && submitted.length > 0) {
      return rejected(`this plan's tasks went to a fleet in this session (${submitted.length} job${submitted.length === 1 ? '' : 's'}, e.g. ${submitted[0]}); run or resume it with the same --queue, or the work would be done twice`);
    }
    if (dispatch && worktrees) plan = { ...plan, concurrentWriters: plan.tasks.some((task) => task.kind === 'writer') };
    const context: DispatchContext = {
      plan,
      callId: ctx.callId,
      tree: ctx.projectRoot,
      ...(worktrees ? { worktrees } : {}),
      recordJob: (taskId, jobId) => journal.recordFleetJob(plan.hash, taskId, jobId),
      completed: new Set(journal.completed(plan.hash).keys()),
      cancelledBefore: journal.fleetCancelled(plan.hash),
      recordCancel: () => journal.recordFleetCancel(plan.hash),
    };
    const summary = await runPlan(plan, ctx.callId, ctx.signal, {
      catalog: this.catalog,
      runChild: (request: ChildRequest) => (dispatch ? this.runRemote(dispatch, request, context) : this.runLocal(request, ctx)),
      ...(worktrees ? { changes: treeTracking(worktrees, ctx.projectRoot, mergeGuard(this.options.parent().policy)) } : {}),
      journal: this.options.journal,
      emit: (event) => {
        if (dispatch && event.type === 'orchestration_task' && event.status === 'skipped') dispatch.skipped?.(event.taskId, context);
        try {
          this.options.sink.emit?.(event);
        } catch {
          // A broken front end must not break the orchestration.
        }
      },
    });
    return { result: { content: formatResult(summary), isError: summary.status === 'failed' || summary.status === 'canceled' }, summary };
  }

  /**
   * Runs one task as a plan task runs here (its role's type, tools, permission and budget), in
   * the working tree: a fleet worker's job, whose prompt the coordinator's orchestrator built.
   * Throws when the role is unknown.
   */
  async runTask(task: SingleTask, ctx: ToolContext): Promise<ChildReport> {
    const role = this.catalog.resolve(task.role);
    if (!role) throw new Error(`unknown role "${task.role}" (roles here: ${this.catalog.names.join(', ')})`);
    const planTask: PlanTask = { id: task.id, index: 0, task: task.prompt, role: task.role, kind: role.kind, reviews: role.reviews, dependsOn: [] };
    const budget = task.budgetTokens;
    const type = budget === undefined ? role.type : { ...role.type, budgetTokens: Math.min(role.type.budgetTokens ?? budget, budget) };
    return this.runLocal({ task: planTask, role: { ...role, type }, prompt: task.prompt, isolate: false, signal: ctx.signal }, ctx, task.sharedLimit);
  }

  /** A dispatched task; what it spent elsewhere joins the session's bill as a local child's does. */
  private async runRemote(dispatch: PlanDispatch, request: ChildRequest, context: DispatchContext): Promise<ChildReport> {
    const report = await dispatch.runChild(request, context);
    if (report.costUsd > 0 || report.tokens.prompt > 0 || report.tokens.completion > 0) {
      const bill = new CostTracker();
      const usage = { inputTokens: report.tokens.prompt, outputTokens: report.tokens.completion, cacheReadTokens: report.tokens.cache_hit, cacheWriteTokens: 0 };
      bill.record({ usage, costUsd: report.costUsd, costKnown: report.costKnown ?? true, model: 'fleet' });
      this.options.parent().tracker.adoptChild(bill);
    }
    return report;
  }

  private runLocal(request: ChildRequest, ctx: ToolContext, sharedLimit?: SharedLimit): Promise<ChildReport> {
    return this.options.subagents.run(
      {
        description: `${request.task.id}: ${headline(request.task.task)}`,
        prompt: request.prompt,
        type: request.role.type,
        isolation: request.isolate ? 'worktree' : 'none',
        waitForSlot: true,
        keepWorktree: request.isolate,
        label: request.task.id,
        ...(sharedLimit ? { sharedLimit } : {}),
      },
      this.options.parent(),
      { ...ctx, signal: request.signal },
    );
  }
}

/** The plan's git side on the tree its caller works in: the project, or the worktree it entered
 * (editors then start from that worktree's HEAD and merge back into it, never into the project). */
function treeTracking(worktrees: WorktreeManager, tree: string, guard: MergeGuard): ChangeTracking {
  return {
    snapshotTree: (dir) => worktrees.snapshotTree(dir ?? tree),
    diffTrees: (from, to, maxBytes) => worktrees.diffTrees(from, to, maxBytes),
    // An editor's merge brings no file the session's rules deny or protect (policy/write-guard.ts).
    cleanup: (path, ifDirty) => worktrees.cleanup(path, ifDirty, { into: tree, guard }),
    treeChanges: () => worktrees.treeChanges(tree),
  };
}

function rejected(text: string): OrchestrationRun {
  return { result: { content: `[delegate_tasks: rejected] ${text}`, isError: true } };
}

/** A task's first line, short enough for a subagent description. */
function headline(task: string): string {
  const line = task.split('\n')[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
