/**
 * A real `redis-server` for fleet tests: a free loopback port, a temporary directory (its
 * append-only file with `appendonly`), started and stopped by the test. In CI Redis is required
 * (`.ci/run` installs it): a missing redis-server there is an error, never a skip. Elsewhere (a
 * fresh machine with only Node and git, the README's quick start) the fleet tests are skipped.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { tempDir } from './temp-dirs.js';

/** Whether redis-server can run here. */
export const hasRedis = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

if (!hasRedis && process.env.CI === 'true') {
  throw new Error('CI must run the fleet tests, but redis-server is not installed (.ci/run installs it with apt-get)');
}

export interface RedisHandle {
  url: string;
  port: number;
  dir: string;
  /** A client for test assertions (closed by stop). */
  client: Redis;
  /** Stops the server and waits for it to exit (SIGKILL with `crash`, as a crash would). */
  stop(options?: { crash?: boolean }): Promise<void>;
  /** Starts it again on the same port and directory (the append-only file is read back). */
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(options: { appendonly?: boolean } = {}): Promise<RedisHandle> {
  const dir = tempDir('seek-redis-');
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', options.appendonly ? 'yes' : 'no', '--appendfsync', 'always'];
  let child: ChildProcess | undefined;
  let log = '';
  const launch = async (): Promise<void> => {
    const started = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    started.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const failed = new Promise<never>((_, reject) => {
      started.once('error', (error) => reject(new Error(`redis-server could not start (install it: apt-get install redis-server): ${error.message}`)));
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${log}`)));
    });
    await Promise.race([failed, waitForPing(port)]);
  };
  await launch();
  const client = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  const stop = async (stopOptions: { crash?: boolean } = {}): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(stopOptions.crash ? 'SIGKILL' : 'SIGTERM');
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    client,
    stop: async (stopOptions) => {
      client.disconnect();
      await stop(stopOptions);
    },
    restart: async () => {
      await stop({ crash: true });
      await launch();
    },
  };
}

/** Polls PING until the server answers (it writes its own readiness only to its log). */
async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const probe = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer in 15 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      probe.disconnect();
    }
  }
}
