/**
 * Headless "say hello" against the loopback fake model, beside a minimal node:http client that
 * sends the same request (seek's own first request body) to the same server. Rounds interleave
 * every runner, figures are medians, and each is printed as a ratio to the minimal client:
 *
 * - wall: spawn to process exit;
 * - first request: spawn to the request's arrival at the server;
 * - exit after reply: the response's last byte written to process exit;
 * - max RSS: the process's peak resident set (reported by a CommonJS preload, max-rss.cjs, in every runner).
 *
 * seek runs `--no-save` (its V8 code cache warm, as after any earlier run), the same without the
 * code cache (a first start), with stdin an idle open pipe, then saved (the default: a session
 * file and the turn's checkpoint of the git tree, which overlaps the request).
 *
 * `BENCH_BEFORE_BIN=/path/to/old/bin/seek.js` adds another build (a copy of an earlier dist/) to
 * the same rounds, so before and after are measured side by side. Also printed: the first
 * request's bytes, split into tool schemas, system prompt and messages.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedServer } from '../../test/support/scripted-server/index.js';
import { makeProject, SEEK_BIN } from '../../test/support/seek-process.js';
import { tempDir } from '../../test/support/temp-dirs.js';
import { median } from '../stats.js';

const HERE = new URL('.', import.meta.url).pathname;
const PRELOAD = new URL('max-rss.cjs', import.meta.url).pathname;

interface Runner {
  label: string;
  args: (server: ScriptedServer) => string[];
  /** Leave stdin an open, idle pipe (as CI runners and editors do) instead of /dev/null. */
  idleStdin?: boolean;
  /** Added to the environment of this runner's process. */
  env?: Record<string, string>;
}

interface Sample {
  wall: number;
  firstRequest: number;
  exitAfterReply: number;
  maxRssMb: number;
}

const now = () => performance.timeOrigin + performance.now();

async function runOnce(runner: Runner, server: ScriptedServer, cwd: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  server.reset();
  server.enqueue({ text: 'Hello!' });
  const started = now();
  const child = spawn(process.execPath, ['--require', PRELOAD, ...runner.args(server)], {
    cwd,
    env: { ...env, ...runner.env },
    stdio: [runner.idleStdin ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let rss = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => (rss += chunk.toString()));
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(now())));
  const closed = new Promise((resolve) => child.once('close', resolve));
  const exitedAt = await exited;
  await closed;
  child.stdin?.destroy();
  const request = server.requests[0];
  if (server.requests.length !== 1 || !request?.respondedAt || !output.includes('Hello!')) {
    throw new Error(`${runner.label}: expected one answered request and "Hello!" in the output, got ${server.requests.length} requests and: ${output}`);
  }
  return {
    wall: exitedAt - started,
    firstRequest: request.receivedAt - started,
    exitAfterReply: exitedAt - request.respondedAt,
    maxRssMb: Number(rss.trim()) / 1024,
  };
}

export async function sayHello(server: ScriptedServer, rounds: number): Promise<void> {
  const { root, home } = makeProject();
  const env = { PATH: process.env.PATH, HOME: home, SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url, NO_COLOR: '1' };
  const seekArgs = (bin: string) => () => [bin, '-p', 'say hello', '--no-save'];
  // The default: the session is saved and its turn checkpointed (the snapshot overlaps the request).
  const savedArgs = (bin: string) => () => [bin, '-p', 'say hello'];
  const requestFile = join(tempDir('seek-bench-'), 'first-request.json');
  const before = process.env.BENCH_BEFORE_BIN;
  const runners: Runner[] = [
    { label: 'minimal node:http client', args: (s) => [join(HERE, 'minimal-client.mjs'), `${s.url}/chat/completions`, requestFile] },
    { label: 'seek', args: seekArgs(SEEK_BIN) },
    ...(before ? [{ label: 'seek before', args: seekArgs(before) }] : []),
    // A first start (or SEEK_CODE_CACHE=0): the script compiled without the V8 code cache.
    { label: 'seek, no code cache', args: seekArgs(SEEK_BIN), env: { SEEK_CODE_CACHE: '0' } },
    { label: 'seek, idle stdin pipe', args: seekArgs(SEEK_BIN), idleStdin: true },
    ...(before ? [{ label: 'seek before, idle stdin', args: seekArgs(before), idleStdin: true }] : []),
    { label: 'seek, saved', args: savedArgs(SEEK_BIN) },
    ...(before ? [{ label: 'seek before, saved', args: savedArgs(before) }] : []),
  ];

  // A warm-up run of this seek, whose first request becomes the minimal client's request.
  await runOnce(runners[1]!, server, root, env);
  const first = server.requests[0]!;
  writeFileSync(requestFile, first.raw);

  const samples = new Map<Runner, Sample[]>(runners.map((runner) => [runner, []]));
  for (let round = 0; round < rounds; round++) {
    for (const runner of runners) samples.get(runner)!.push(await runOnce(runner, server, root, env));
  }

  const medians = runners.map((runner) => {
    const list = samples.get(runner)!;
    const of = (key: keyof Sample) => median(list.map((sample) => sample[key]));
    return { runner, wall: of('wall'), firstRequest: of('firstRequest'), exitAfterReply: of('exitAfterReply'), maxRssMb: of('maxRssMb') };
  });
  const base = medians[0]!;
  const cell = (value: number, baseline: number, unit: string) =>
    `${value.toFixed(unit === 'MB' ? 0 : 1)} ${unit}${value === baseline ? '' : ` (${(value / baseline).toFixed(2)}x)`}`.padEnd(22);
  console.log(`headless say hello against the loopback fake model (median of ${rounds} interleaved rounds; ratios to the minimal client)`);
  console.log(`  ${''.padEnd(26)}${'wall'.padEnd(22)}${'first request'.padEnd(22)}${'exit after reply'.padEnd(22)}max RSS`);
  for (const row of medians) {
    console.log(
      `  ${row.runner.label.padEnd(26)}${cell(row.wall, base.wall, 'ms')}${cell(row.firstRequest, base.firstRequest, 'ms')}` +
        `${cell(row.exitAfterReply, base.exitAfterReply, 'ms')}${cell(row.maxRssMb, base.maxRssMb, 'MB')}`,
    );
  }
  if (before) console.log(`  (seek before = ${before})`);

  const body = first.body as { messages: Array<{ role: string; content: unknown }>; tools?: unknown };
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  const total = Buffer.byteLength(first.raw);
  const system = body.messages.filter((message) => message.role === 'system');
  const tools = body.tools === undefined ? 0 : bytes(body.tools);
  const systemBytes = system.reduce((sum, message) => sum + bytes(message), 0);
  const messageBytes = body.messages.filter((message) => message.role !== 'system').reduce((sum, message) => sum + bytes(message), 0);
  const count = Array.isArray(body.tools) ? body.tools.length : 0;
  console.log(
    `first request: ${total} bytes = tools ${tools} (${count} tools, ${((100 * tools) / total).toFixed(0)}%) + system ${systemBytes} + messages ${messageBytes} + the rest ${total - tools - systemBytes - messageBytes}`,
  );
}
