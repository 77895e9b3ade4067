/**
 * What a run and each of its jobs have spent so far, kept in Redis as workers go (every model
 * call's usage, as it is billed), so a worker killed mid-job still leaves its cost counted, a
 * retry's result adds what the earlier attempts spent, and every worker and the coordinator see
 * the same total when they check the run's caps.
 */
import type { Redis } from 'ioredis';
import { KEY_PREFIX } from './connection.js';

const KEEP_SECONDS = 7 * 24 * 3600;

export interface Spend {
  costUsd: number;
  prompt: number;
  completion: number;
  cacheHit: number;
  modelCalls: number;
  /** Model calls billed by a model without a known price: the cost is then unknown (`cost_known:
   * false`, `total_cost_usd: null`, as a local run reports it), `costUsd` only a lower bound. */
  unpriced: number;
}

const runKey = (runId: string): string => `${KEY_PREFIX}:run:${runId}`;
const jobKey = (jobId: string): string => `${KEY_PREFIX}:job:${jobId}`;

/** Adds one model call's usage to its job and its run (`priced` false: its model has no price). */
export async function addUsage(redis: Redis, runId: string, jobId: string, usage: Omit<Spend, 'modelCalls' | 'unpriced'> & { priced: boolean }): Promise<void> {
  const multi = redis.multi();
  for (const key of [runKey(runId), jobKey(jobId)]) {
    multi.hincrbyfloat(key, 'costUsd', usage.costUsd);
    multi.hincrby(key, 'prompt', usage.prompt);
    multi.hincrby(key, 'completion', usage.completion);
    multi.hincrby(key, 'cacheHit', usage.cacheHit);
    multi.hincrby(key, 'modelCalls', 1);
    if (!usage.priced) multi.hincrby(key, 'unpriced', 1);
    multi.expire(key, KEEP_SECONDS);
  }
  await multi.exec();
}

export async function runSpend(redis: Redis, runId: string): Promise<Spend> {
  return spendOf(await redis.hgetall(runKey(runId)));
}

export async function jobSpend(redis: Redis, jobId: string): Promise<Spend> {
  return spendOf(await redis.hgetall(jobKey(jobId)));
}

/** Forgets a job's spend (a job run again from scratch after a failed run; the run keeps it). */
export async function resetJobSpend(redis: Redis, jobId: string): Promise<void> {
  await redis.del(jobKey(jobId));
}

export interface CapLimits {
  costCapUsd?: number | undefined;
  tokenCap?: number | undefined;
}

/** The first cap the run's spend has reached (the dollar cap before the token cap), or undefined. */
export interface CapHit {
  kind: 'dollar' | 'token';
  limit: number;
  spent: number;
}

export function capHit(spend: Spend, limits: CapLimits): CapHit | undefined {
  if (limits.costCapUsd !== undefined && spend.costUsd >= limits.costCapUsd) return { kind: 'dollar', limit: limits.costCapUsd, spent: spend.costUsd };
  const tokens = spend.prompt + spend.completion;
  if (limits.tokenCap !== undefined && tokens >= limits.tokenCap) return { kind: 'token', limit: limits.tokenCap, spent: tokens };
  return undefined;
}

/** Dollars to the tenth of a cent, or to the millionth below a cent (test and trial runs). */
const dollars = (value: number): string => `$${value.toFixed(Math.abs(value) >= 0.01 ? 4 : 6)}`;
const amount = (hit: CapHit, value: number): string => (hit.kind === 'dollar' ? dollars(value) : `${value} tokens`);
const limitText = (hit: CapHit): string => (hit.kind === 'dollar' ? dollars(hit.limit) : `${hit.limit}`);

/** Whether the run's spend has reached a cap; the sentence saying which, or undefined. */
export function capReached(spend: Spend, limits: CapLimits): string | undefined {
  const hit = capHit(spend, limits);
  if (!hit) return undefined;
  return hit.kind === 'dollar'
    ? `the run's dollar cap is reached (${amount(hit, hit.spent)} spent of ${limitText(hit)}); no new job starts`
    : `the run's token cap is reached (${hit.spent} tokens of ${hit.limit}); no new job starts`;
}

/** The wrap-up notice a running job gets once the run (every job of it, on every worker) reached a cap. */
export function capNotice(spend: Spend, limits: CapLimits): string | undefined {
  const hit = capHit(spend, limits);
  if (!hit) return undefined;
  return `The ${hit.kind} cap of this fleet run is reached (${amount(hit, hit.spent)} spent by all its jobs, of ${limitText(hit)}); no new job of the run starts`;
}

/** For the run's report: which cap stopped the run and by how much its spend went past it (what
 * running jobs spent between the cap being reached and their wrap-up), or undefined. */
export function capOvershoot(spend: Spend, limits: CapLimits): string | undefined {
  const hit = capHit(spend, limits);
  if (!hit) return undefined;
  const over = hit.spent - hit.limit;
  const share = hit.limit > 0 ? ` (${((over / hit.limit) * 100).toFixed(1)}%)` : '';
  return `the run's ${hit.kind} cap of ${limitText(hit)} stopped it: ${amount(hit, hit.spent)} spent, ${amount(hit, over)}${share} over the cap`;
}

function spendOf(hash: Record<string, string>): Spend {
  const number = (key: string): number => Number(hash[key] ?? 0) || 0;
  return { costUsd: number('costUsd'), prompt: number('prompt'), completion: number('completion'), cacheHit: number('cacheHit'), modelCalls: number('modelCalls'), unpriced: number('unpriced') };
}

const errorsKey = (jobId: string): string => `${KEY_PREFIX}:job:${jobId}:errors`;

/** Records why one attempt of a job failed (every attempt's error is reported with the job). */
export async function recordAttemptError(redis: Redis, jobId: string, text: string): Promise<void> {
  await redis.multi().rpush(errorsKey(jobId), text).expire(errorsKey(jobId), KEEP_SECONDS).exec();
}

export async function attemptErrors(redis: Redis, jobId: string): Promise<string[]> {
  return redis.lrange(errorsKey(jobId), 0, -1);
}

export async function resetAttemptErrors(redis: Redis, jobId: string): Promise<void> {
  await redis.del(errorsKey(jobId));
}
