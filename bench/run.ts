/**
 * seek's benchmarks (`npm run bench`). Prints figures; asserts nothing. Every comparison is made
 * within one run, as a ratio, so machine speed cancels out.
 *
 * 0. headless "say hello" beside a minimal node:http client sending the same request: wall time,
 *    time to the first request, exit after the reply, max RSS, and the first request's bytes
 *    (say-hello/measure.ts; `BENCH_BEFORE_BIN` adds an older build to the same rounds);
 * 1. cold start: `seek --version` and a one-turn `seek -p` beside `node -e ''`;
 * 2. harness time per turn over a 50-turn scripted session: wall time minus the scripted server's
 *    time, counted (a) inside the loop, from the first request's arrival to the last response's end
 *    (what seek does between a response and its next request: parse, run the tool, persist, build
 *    the request), and (b) for the whole process, as the difference between a 50-turn and a 1-turn
 *    run divided by the 49 extra turns (this one also carries start-up noise), and (c) inside the
 *    loop of a warmed process (the session runs in this process; the first sessions warm V8 up);
 * 3. bytes of the first request's fixed part (system prompt + tool schemas);
 * 4. the share of each request's prompt bytes that repeats the previous request's prefix;
 * 5. the 20-turn tool workload beside a minimal node:http agent loop (loop-workload/measure.ts).
 *
 * `BENCH_ONLY=say-hello` runs part 0 alone, `BENCH_ONLY=loop` part 5 alone.
 */
import { spawnSync } from 'node:child_process';
import { SEEK_BIN, makeProject, runSeek } from '../test/support/seek-process.js';
import { canonicalPrompt, commonPrefixBytes, ScriptedServer } from '../test/support/scripted-server/index.js';
import { openSession } from '../src/runtime/session.js';
import { sayHello } from './say-hello/measure.js';
import { loopWorkload } from './loop-workload/measure.js';
import { median } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

function timeCommand(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}

async function coldStart(server: ScriptedServer): Promise<void> {
  const { root, home } = makeProject();
  const env = { PATH: process.env.PATH, HOME: home, SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url };
  const node: number[] = [];
  const version: number[] = [];
  const oneTurn: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    node.push(timeCommand(['-e', '']));
    version.push(timeCommand([SEEK_BIN, '--version']));
    server.enqueue({ text: 'ok' });
    const started = performance.now();
    const run = await runSeek(['-p', 'hi', '--no-save'], { cwd: root, env });
    if (run.code !== 0) throw new Error(`one-turn run failed: ${run.stderr}`);
    oneTurn.push(performance.now() - started);
  }
  const base = median(node);
  console.log(`cold start (median of ${RUNS})`);
  console.log(`  node -e ''            ${base.toFixed(1)} ms`);
  console.log(`  seek --version        ${median(version).toFixed(1)} ms   ${(median(version) / base).toFixed(2)}x node`);
  console.log(`  seek -p (one turn)    ${median(oneTurn).toFixed(1)} ms   ${(median(oneTurn) / base).toFixed(2)}x node`);
}

/** Runs a scripted session of `turns` model turns (turns-1 read_file calls, then an answer). */
async function scriptedSession(server: ScriptedServer, turns: number, root: string, home: string) {
  server.reset();
  for (let i = 0; i < turns - 1; i++) server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: 1 + (i % 3) } }] });
  server.enqueue({ text: 'done' });
  const env = { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url };
  const serverBefore = server.serverTimeMs();
  const started = performance.now();
  const run = await runSeek(['-p', 'read the readme repeatedly'], { cwd: root, env, timeoutMs: 120_000 });
  const wall = performance.now() - started;
  if (run.code !== 0) throw new Error(`${turns}-turn run failed: ${run.stderr}`);
  if (server.requests.length !== turns) throw new Error(`expected ${turns} requests, saw ${server.requests.length}`);
  const requests = server.requests;
  let gaps = 0;
  for (let i = 1; i < requests.length; i++) gaps += requests[i]!.receivedAt - requests[i - 1]!.respondedAt!;
  return { wall, serverMs: server.serverTimeMs() - serverBefore, gaps, prompts: requests.map(canonicalPrompt), first: requests[0]! };
}

