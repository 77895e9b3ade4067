/**
 * Per-turn cost against the repository's size (issue 38, item 1). Run it with
 *   npx tsx bench/repo-scale.ts        (after `npm run build`; the lead adds `bench:repo-scale`)
 * Options (environment): BENCH_TURNS model turns of `read_file` per session (default 20);
 * BENCH_SESSIONS headless sessions run one after the other, the first `seek -p`, the others
 * `seek -p -c` (default 3); BENCH_BEFORE_BIN an older bin/seek.js measured in the same run,
 * alternating with this checkout's; BENCH_REPOS a directory to build the repositories in and keep
 * for the next run (else a temporary one, removed at exit); BENCH_SCENARIOS a comma list of
 * c1000, c10000, c100000, u100000 (default all).
 *
 * Repositories: 1,000, 10,000 and 100,000 small committed files, and 1,000 committed files with
 * 100,000 untracked ones (in `generated/`, not ignored). For each, the real `seek` (session saved)
 * against the scripted model server, and printed, never asserted:
 *  - per turn: the median of the gaps from a response's last byte to the next request, the
 *    first gap of each process left out (it may wait for the turn-start checkpoint), and its
 *    ratio to the 1,000-file repository;
 *  - wall/turn: a session's whole time (spawn to exit: start-up, checkpoints, the exit path
 *    included) over its model turns (median over the sessions), and its ratio;
 *  - first tool call: the first gap of each process (median);
 *  - exit: the last response's end to the process's exit (median);
 *  - checkpoints: turn checkpoints recorded in the session file against the user turns run, and
 *    the notices seek printed about checkpoints.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedServer } from '../test/support/scripted-server/index.js';
import { SEEK_BIN } from '../test/support/seek-process.js';
import { tempDir } from '../test/support/temp-dirs.js';
import { median } from './stats.js';
import { buildRepository, SCENARIOS, type Scenario } from './repo-scale-repos.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 3);
const WANTED = (process.env.BENCH_SCENARIOS ?? SCENARIOS.map((s) => s.name).join(',')).split(',');

interface Figures {
  gaps: number[];
  firsts: number[];
  exits: number[];
  walls: number[];
  checkpoints: number;
  failed: number;
  notices: string[];
}

/** Runs one headless session in `root`, and adds its figures to `into`. */
function session(server: ScriptedServer, bin: string, root: string, home: string, resume: boolean, into: Figures): Promise<void> {
  server.reset();
  for (let i = 0; i < TURNS - 1; i++) server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: join(root, 'README.md'), offset: 1 + (i % 3) } }] });
  server.enqueue({ text: 'done' });
  const env = { PATH: process.env.PATH, HOME: home, SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url, NO_COLOR: '1' };
  const args = [bin, '-p', ...(resume ? ['-c'] : []), 'read the readme repeatedly', '--max-turns', String(TURNS + 5)];
  return new Promise((resolve, reject) => {
    const started = performance.timeOrigin + performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      const exitedAt = performance.timeOrigin + performance.now();
      if (code !== 0) return reject(new Error(`seek exited ${code}: ${stderr}`));
      const requests = server.requests;
      if (requests.length !== TURNS) return reject(new Error(`expected ${TURNS} requests, saw ${requests.length}`));
      const gaps = requests.slice(1).map((request, i) => request.receivedAt - requests[i]!.respondedAt!);
      into.firsts.push(gaps[0]!);
      into.gaps.push(...gaps.slice(1));
      into.exits.push(exitedAt - requests.at(-1)!.respondedAt!);
      into.walls.push((exitedAt - started) / TURNS);
      into.notices.push(...stderr.split('\n').filter((line) => /checkpoint/i.test(line)));
      resolve();
    });
  });
}

/** Checkpoint events of the sessions under `home`: turn checkpoints and failures. */
function countCheckpoints(home: string, into: Figures): void {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.jsonl') ? [path] : [];
    });
  for (const file of walk(home)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.includes('"name":"checkpoint"') && line.includes('"kind":"turn"')) into.checkpoints++;
      if (line.includes('"name":"checkpoint_failed"')) into.failed++;
    }
  }
}

async function measure(server: ScriptedServer, bin: string, scenario: Scenario, root: string): Promise<Figures> {
  const home = tempDir('seek-bench-scale-home-');
  const figures: Figures = { gaps: [], firsts: [], exits: [], walls: [], checkpoints: 0, failed: 0, notices: [] };
  for (let s = 0; s < SESSIONS; s++) await session(server, bin, root, home, s > 0, figures);
  countCheckpoints(home, figures);
  return figures;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`.padStart(10);

function row(label: string, f: Figures, base: Figures | undefined): string {
  const ratio = (pick: (g: Figures) => number[]): string => (base ? `${(median(pick(f)) / median(pick(base))).toFixed(2)}x` : '').padStart(6);
  const notices = [...new Set(f.notices)].map((n) => `\n      notice: ${n.slice(0, 200)}`).join('');
  return `  ${label.padEnd(34)} per turn ${ms(median(f.gaps))} ${ratio((g) => g.gaps)}   wall/turn ${ms(median(f.walls))} ${ratio((g) => g.walls)}   first tool call ${ms(median(f.firsts))}   exit ${ms(median(f.exits))}   checkpoints ${f.checkpoints}/${SESSIONS}${f.failed ? ` (${f.failed} failed)` : ''}${notices}`;
}

const reposDir = process.env.BENCH_REPOS ?? tempDir('seek-bench-scale-');
const bins: Array<[string, string]> = [...(process.env.BENCH_BEFORE_BIN ? [['before', process.env.BENCH_BEFORE_BIN] as [string, string]] : []), ['this checkout', SEEK_BIN]];
const server = await ScriptedServer.start();
try {
  const results = new Map<string, Figures>();
  console.log(`per-turn time of saved headless sessions (${SESSIONS} sessions of ${TURNS} read_file turns; medians)`);
  for (const scenario of SCENARIOS.filter((s) => WANTED.includes(s.name))) {
    const root = join(reposDir, scenario.name);
    if (!existsSync(join(root, '.git'))) buildRepository(root, scenario);
    for (const [name, bin] of bins) {
      const figures = await measure(server, bin, scenario, root);
      results.set(`${name}/${scenario.name}`, figures);
      console.log(row(`${name}: ${scenario.label}`, figures, results.get(`${name}/c1000`)));
    }
  }
} finally {
  await server.close();
}
