/**
 * A fleet worker: takes jobs from the queue (at most `concurrency` at once, under the queue's
 * shared rate limit), checks each one (seek version, the run's caps), prepares a clean checkout,
 * runs the task in a session opened there exactly as a local plan task runs (role, permission
 * mode, sandbox, turn budget) with this machine's own provider credentials, and returns the
 * result; an editor's changes are published as a commit. Usage is counted in Redis call by call.
 * A plan task (a job of a flow) first merges its dependencies' heads and builds its prompt from
 * their results (inputs.ts); a reference job, a cancelled run's job and one without a free
 * `--max-jobs` slot are handled by the gates (gates.ts); the coordinator's cancel aborts a running
 * job (cancel.ts), which then fails "cancelled" without a retry.
 * Every model request passes the provider rate limit shared by all workers (provider-limit.ts);
 * the run's caps reach a running job as a wrap-up notice (a shared limit asked before each
 * request); leftover checkouts, transcripts and mirrors are swept between jobs (retention.ts).
 * Nothing in a job's checkout is trusted: the worker's git there names its repository and stops
 * when the job changed the checkout's git pointers (checkout-guard.ts), failing the job.
 * A job whose lock was lost (Redis unreachable for longer than the lock, so another worker may
 * run it again) publishes nothing: the lock is renewed (proving it is still held) right before
 * the commit is pushed, and a failed renewal aborts the attempt at once (lock.ts).
 * `close()` stops taking jobs, gives the running ones a grace to finish, then aborts them (they go
 * back to the queue) and force-closes the connections, so a worker stops within seconds in every
 * state, a Redis outage included.
 */
import { hostname } from 'node:os';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { seekHome } from '../config/paths.js';
import { isCostKnown } from '../cost/tracker.js';
import { openSession } from '../runtime/session.js';
import { killBackgroundJobs } from '../tools/index.js';
import type { ChildReport } from '../subagents/child-report.js';
import { SEEK_VERSION } from '../util/version.js';
import { CancelListener } from './cancel.js';
import { Checkouts } from './checkout.js';
import { CheckoutChanged } from './checkout-guard.js';
import { fleetTimings, QUEUE_NAME, connectionOptions, type FleetTimings } from './connection.js';
import { CANCELLED, refuseCancelled, Waits } from './gates.js';
import { planOutputs, prepareInputs } from './inputs.js';
import { jobSchema, refSchema, type FleetJob, type FleetResult } from './payload.js';
import { LockLost, LockWatch } from './lock.js';
import { within, type ConnectionWatch } from './outage.js';
import { answered, sharedProviderLimit, type ProviderLimit } from './provider-limit.js';
import { DEFAULT_KEEP_DAYS, workerRetention } from './retention.js';
import { addUsage, capNotice, capReached, recordAttemptError, runSpend } from './spend.js';

