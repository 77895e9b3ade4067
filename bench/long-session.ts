/**
 * A long session (issue 38): `BENCH_TURNS` (default 500) read_file turns from the scripted model,
 * run by seek (the real process, session saved) and by the minimal node:http loop
 * (loop-workload/minimal-loop.mjs) that sends the same requests. Printed, never asserted:
 *  - harness time per turn (a response's last byte to the next request's arrival), the median of
 *    the first 20 turns and of the last 20, and their ratio: does a turn get slower as history grows;
 *  - max RSS of each process (VmHWM from /proc, read at every request and at exit);
 *  - whether every seek request extends the previous one byte for byte (the prefix cache).
 * Each seek build first makes a short warm-up run (one tool call) in the same SEEK_HOME, so the
 * measured run starts with a warm V8 code cache that holds headless runs and the tools, as a user's
 * sessions do after their first few starts (src/launch/code-cache.ts; a run that will write no
 * cache may switch V8's --optimize-for-size on: src/launch/memory-saver.ts).
 * seek runs twice: with V8's default heap sizing (`SEEK_LOW_MEMORY=0`) and as users run it.
 * `npm run bench:long` (`BENCH_TURNS=100` for a quick look; `BENCH_BEFORE_BIN=<older bin/seek.js>`
 * adds an older build to the same run; `BENCH_NODE_FLAGS` passes node flags to the seek runs).
 * Linux only (/proc).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalPrompt, ScriptedServer } from '../test/support/scripted-server/index.js';
import { makeProject, SEEK_BIN } from '../test/support/seek-process.js';
import { tempDir } from '../test/support/temp-dirs.js';
import { median } from './stats.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 500);
const WINDOW = 20;
/** Node flags for the seek runs (BENCH_NODE_FLAGS="--max-semi-space-size=4"), to try V8 settings. */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');
const MINIMAL_LOOP = new URL('loop-workload/minimal-loop.mjs', import.meta.url).pathname;

/** The peak resident set of `pid` so far, in MB (0 once it is gone). */
function peakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function script(server: ScriptedServer, readme: string): void {
  server.reset();
  for (let i = 0; i < TURNS - 1; i++) server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: readme, offset: 1 + (i % 3) } }] });
  server.enqueue({ text: 'done' });
}

interface Run {
  first: number;
  last: number;
  rssMb: number;
}

/** Runs `args`, sampling its peak RSS at every request the server receives and at exit. */
function run(server: ScriptedServer, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let peak = 0;
    const sample = (): void => {
      peak = Math.max(peak, peakRssMb(child.pid!));
    };
    const timer = setInterval(sample, 50);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', () => sample());
    child.on('close', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      const requests = server.requests;
      if (requests.length !== TURNS) return reject(new Error(`expected ${TURNS} requests, saw ${requests.length}`));
      const gaps = requests.slice(1).map((request, i) => request.receivedAt - requests[i]!.respondedAt!);
      resolve({ first: median(gaps.slice(0, WINDOW)), last: median(gaps.slice(-WINDOW)), rssMb: peak });
    });
  });
}

/** One short run of `bin` with a tool call, so the measured run finds a code cache that holds it. */
async function warmUp(server: ScriptedServer, bin: string, readme: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  server.reset();
  server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: readme } }] }, { text: 'done' });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, bin, '-p', 'read the readme', '--no-save'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`warm-up run of ${bin} exited ${code}: ${stderr}`))));
  });
}

const server = await ScriptedServer.start();
try {
  const { root, home } = makeProject({ 'README.md': '# bench\n\nline two\nline three\n' });
  const readme = join(root, 'README.md');
  const env = { PATH: process.env.PATH, HOME: home, SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url };
  const seekRun = async (bin: string, extra: Record<string, string> = {}): Promise<Run> => {
    await warmUp(server, bin, readme, root, env);
    script(server, readme);
    return run(server, [...NODE_FLAGS, bin, '-p', 'read the readme repeatedly', '--max-turns', String(TURNS + 5)], root, { ...env, ...extra });
  };
  const before = process.env.BENCH_BEFORE_BIN ? await seekRun(process.env.BENCH_BEFORE_BIN) : undefined;
  // V8's default heap sizing: what the memory saver (src/launch/memory-saver.ts) saves.
  const defaults = await seekRun(SEEK_BIN, { SEEK_LOW_MEMORY: '0' });
  const seek = await seekRun(SEEK_BIN);
  const prompts = server.requests.map(canonicalPrompt);
  const extending = prompts.filter((prompt, i) => i === 0 || prompt.startsWith(prompts[i - 1]!)).length - 1;
  const bodyFile = join(tempDir('seek-bench-long-'), 'first-request.json');
  writeFileSync(bodyFile, JSON.stringify(server.requests[0]!.body));
  script(server, readme);
  const minimal = await run(server, [MINIMAL_LOOP, `${server.url}/chat/completions`, bodyFile], root, env);
  const row = (name: string, r: Run): string =>
    `  ${name.padEnd(24)} first ${WINDOW} ${r.first.toFixed(2)} ms   last ${WINDOW} ${r.last.toFixed(2)} ms   ${(r.last / r.first).toFixed(2)}x   max RSS ${r.rssMb.toFixed(0)} MB`;
  console.log(`${TURNS}-turn session, harness time per turn (response end to next request; medians); seek with a warm code cache (a warm-up run first)`);
  console.log(row('minimal node:http loop', minimal));
  if (before) console.log(row('seek (BENCH_BEFORE_BIN)', before));
  console.log(row('seek, SEEK_LOW_MEMORY=0', defaults));
  console.log(row('seek', seek));
  console.log(`  prefix extension: ${extending}/${TURNS - 1} requests extend the previous one byte for byte`);
} finally {
  await server.close();
}
