/**
 * One fleet per end-to-end test file: the scripted model server, a real redis-server (append-only,
 * temporary directory, loopback port) and `seek worker` processes the tests start as they need;
 * everything stopped after the file. Requests are viewed by the plan task they belong to.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import type { RecordedRequest, ScriptedReply } from './scripted-server/index.js';
import { useScriptedServer, type ScriptedSuite } from './scripted-suite.js';
import { makeRepository, startWorker, type WorkerProcess } from './fleet.js';
import { hasRedis, startRedis, type RedisHandle } from './redis-server.js';

export { hasRedis };
import { tempDir } from './temp-dirs.js';

export const USAGE = { input: 1000, output: 100, cacheRead: 600 };
/** The coordinator's key: it must never reach Redis. */
export const API_KEY = 'sk-fleet-coordinator-only-0123456789abcdef';

export interface Req {
  task?: string;
  prompt: string;
  turn: number;
}

export function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Array<{ role: string; content?: string }>;
  const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const task = /^## Your task \(([^,]+), ([^)]+)\)/m.exec(prompt);
  return { ...(task ? { task: task[1] } : {}), prompt, turn: messages.filter((m) => m.role === 'assistant').length };
}

export const write = (path: string, content: string): ScriptedReply => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

export interface FleetSuite {
  readonly suite: ScriptedSuite;
  readonly redis: RedisHandle;
  /** The running workers (tests may stop or add some). */
  readonly workers: WorkerProcess[];
  route(handler: (req: Req) => ScriptedReply): void;
  /** Stops the running workers (SIGTERM) and starts `count` fresh ones. */
  startWorkers(count: number): Promise<void>;
  /** A project: a clone of a new bare repository (its origin), and a SEEK_HOME. */
  project(): { root: string; home: string; bare: string };
  coordinatorEnv(home: string): Record<string, string>;
}

export function useFleet(): FleetSuite {
  const suite = useScriptedServer();
  let redis: RedisHandle | undefined;
  const workers: WorkerProcess[] = [];
  beforeAll(async () => {
    if (hasRedis) redis = await startRedis({ appendonly: true });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await redis?.stop();
  });
  return {
    suite,
    get redis() {
      return redis!;
    },
    workers,
    route: (handler) => void suite.server.setFallback((request) => ({ usage: USAGE, ...handler(view(request)) })),
    startWorkers: async (count) => {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      const env = { DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1' };
      workers.push(...(await Promise.all(Array.from({ length: count }, () => startWorker(redis!.url, env)))));
    },
    project: () => {
      const { bare, clone } = makeRepository();
      return { root: clone, home: tempDir('seek-coordinator-'), bare };
    },
    coordinatorEnv: (home) => ({ ...suite.env(home), DEEPSEEK_API_KEY: API_KEY, SEEK_FLEET_BACKOFF_MS: '50' }),
  };
}