export interface FleetWorkerOptions {
  url: string;
  /** A connected client for the worker's own bookkeeping. */
  redis: Redis;
  concurrency: number;
  workdir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Job starts per `durationMs` across every worker of the queue (BullMQ's limiter). */
  rateLimit?: { max: number; durationMs: number };
  /** Model requests per window and in flight per provider endpoint, across every worker (provider-limit.ts). */
  providerLimit?: ProviderLimit;
  /** Leftover checkouts, job transcripts and unused mirrors older than this are removed (retention.ts). */
  keepMs?: number;
  /** Lock, stalled-check and stall-count settings from flags (over the environment's). */
  timings?: Partial<Pick<FleetTimings, 'lockMs' | 'stalledMs' | 'maxStalled'>>;
  /** Says when Redis is lost and back; BullMQ's error events go to it. */
  watch: ConnectionWatch;
  log: (line: string) => void;
}

/** How long running jobs may take to finish after SIGTERM before they are aborted (default). */
export const STOP_GRACE_MS = 5_000;
/** Why a running job was aborted when the worker stopped: it goes back to the queue. */
const SHUTDOWN = 'worker stopping';

/** What the queue's progress of a job says (the batch table shows it). */
export interface JobProgressInfo {
  worker: string;
  phase: 'checkout' | 'running' | 'publishing';
  attempt: number;
}

export function versionRefusal(jobVersion: string): string {
  return `this job was made by seek ${jobVersion} and this worker runs seek ${SEEK_VERSION}; a coordinator and its workers must run the same seek version (upgrade one side)`;
}

export interface RunningWorker {
  worker: Worker;
  name: string;
  timings: FleetTimings;
  listening: Promise<void>;
  /** Stops taking jobs; running ones get `graceMs` to finish, then are aborted. True when
   * everything closed in time, false when connections were forced shut. */
  close(graceMs?: number): Promise<boolean>;
}

export function startWorker(options: FleetWorkerOptions): RunningWorker {
  const name = `${hostname()}:${process.pid}`;
  const timings = { ...fleetTimings(options.env), ...options.timings };
  const checkouts = new Checkouts(options.workdir, options.log);
  const queueForWaits = (): Queue => {
    const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(options.url) });
    queue.on('error', options.watch.onError);
    return queue;
  };
  const waits = new Waits(queueForWaits, options.redis, { minMs: timings.pollMs, maxMs: timings.pollMaxMs });
  const cancels = new CancelListener(() => worker);
  const locks = new LockWatch(() => worker, options.log);
  let running = 0; // sessions open in this process
  let processing = 0; // jobs in the processor
  const retention = workerRetention({
    checkouts,
    seekHome: seekHome(options.env),
    keepMs: options.keepMs ?? DEFAULT_KEEP_DAYS * 24 * 3600_000,
    everyMs: timings.sweepMs,
    log: options.log,
  });
  const requestGate = options.providerLimit ? sharedProviderLimit(options.redis, options.providerLimit, options.log) : undefined;
  const processor = async (job: Job, token?: string, signal?: AbortSignal): Promise<FleetResult> => {
    const jobId = job.id!;
    if (typeof (job.data as { ref?: unknown } | undefined)?.ref === 'string') {
      const ref = refSchema.safeParse(job.data);
      if (!ref.success) throw new UnrecoverableError('malformed reference job');
      if (ref.data.seekVersion !== SEEK_VERSION) throw new UnrecoverableError(versionRefusal(ref.data.seekVersion));
      return (await waits.resolve(job, token, ref.data)) as FleetResult;
    }
    const attempt = job.attemptsStarted;
    const runId = String((job.data as { runId?: unknown } | undefined)?.runId ?? '');
    processing++;
    locks.track(jobId, attempt);
    try {
      return await cancels.around(jobId, runId, () => runJob(job, attempt, token, signal ?? new AbortController().signal));
    } catch (caught) {
      if (caught instanceof DelayedError) throw caught;
      // Another attempt owns the job now: nothing of this one is recorded as the job's failure.
      if (caught instanceof LockLost || locks.isLost(jobId)) throw locks.lost(jobId);
      if (signal?.aborted && signal.reason === SHUTDOWN) {
        options.log(`job ${jobId} attempt ${attempt} stopped: the worker is stopping; the job goes back to the queue`);
        throw new Error(`attempt ${attempt} on ${name} was stopped: its worker was stopped (SIGTERM)`);
      }
      // Cancelled by the coordinator: failed for good, whatever the task's own ending said. A job
      // that changed its checkout's git pointers too: another attempt would run the same task.
      const error =
        signal?.aborted && signal.reason === CANCELLED
          ? new UnrecoverableError(CANCELLED)
          : caught instanceof CheckoutChanged
            ? new UnrecoverableError(caught.message)
            : (caught as Error);
      const text = `attempt ${attempt} on ${name}: ${error.message}`;
      await recordAttemptError(options.redis, jobId, text).catch(() => undefined);
      options.log(`job ${jobId} failed: ${text}`);
      throw error;
    } finally {
      processing--;
      locks.untrack(jobId);
      retention.afterJob();
    }
  };

  const runJob = async (job: Job, attempt: number, token: string | undefined, signal: AbortSignal): Promise<FleetResult> => {
    const parsed = jobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`malformed job (is the coordinator another seek version?): ${parsed.error.issues[0]?.message ?? ''}`);
    const data = parsed.data;
    if (data.seekVersion !== SEEK_VERSION) throw new UnrecoverableError(versionRefusal(data.seekVersion));
    await refuseCancelled(options.redis, data.runId, job.id!);
    const { maxJobs } = data.limits;
    if (maxJobs !== undefined) {
      const wait = await waits.takeSlot(job, token, data.runId, maxJobs);
      if (wait) throw wait;
    }
    try {
      return await runTaken(job, data, attempt, token, signal);
    } finally {
      if (maxJobs !== undefined) await waits.releaseSlot(data.runId, job.id!);
    }
  };

  const runTaken = async (job: Job, data: FleetJob, attempt: number, token: string | undefined, signal: AbortSignal): Promise<FleetResult> => {
    const spent = await runSpend(options.redis, data.runId);
    const cap = capReached(spent, data.limits);
    if (cap) throw new UnrecoverableError(`not started: ${cap}`);
    // What is left of the run's token cap bounds this job like a child's own budget would.
    const budgetTokens = data.limits.tokenCap === undefined ? undefined : data.limits.tokenCap - spent.prompt - spent.completion;
    const progress = (phase: JobProgressInfo['phase']): Promise<void> => job.updateProgress({ worker: name, phase, attempt } satisfies JobProgressInfo);
    await progress('checkout');
    options.log(`job ${job.id} (${data.taskId}, ${data.role}) attempt ${attempt}: checking out`);
    const checkout = await checkouts.prepare(data.repo.url, data.repo.base, job.id!, attempt);
    try {
      // A plan task starts from its dependencies' changes, its prompt built from their results.
      const inputs = data.plan ? await prepareInputs(job, data.plan, data.repo.url, checkout) : undefined;
      await progress('running');
      const report = await runTask({ ...data, prompt: inputs?.prompt ?? data.prompt }, checkout.dir, job.id!, signal, budgetTokens);
      if (report.status !== 'completed') {
        const hint = report.result.content.split('\n')[0] ?? '';
        // Out of budget: another attempt would only spend more.
        if (report.reason === 'budget_exceeded') throw new UnrecoverableError(`task ${data.taskId} failed (budget_exceeded): ${hint}`);
        throw new Error(`task ${data.taskId} ${report.status}${report.reason ? ` (${report.reason})` : ''}: ${hint}`);
      }
      await progress('publishing');
      // Still this attempt's job? A lost lock means another attempt may run (or have run) the
      // task: this one pushes nothing, so a task's work is published by one attempt only.
      if (token !== undefined && (await job.extendLock(token, timings.lockMs)) !== 1) throw locks.lost(job.id!);
      const commit = data.writes ? await checkouts.publish(checkout, data.repo.url, data.resultBranch, `seek: ${data.taskId} (${data.role})\n\n${firstLine(data.prompt)}`) : undefined;
      const outputs = data.plan ? await planOutputs(checkout, data.repo.url, job.id!, data.taskId, inputs!.base, commit, data.writes) : {};
      options.log(`job ${job.id} completed${commit ? ` (${commit.pushed ? `pushed ${commit.branch}` : 'bundle'})` : ''}`);
      return {
        status: 'completed',
        ...(report.summary !== undefined ? { summary: report.summary } : {}),
        turns: report.turns,
        modelCalls: report.modelCalls,
        toolCalls: report.toolCalls,
        tokens: { ...report.tokens },
        costUsd: report.costUsd,
        ...(report.costKnown === false ? { costKnown: false } : {}),
        worker: name,
        base: inputs?.base ?? checkout.base,
        ...(commit ? { commit } : {}),
        ...outputs,
      };
    } finally {
      await checkouts.remove(checkout);
    }
  };

  /** A session in the checkout, this machine's provider settings, the coordinator's mode. */
  const runTask = async (data: FleetJob, cwd: string, jobId: string, signal: AbortSignal, budgetTokens: number | undefined): Promise<ChildReport> => {
    const session = await openSession({
      cwd,
      env: options.env,
      interactive: false,
      maxTurns: data.limits.maxTurns,
      save: true,
      ...(requestGate ? { requestGate } : {}),
      ...(data.mode === 'yolo' ? { yolo: true } : data.mode === 'auto' ? { auto: true } : {}),
    });
    running++;
    const counting: Array<Promise<void>> = [];
    const unsubscribe = session.subscribe((event) => {
      if (event.type !== 'subagent_event' || event.event.type !== 'usage') return;
      const { usage, costUsd, model } = event.event;
      const priced = isCostKnown(costUsd, model);
      counting.push(
        addUsage(options.redis, data.runId, jobId, { costUsd, priced, prompt: usage.inputTokens, completion: usage.outputTokens, cacheHit: usage.cacheReadTokens }).catch(
          (error: unknown) => options.log(`could not count usage of job ${jobId}: ${(error as Error).message}`),
        ),
      );
    });
    // The run's caps count every job on every worker: checked in Redis before each model request.
    const capped = data.limits.costCapUsd !== undefined || data.limits.tokenCap !== undefined;
    const sharedLimit = { reached: async () => capNotice(await answered(runSpend(options.redis, data.runId)), data.limits) };
    try {
      return await session.runTask({ id: data.taskId, role: data.role, prompt: data.prompt, ...(capped ? { sharedLimit } : {}), ...(budgetTokens !== undefined ? { budgetTokens } : {}) }, signal);
    } finally {
      unsubscribe();
      // Background commands are process-wide: they end when no other job of this worker runs.
      await session.close({ keepBackgroundJobs: true }).catch(() => undefined);
      if (--running === 0) killBackgroundJobs();
      await Promise.all(counting);
    }
  };

  const worker = new Worker(QUEUE_NAME, processor, {
    connection: connectionOptions(options.url),
    concurrency: options.concurrency,
    lockDuration: timings.lockMs,
    stalledInterval: timings.stalledMs,
    // A killed worker's job goes back to the queue; stalls count like failed attempts.
    maxStalledCount: timings.maxStalled,
    // An idle slot asks for work at least this often (seconds): a wake-up missed while every slot
    // was busy costs at most this much, not BullMQ's default 5 s.
    drainDelay: 1,
    ...(options.rateLimit ? { limiter: { max: options.rateLimit.max, duration: options.rateLimit.durationMs } } : {}),
  });
  // A lost lock is reported once by `locks` (and the attempt aborted); BullMQ's later "Missing
  // lock" errors for it are expected. Connection errors are the watch's two lines.
  worker.on('lockRenewalFailed', (jobIds: string[]) => jobIds.forEach((jobId) => locks.lost(jobId)));
  worker.on('error', (error) => {
    if (!locks.explains(error)) options.watch.onError(error);
  });
  worker.on('completed', (job) => void waits.completed(job.id!)); // dependants waiting by reference start now
  const listening = cancels.start(options.redis, options.log);
  return {
    worker,
    name,
    timings,
    listening,
    close: async (graceMs = STOP_GRACE_MS) => {
      // Each step is bounded: while Redis is unreachable BullMQ's close never resolves.
      // Worst case about 7 s with the default grace (5 + 1 + 0.5 + 0.5, then the CLI's 0.5 s quit),
      // under the 10 s contract; an idle worker about 3.5 s.
      // With Redis unreachable a running job cannot end anyway: it is aborted at once.
      const closing = worker.close();
      const grace = processing === 0 ? 2_000 : options.watch.lost ? 0 : graceMs;
      let clean = await within(closing, grace);
      if (!clean && processing > 0) {
        options.log(`stopping now: aborting ${processing} running job${processing === 1 ? '' : 's'} (they go back to the queue)`);
        worker.cancelAllJobs(SHUTDOWN);
        clean = await within(closing, 1_000);
      }
      if (!clean) await within(worker.close(true), 500);
      clean = (await within(Promise.allSettled([cancels.close(), waits.close(), retention.close()]), 500)) && clean;
      if (running > 0) killBackgroundJobs();
      return clean;
    },
  };
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '' && !candidate.startsWith('#')) ?? '';
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}
