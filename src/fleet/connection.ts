/**
 * The fleet's queue connection: a Redis URL (`redis://[user:pass@]host:port[/db]`, TLS with
 * `rediss://`) to ioredis clients for BullMQ, the queue's name, and the timing knobs (job locks,
 * stalled-job checks, retry backoff) that tests shorten through the environment. An unreachable
 * Redis is a FleetError saying how to start one.
 */
import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';

/** One queue serves a fleet; its name is namespaced so the Redis can be shared. */
export const QUEUE_NAME = 'seek-fleet';
/** Keys of the fleet's own bookkeeping (spend per run and per job), next to BullMQ's `bull:` keys. */
export const KEY_PREFIX = 'seek:fleet';

export class FleetError extends Error {
  override readonly name = 'FleetError';
}

export interface FleetTimings {
  /** How long a worker's lock on a job lasts without renewal: a killed worker's job is taken back after it. */
  lockMs: number;
  /** How often workers look for jobs whose lock expired. */
  stalledMs: number;
  /** How many times a job may be found stalled (its worker died) before it fails for good. */
  maxStalled: number;
  /** Wait before a failed attempt is retried. */
  backoffMs: number;
  /** Attempts per job (a failure after the last one fails the job). */
  attempts: number;
  /** Least time between a worker's retention sweeps after jobs (retention.ts). */
  sweepMs: number;
  /** How soon a job that must wait (a dependency not done yet, no free slot) is tried again
   * first; the wait doubles each time, up to `pollMaxMs`. */
  pollMs: number;
  pollMaxMs: number;
}

/** Defaults suit real work; SEEK_FLEET_LOCK_MS, SEEK_FLEET_STALLED_MS, SEEK_FLEET_MAX_STALLED,
 * SEEK_FLEET_BACKOFF_MS, SEEK_FLEET_ATTEMPTS, SEEK_FLEET_SWEEP_MS, SEEK_FLEET_POLL_MS and
 * SEEK_FLEET_POLL_MAX_MS override them (tests use short locks to recover killed workers fast, and
 * sweep after every job); `seek worker --lock-duration`, `--stalled-interval` and `--max-stalled`
 * override the first three.
 *
 * Lock 15 s, stalled check every 5 s: a worker renews its locks every lockMs/4 (BullMQ's timer), so
 * a killed worker's lock expires at most 15 s after its death, a stalled check then finds it
 * within two checks (the first marks, the next moves), and another worker takes it back within
 * about 15 + 2 × 5 = 25 s (the contract is 40 s). The price: a Redis outage longer than 15 s loses
 * running jobs' locks; such an attempt then publishes nothing (worker.ts) and another runs it. */
export function fleetTimings(env: Readonly<Record<string, string | undefined>>): FleetTimings {
  const number = (name: string, fallback: number): number => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    lockMs: number('SEEK_FLEET_LOCK_MS', 15_000),
    stalledMs: number('SEEK_FLEET_STALLED_MS', 5_000),
    maxStalled: number('SEEK_FLEET_MAX_STALLED', 3),
    backoffMs: number('SEEK_FLEET_BACKOFF_MS', 5_000),
    attempts: number('SEEK_FLEET_ATTEMPTS', 3),
    sweepMs: number('SEEK_FLEET_SWEEP_MS', 3600_000),
    pollMs: number('SEEK_FLEET_POLL_MS', 500),
    pollMaxMs: number('SEEK_FLEET_POLL_MAX_MS', 15_000),
  };
}

/** Checks the URL's shape; the URL itself (with credentials) is never logged or put in a job. */
export function parseQueueUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FleetError(`--queue: "${redact(url)}" is not a URL; use redis://HOST:PORT, redis://user:pass@HOST:PORT or rediss://… for TLS`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new FleetError(`--queue: unsupported scheme ${parsed.protocol} (use redis:// or rediss:// for TLS)`);
  }
  return parsed;
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/** A client for our own bookkeeping (no per-request retry limit, as BullMQ's clients have). */
export function redisClient(url: string): Redis {
  parseQueueUrl(url);
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, enableOfflineQueue: true });
}

/** Connection options for BullMQ's own clients (options, not a client: BullMQ then closes them). */
export function connectionOptions(url: string): RedisOptions {
  const parsed = parseQueueUrl(url);
  const db = Number(parsed.pathname.replace(/^\//, ''));
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || 6379),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: { servername: parsed.hostname } } : {}),
    maxRetriesPerRequest: null,
  };
}

/**
 * Connects a first client and checks Redis answers, within `timeoutMs`; a FleetError naming the
 * way to start Redis when it does not. The client is returned connected.
 */
export async function connectChecked(url: string, timeoutMs = 5_000): Promise<Redis> {
  const client = redisClient(url);
  client.on('error', () => undefined); // reported below, once
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs))),
    ]);
    return client;
  } catch (error) {
    client.disconnect();
    const why = (error as Error).message;
    throw new FleetError(
      `cannot reach Redis at ${redact(url)} (${why}). Start one with \`redis-server --port ${new URL(url).port || 6379} --appendonly yes\` ` +
        '(package redis-server on Debian/Ubuntu, redis on Fedora/Homebrew), or point --queue at a running one (redis://user:pass@host:port, rediss:// for TLS).',
    );
  } finally {
    clearTimeout(timer);
  }
}
