import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { findProjectRoot, seekHome } from '../../config/paths.js';
import { closeSession } from '../close-session.js';
import { PlainInteractive } from '../../frontends/plain-interactive.js';
import { createRenderer } from '../../frontends/renderer.js';
import { checkPlanFile, PlanFileError, readPlanFile, type PlanFile } from '../../orchestrator/plan-file.js';
import { describePlan, reviewRequest } from '../../orchestrator/review.js';
import { roleCatalog } from '../../orchestrator/roles.js';
import type { Plan } from '../../orchestrator/types.js';
import type { FleetDispatcher } from '../../fleet/dispatcher.js';
import { openSession, type AgentSession } from '../../runtime/session.js';
import { loadSubagentTypes } from '../../subagents/definitions.js';
import type { RootOptions } from '../root-options.js';
import { addSessionFlags, sessionOptionsFrom } from '../session-options.js';
import { onWriteFailure } from '../standard-output.js';

interface RunOptions {
  print?: boolean;
  outputFormat: 'text' | 'json' | 'stream-json';
  yolo?: boolean;
  model?: string;
  provider?: RootOptions['provider'];
  baseUrl?: string;
  maxTurns: number;
  resume?: string;
  save: boolean;
  verbose?: boolean;
  dryRun?: boolean;
  auto?: boolean;
  queue?: string;
  repo?: string;
  maxJobs?: number;
  maxCost?: number;
  maxTokens?: number;
  rerunCancelled?: boolean;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}


/**
 * `seek run PLAN.yaml`: runs a plan file (goal + tasks, the delegate_tasks schema) as a session's
 * delegate_tasks call, with no model turn at the top. In a terminal (without -p, --yolo or a JSON
 * format) the plan is shown for review and actions that need approval are asked; otherwise it runs
 * headless like `seek -p`. Exit 0 when every task completed, 1 otherwise (or an invalid plan file),
 * 2 for bad usage. `--resume SID` continues an interrupted run without redoing completed tasks.
 * `--dry-run` only checks the plan and prints it with what runs together (CI can check plan files).
 */
export function createRunCommand(): Command {
  const command = new Command('run')
    .description('run a declared orchestration plan (a YAML file with goal and tasks)')
    .argument('<plan>', 'the plan file')
    .option('-p, --print', 'headless even in a terminal: no review, approvals denied unless --yolo')
    .option('--dry-run', 'check the plan and show what would run in parallel, then exit (no session, no model call)')
    .option('--queue <url>', 'run the tasks on fleet workers (seek worker) through this Redis: redis://[user:pass@]host:port, rediss:// for TLS')
    .option('--repo <url>', 'with --queue: the repository workers fetch and push to (default: the origin remote)')
    .option('--max-jobs <n>', 'with --queue: at most this many of the run\'s jobs running at once', (v) => Math.ceil(positiveNumber(v)))
    .option('--rerun-cancelled', 'with --queue --resume: run again the tasks a cancelled run left undone (without it they stay cancelled)')
    .option('--max-cost <usd>', 'with --queue: no new job starts once the run has spent this many dollars', positiveNumber)
    .option('--max-tokens <n>', 'with --queue: no new job starts once the run has used this many tokens', (v) => Math.ceil(positiveNumber(v)));
  // --resume continues the session of an interrupted run; --model is the subagents' model.
  return addSessionFlags(command).action(async (path: string, options: RunOptions) => {
      process.exitCode = await runPlanFile(path, options);
    });
}

