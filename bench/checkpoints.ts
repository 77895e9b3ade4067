/**
 * Checkpoint cost (`npm run bench:checkpoints`) on a temporary repository with 5,000 small
 * committed files. Medians of 7 runs (after one warm-up) of:
 *   - a turn-start checkpoint with 10 files changed since the previous one, and with no change
 *     (the previous checkpoint is reused: no commit written);
 *   - `git stash create` on the same trees (git's own snapshot, which leaves untracked files out),
 *     runs alternating so machine load hits both alike; ratios from the same run;
 *   - the disk space 100 checkpoints of a typical session add (3 files edited a turn, a new file
 *     every 10th turn): `du` of .git/objects before and after, loose, then after `git gc`;
 *   - what the turn-start checkpoint adds to a real `seek -p` (built bin, scripted model) on the
 *     same repository: time from spawn to the first request with checkpoints on and off
 *     (`checkpoints.enabled: false`), alternating; the snapshot overlaps the request.
 * Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointRef, openCheckpointRepository, takeCheckpoint, type Snapshot } from '../src/checkpoints/index.js';
import { ScriptedServer } from '../test/support/scripted-server/index.js';
import { runSeek } from '../test/support/seek-process.js';

const FILES = 5_000;
const RUNS = 7;
const SID = '20260101-000000-bench0';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd, encoding: 'utf8' });
}

function makeRepo(base: string): string {
  const root = join(base, 'repo');
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, 'src', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench');
  return root;
}

const file = (root: string, i: number): string => join(root, 'src', `d${Math.floor(i / 100)}`, `f${i}.ts`);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number): string => `${value.toFixed(1)} ms`;

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

function kilobytes(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-ckpt-')));
  try {
    const root = makeRepo(base);
    const repo = await openCheckpointRepository({ root, seekHome: join(base, 'home'), projectId: 'bench' });
    let n = 0;
    let previous: Snapshot | undefined = await takeCheckpoint(repo, { ref: checkpointRef(SID, ++n), message: 'warm' });

    const changed: number[] = [];
    const unchanged: number[] = [];
    const stashChanged: number[] = [];
    const stashUnchanged: number[] = [];
    for (let run = -1; run < RUNS; run++) {
      for (let k = 0; k < 10; k++) writeFileSync(file(root, (run + 1) * 10 + k), `export const changed = ${run};\n`);
      const stashC = await time(() => git(root, 'stash', 'create'));
      const c = await time(async () => (previous = await takeCheckpoint(repo, { ref: checkpointRef(SID, ++n), parent: previous, message: `turn ${n}` })));
      const u = await time(async () => (previous = await takeCheckpoint(repo, { ref: checkpointRef(SID, ++n), parent: previous, message: `turn ${n}` })));
      const stashU = await time(() => git(root, 'stash', 'create'));
      if (run < 0) continue;
      changed.push(c);
      unchanged.push(u);
      stashChanged.push(stashC);
      stashUnchanged.push(stashU);
    }
    console.log(`checkpoints on a ${FILES}-file repository (median of ${RUNS}; git stash create on the same tree)`);
    console.log(`  10 files changed: checkpoint ${ms(median(changed))}   git stash create ${ms(median(stashChanged))}   ratio ${(median(changed) / median(stashChanged)).toFixed(2)}`);
    console.log(`  no change:        checkpoint ${ms(median(unchanged))}   git stash create ${ms(median(stashUnchanged))}   ratio ${(median(unchanged) / median(stashUnchanged)).toFixed(2)}`);

    // A typical session: 100 turns, each editing 3 files a little, a new file every 10th turn.
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'reset');
    git(root, 'gc', '-q', '--prune=now');
    const sid = '20260101-000000-bench1';
    git(root, 'for-each-ref', '--format=delete %(refname)', 'refs/seek/').split('\n').filter(Boolean).forEach((line) => git(root, 'update-ref', '-d', line.slice(7)));
    git(root, 'gc', '-q', '--prune=now');
    const objects = join(root, '.git', 'objects');
    const before = kilobytes(objects);
    previous = undefined;
    const turns: number[] = [];
    for (let turn = 1; turn <= 100; turn++) {
      for (let k = 0; k < 3; k++) {
        const i = (turn * 37 + k * 101) % FILES;
        writeFileSync(file(root, i), `export const v${i} = ${turn};\n// edited in turn ${turn}\n`);
      }
      if (turn % 10 === 0) writeFileSync(join(root, `new-${turn}.md`), `# notes of turn ${turn}\n${'text '.repeat(200)}\n`);
      turns.push(await time(async () => (previous = await takeCheckpoint(repo, { ref: checkpointRef(sid, turn), parent: previous, message: `turn ${turn}` }))));
    }
    const loose = kilobytes(objects) - before;
    git(root, 'gc', '-q');
    const packed = kilobytes(objects) - before;
    console.log(`100 checkpoints of a typical session (3 files edited a turn, a new file every 10th): median ${ms(median(turns))} a checkpoint`);
    console.log(`  disk: ${loose} KiB as loose objects, ${packed} KiB after git gc (same refs; du of .git/objects, before: ${before} KiB)`);
    await turnStart(root, join(base, 'home-on'), join(base, 'home-off'));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Spawn to first request of `seek -p` with checkpoints on and off, alternating (medians). */
async function turnStart(root: string, homeOn: string, homeOff: string): Promise<void> {
  mkdirSync(homeOn, { recursive: true });
  mkdirSync(homeOff, { recursive: true });
  writeFileSync(join(homeOff, 'config.json'), JSON.stringify({ checkpoints: { enabled: false } }));
  for (let i = 0; i < 10; i++) writeFileSync(file(root, i), `export const turnStart${i} = true;\n`);
  const server = await ScriptedServer.start();
  try {
    const firstRequest = async (home: string): Promise<number> => {
      server.reset();
      server.enqueue({ text: 'ok' });
      const started = performance.timeOrigin + performance.now();
      const run = await runSeek(['-p', 'hi'], { cwd: root, env: { PATH: process.env.PATH, HOME: home, SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url } });
      if (run.code !== 0) throw new Error(`seek -p failed: ${run.stderr}`);
      return server.requests[0]!.receivedAt - started;
    };
    const on: number[] = [];
    const off: number[] = [];
    for (let run = -1; run < RUNS; run++) {
      const a = await firstRequest(homeOn);
      const b = await firstRequest(homeOff);
      if (run < 0) continue;
      on.push(a);
      off.push(b);
    }
    console.log(`seek -p on the same repository (10 files changed), spawn to first request, median of ${RUNS}:`);
    console.log(`  checkpoints on ${ms(median(on))}   off ${ms(median(off))}   ratio ${(median(on) / median(off)).toFixed(2)}`);
  } finally {
    await server.close();
  }
}

await main();
