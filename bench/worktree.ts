/**
 * Worktree overhead (`tsx bench/worktree.ts`): on a temporary repository with 5,000 small committed
 * files, the time of `WorktreeManager.create` + `cleanup` (clean) against plain
 * `git worktree add` + `git worktree remove`, 5 runs each (after one warm-up run of each). Prints
 * the medians and their ratio; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from '../src/worktree/git.js';
import { WorktreeManager } from '../src/worktree/manager.js';

const FILES = 5_000;
const RUNS = 5;

function makeRepo(): { root: string; home: string; scratch: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-wt-')));
  const root = join(base, 'repo');
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, 'src', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  return { root, home: join(base, 'home'), scratch: join(base, 'plain') };
}

async function plainAddRemove(root: string, path: string): Promise<void> {
  const check = (result: { code: number; stderr: string }) => {
    if (result.code !== 0) throw new Error(result.stderr);
  };
  check(await runGit(['worktree', 'add', '-q', '--detach', path, 'HEAD'], { cwd: root }));
  check(await runGit(['worktree', 'remove', '--force', path], { cwd: root }));
}

async function seekCreateCleanup(manager: WorktreeManager): Promise<void> {
  const info = await manager.create();
  const outcome = await manager.cleanup(info.path);
  if (outcome.kind !== 'cleaned') throw new Error(outcome.result);
}

async function time(fn: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const { root, home, scratch } = makeRepo();
const manager = new WorktreeManager({ projectRoot: root, seekHome: home, projectId: 'benchbenchbench0' });
try {
  await plainAddRemove(root, `${scratch}-warm`);
  await seekCreateCleanup(manager);
  const plain: number[] = [];
  const seek: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    plain.push(await time(() => plainAddRemove(root, `${scratch}-${run}`)));
    seek.push(await time(() => seekCreateCleanup(manager)));
  }
  const p = median(plain);
  const s = median(seek);
  console.log(`worktree create + clean removal, ${FILES} files, median of ${RUNS} runs:`);
  console.log(`  git worktree add + remove:           ${p.toFixed(0)} ms  (${plain.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  WorktreeManager.create + cleanup:    ${s.toFixed(0)} ms  (${seek.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  ratio seek / plain: ${(s / p).toFixed(2)}`);
} finally {
  rmSync(join(root, '..'), { recursive: true, force: true });
}