async function runPlanFile(path: string, options: RunOptions): Promise<number> {
  let file: PlanFile;
  let plan: Plan;
  try {
    file = await readPlanFile(path);
    plan = await validate(file);
  } catch (error) {
    if (!(error instanceof PlanFileError)) throw error;
    process.stderr.write(`${error.problems.map((line) => `seek: ${line}`).join('\n')}\n`);
    return 1;
  }
  if (options.dryRun) {
    // Writers get worktrees only inside git, as when the plan runs.
    const isolated = plan.concurrentWriters && existsSync(join(findProjectRoot(process.cwd()), '.git'));
    const lines = describePlan(reviewRequest(plan, isolated, [], () => {
      throw new Error('a dry run is not edited');
    }));
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  }
  const interactive = options.print !== true && options.yolo !== true && options.outputFormat === 'text' && Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const root: RootOptions = { ...options, print: !interactive };
  const ui: { plain?: PlainInteractive } = {};
  let fleet: Fleet | undefined;
  if (options.queue) {
    const opened = await openFleet(options);
    if (typeof opened === 'string') {
      process.stderr.write(`seek: ${opened}\n`);
      return 1;
    }
    fleet = opened;
  }
  const session = await openSession(
    sessionOptionsFrom(root, {
      interactive,
      ...(fleet ? { dispatch: fleet.dispatcher } : {}),
      ...(interactive
        ? {
            ask: async (request) => (ui.plain ? ui.plain.ask(request) : 'no'),
            reviewPlan: async (request) => (ui.plain ? ui.plain.reviewPlan(request) : { kind: 'reject' }),
          }
        : {}),
    }),
  );
  if (fleet) fleet.dispatcher.sessionId = session.id;
  const renderer = createRenderer(options.outputFormat, { verbose: options.verbose === true });
  if (interactive) ui.plain = new PlainInteractive(session, process.stdin, process.stdout);
  else session.subscribe((event) => renderer.onEvent(event));
  const controller = new AbortController();
  const onSignal = (): void => {
    controller.abort();
    fleet?.stopping(); // a fleet run ends within 10 s of the signal, a Redis outage included
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stopWatchingOutput = onWriteFailure(process.stdout, onSignal); // nobody reads the rest
  try {
    const summary = await session.runPlan({ source: relative(process.cwd(), file.path) || file.path, goal: file.goal, tasks: file.tasks }, controller.signal);
    const code = renderer.finish(summary);
    for (const line of (await fleet?.capReports()) ?? []) process.stderr.write(`seek: ${line}\n`);
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopWatchingOutput();
    ui.plain?.close();
    await closeQuietly(session);
    await fleet?.close();
  }
}

interface Fleet {
  dispatcher: FleetDispatcher;
  /** Which cap stopped the run and by how much it was exceeded (none when no cap was reached). */
  capReports(): Promise<string[]>;
  /** The run was told to stop: it exits within 10 s, whatever still hangs (outage.ts exitAfter). */
  stopping(): void;
  close(): Promise<void>;
}

/** The dispatcher of `--queue`, or the sentence saying why there is none. */
async function openFleet(options: RunOptions): Promise<Fleet | string> {
  const { connectChecked, FleetError } = await import('../../fleet/connection.js');
  const { FleetDispatcher } = await import('../../fleet/dispatcher.js');
  const { FleetJobs } = await import('../../fleet/jobs.js');
  const { exitAfter, within } = await import('../../fleet/outage.js');
  const repoUrl = options.repo ?? originUrl(findProjectRoot(process.cwd()));
  if (!repoUrl) return '--queue needs the repository workers fetch and push to: give --repo URL, or add an origin remote';
  try {
    const redis = await connectChecked(options.queue!);
    const limits = { ...(options.maxCost ? { costCapUsd: options.maxCost } : {}), ...(options.maxTokens ? { tokenCap: options.maxTokens } : {}) };
    const jobs = new FleetJobs({ url: options.queue!, redis, limits, env: process.env });
    await jobs.ready();
    const dispatcher = new FleetDispatcher({
      jobs,
      repoUrl,
      mode: options.yolo ? 'yolo' : options.auto ? 'auto' : 'ask',
      maxTurns: options.maxTurns,
      limits,
      ...(options.maxJobs ? { maxJobs: options.maxJobs } : {}),
      ...(options.rerunCancelled ? { rerunCancelled: true } : {}),
    });
    return {
      dispatcher,
      capReports: () => jobs.capReports(),
      stopping: () => void exitAfter(10_000, (line) => void process.stderr.write(`seek: ${line}\n`)),
      close: async () => {
        await jobs.close();
        if (!(await within(redis.quit(), jobs.patience(1_000)))) redis.disconnect();
      },
    };
  } catch (error) {
    if (error instanceof FleetError) return error.message;
    throw error;
  }
}

function originUrl(root: string): string | undefined {
  try {
    return execFileSync('git', ['remote', 'get-url', 'origin'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The file's and the plan's problems (roles of this project included), all at once, before any
 * session or request. */
async function validate(file: PlanFile): Promise<Plan> {
  const projectRoot = findProjectRoot(process.cwd());
  const { types } = await loadSubagentTypes({ projectRoot, seekHome: seekHome(process.env), ...(process.env.HOME ? { home: process.env.HOME } : {}) });
  const catalog = roleCatalog(types);
  return checkPlanFile(file, catalog.resolve, catalog.names);
}

async function closeQuietly(session: AgentSession): Promise<void> {
  try {
    await closeSession(session);
  } catch {
    // the run's outcome is already decided
  }
}