async function perTurn(server: ScriptedServer): Promise<void> {
  const { root, home } = makeProject({ 'README.md': '# bench\n\nline two\nline three\n' });
  const samples: number[] = [];
  const inLoop: number[] = [];
  let last: Awaited<ReturnType<typeof scriptedSession>> | undefined;
  for (let i = 0; i < 7; i++) {
    const one = await scriptedSession(server, 1, root, home);
    const fifty = await scriptedSession(server, 50, root, home);
    samples.push((fifty.wall - fifty.serverMs - (one.wall - one.serverMs)) / 49);
    inLoop.push(fifty.gaps / 49);
    last = fifty;
  }
  const list = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
  console.log('harness time per turn over a 50-turn session (median of 7)');
  console.log(`  inside the loop        ${median(inLoop).toFixed(2)} ms   [${list(inLoop)}]`);
  console.log(`  whole process (50 vs 1 turn) ${median(samples).toFixed(2)} ms   [${list(samples)}]`);
  await perTurnWarm(server);

  const body = last!.first.body as { messages: Array<{ role: string; content: string }>; tools: unknown };
  const systemBytes = Buffer.byteLength(body.messages[0]!.content);
  const toolBytes = Buffer.byteLength(JSON.stringify(body.tools));
  console.log(`first request fixed part: ${systemBytes + toolBytes} bytes (system prompt ${systemBytes} + tool schemas ${toolBytes})`);

  const prompts = last!.prompts;
  let extensions = 0;
  const shares: number[] = [];
  for (let i = 1; i < prompts.length; i++) {
    if (prompts[i]!.startsWith(prompts[i - 1]!)) extensions += 1;
    shares.push(commonPrefixBytes(prompts[i - 1]!, prompts[i]!) / Buffer.byteLength(prompts[i]!));
  }
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  console.log(`prefix reuse over ${prompts.length} requests: ${extensions}/${prompts.length - 1} (${((100 * extensions) / (prompts.length - 1)).toFixed(0)}%) extend the previous request byte for byte; share of each request's bytes repeating the previous prefix: min ${(100 * Math.min(...shares)).toFixed(1)}%, mean ${(100 * mean).toFixed(1)}%`);
}

/** (c): the same 50-turn session run in this process, after V8 has warmed up on earlier ones. */
async function perTurnWarm(server: ScriptedServer): Promise<void> {
  const { root, home } = makeProject({ 'README.md': '# bench\n\nline two\nline three\n' });
  const perSession: number[] = [];
  for (let i = 0; i < 10; i++) {
    server.reset();
    for (let t = 0; t < 49; t++) server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md', offset: 1 + (t % 3) } }] });
    server.enqueue({ text: 'done' });
    const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url }, interactive: false, maxTurns: 200 });
    await session.prompt('read the readme repeatedly');
    await session.close();
    const requests = server.requests;
    let gaps = 0;
    for (let r = 1; r < requests.length; r++) gaps += requests[r]!.receivedAt - requests[r - 1]!.respondedAt!;
    perSession.push(gaps / 49);
  }
  const warm = perSession.slice(5);
  console.log(`  warmed process (sessions 6-10) ${median(warm).toFixed(2)} ms   [first sessions: ${perSession.slice(0, 5).map((v) => v.toFixed(2)).join(', ')}; warmed: ${warm.map((v) => v.toFixed(2)).join(', ')}]`);
}

const server = await ScriptedServer.start();
try {
  console.log(`seek benchmarks · node ${process.version} · ${process.platform} ${process.arch}\n`);
  const only = process.env.BENCH_ONLY;
  if (only === 'loop') await loopWorkload(server, 25);
  else await sayHello(server, RUNS);
  if (only === undefined || only === '') {
    console.log('');
    await coldStart(server);
    console.log('');
    await perTurn(server);
    console.log('');
    await loopWorkload(server, 25);
  }
} finally {
  await server.close();
}
