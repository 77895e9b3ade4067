/**
 * A provider's rate limit shared by every worker of a fleet: at most `requests` model requests in
 * any `windowMs` (a sliding-window log) and at most `concurrent` requests in flight, per provider
 * endpoint (provider name and base URL), counted in Redis by atomic Lua scripts on Redis's own
 * clock, so workers on machines with skewed clocks still agree. Every attempt of every request of
 * a job's session passes it (see providers/gated.ts), retries included. A 429 from the provider
 * pauses the endpoint for every worker, for its retry-after (1 s without one). A slot in flight is
 * a lease renewed while the request runs, so a killed worker's slots come back on their own.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ProviderError, RequestGate, RequestGateFor } from '../providers/types.js';
import { KEY_PREFIX } from './connection.js';

export interface ProviderLimit {
  /** Requests per window, across every worker. */
  requests?: { max: number; windowMs: number };
  /** Requests in flight at once, across every worker. */
  concurrent?: number;
}

/** How long the endpoint pauses after a 429 without retry-after. */
export const DEFAULT_429_PAUSE_MS = 1_000;
/** A slot in flight expires this long after its last renewal (a worker killed mid-request). */
const LEASE_MS = 60_000;
/** Longest single wait between two tries for a slot (a freed concurrent slot is seen this fast). */
const MAX_POLL_MS = 250;
/** A Redis that does not answer within this long (down, restarting) lets the request go. */
export const REDIS_ANSWER_MS = 5_000;

// KEYS: window log (zset), slots in flight (zset), pause-until (string).
// ARGV: max per window (0: none), window ms, max in flight (0: none), lease ms, member.
// Returns 0 when the request may go (recorded), else how many ms to wait before asking again.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local perWindow, window, inFlight, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local pausedUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
if pausedUntil > now then return pausedUntil - now end
local wait = 0
if perWindow > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
  if redis.call('ZCARD', KEYS[1]) >= perWindow then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    wait = math.max(1, tonumber(oldest[2]) + window - now)
  end
end
if inFlight > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= inFlight then wait = math.max(wait, 20) end
end
if wait > 0 then return wait end
if perWindow > 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[1], window)
end
if inFlight > 0 then
  redis.call('ZADD', KEYS[2], now + lease, ARGV[5])
  redis.call('PEXPIRE', KEYS[2], lease)
end
return 0
`;

// KEYS: slots in flight. ARGV: lease ms, member. Extends a held slot.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 0
`;

// KEYS: pause-until. ARGV: pause ms. Pauses the endpoint until now + pause ms unless it already is for longer.
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pause = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if now + pause > current then redis.call('SET', KEYS[1], now + pause, 'PX', pause) end
return 0
`;

interface LimitCommands {
  seekRateAcquire(starts: string, slots: string, pause: string, perWindow: number, windowMs: number, inFlight: number, leaseMs: number, member: string): Promise<number>;
  seekRateRenew(slots: string, leaseMs: number, member: string): Promise<number>;
  seekRatePause(pause: string, pauseMs: number): Promise<number>;
}

/** The Redis keys of one endpoint; the base URL is hashed (it may name a private host). */
export function endpointKey(provider: string, baseUrl: string | undefined): string {
  const digest = createHash('sha256').update(`${provider} ${baseUrl ?? ''}`).digest('hex').slice(0, 16);
  return `${KEY_PREFIX}:rate:${provider}:${digest}`;
}

/**
 * The gates of a worker's sessions, one per endpoint they use. `redis` is a client of the worker's
 * (its commands are defined on it). `log` hears 429 pauses and a Redis that cannot be asked (the
 * request then goes out: a limit that cannot be read does not stop the fleet's work).
 */
export function sharedProviderLimit(redis: Redis, limit: ProviderLimit, log: (line: string) => void): RequestGateFor {
  const commands = redis as unknown as Redis & LimitCommands;
  redis.defineCommand('seekRateAcquire', { numberOfKeys: 3, lua: ACQUIRE });
  redis.defineCommand('seekRateRenew', { numberOfKeys: 1, lua: RENEW });
  redis.defineCommand('seekRatePause', { numberOfKeys: 1, lua: PAUSE });
  const perWindow = limit.requests?.max ?? 0;
  const windowMs = limit.requests?.windowMs ?? 0;
  const inFlight = limit.concurrent ?? 0;
  const owner = randomBytes(6).toString('hex');
  let sequence = 0;
  let unchecked = false; // said once until Redis answers again
  return ({ provider, baseUrl }) => {
    if (perWindow === 0 && inFlight === 0) return undefined;
    const key = endpointKey(provider, baseUrl);
    const [starts, slots, pause] = [`${key}:starts`, `${key}:slots`, `${key}:pause`];
    const gate: RequestGate = {
      async acquire(signal) {
        const member = `${owner}:${++sequence}`;
        for (;;) {
          if (signal?.aborted) throw new Error('aborted');
          let wait: number;
          try {
            wait = Number(await answered(commands.seekRateAcquire(starts, slots, pause, perWindow, windowMs, inFlight, LEASE_MS, member)));
            unchecked = false;
          } catch (error) {
            if (!unchecked) log(`provider rate limit not checked (Redis: ${(error as Error).message}); requests go out until Redis answers`);
            unchecked = true;
            return () => undefined;
          }
          if (wait <= 0) break;
          await sleep(Math.min(wait, MAX_POLL_MS), signal);
        }
        const renewal = inFlight > 0 ? setInterval(() => void commands.seekRateRenew(slots, LEASE_MS, member).catch(() => undefined), LEASE_MS / 3) : undefined;
        renewal?.unref();
        let released = false;
        return (failure?: ProviderError) => {
          if (released) return;
          released = true;
          if (renewal) clearInterval(renewal);
          if (inFlight > 0) void redis.zrem(slots, member).catch(() => undefined);
          if (failure?.kind === 'rate_limit') {
            const pauseMs = Math.max(1, Math.round(failure.retryAfterMs ?? DEFAULT_429_PAUSE_MS));
            log(`${provider} answered 429: every worker pauses its requests to it for ${pauseMs} ms`);
            void commands.seekRatePause(pause, pauseMs).catch(() => undefined);
          }
        };
      },
    };
    return gate;
  };
}

/** `reply`, or a rejection once Redis took longer than REDIS_ANSWER_MS. */
export async function answered<T>(reply: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([reply, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${REDIS_ANSWER_MS} ms`)), REDIS_ANSWER_MS)))]);
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
