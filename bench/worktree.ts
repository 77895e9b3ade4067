/**
 * Worktree overhead (`npm run bench:worktree`) on a temporary repository with 5,000 small committed
 * files. Medians of 7 runs (after one warm-up) of:
 *   - create: plain `git worktree add -b` against `WorktreeManager.create` (anchor ref, metadata,
 *     .worktreeinclude listing), runs alternating so machine load hits both alike;
 *   - remove: `git worktree remove --force` (no check) and plain `git worktree remove` (git checks
 *     the tree is clean) against `WorktreeManager.cleanup` of a clean worktree (status, removal,
 *     anchor ref, empty branch, metadata);
 *   - discard of a dirty worktree (rescue commit with untracked files, reset, clean, removal);
 *   - merge of a worktree with one changed file into the main tree;
 *   - start-up housekeeping with nothing of seek's in the project, and with 3 worktrees + 50
 *     discarded refs.
 * Prints figures and ratios from the same run; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from '../src/worktree/git.js';
import { WorktreeManager } from '../src/worktree/manager.js';

const FILES = 5_000;
const RUNS = 7;

function makeRepo(base: string, name: string, files: number): string {
  const root = join(base, name);
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < files; i++) {
    const dir = join(root, 'src', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  writeFileSync(join(root, 'README.md'), '# bench\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench');
  return root;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd, stdio: 'ignore' });
}

async function gitOk(cwd: string, args: string[]): Promise<void> {
  const result = await runGit(args, { cwd });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number): string => `${value.toFixed(1)} ms`;

async function measure(label: string, runs: number, setup: (run: number) => Promise<void>, fn: (run: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let run = -1; run < runs; run++) {
    await setup(run);
    const elapsed = await time(() => fn(run));
    if (run >= 0) samples.push(elapsed);
  }
  const value = median(samples);
  console.log(`  ${label.padEnd(44)} ${ms(value).padStart(10)}   (${samples.map((v) => v.toFixed(0)).join(', ')})`);
  return value;
}

// A RAM-backed directory when there is one (SEEK_BENCH_DIR overrides): on virtual disks with burst
// credits the same `git worktree add` swings 10x within minutes, which would drown seek's own cost.
const scratchRoot = process.env.SEEK_BENCH_DIR ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());
const base = realpathSync(mkdtempSync(join(scratchRoot, 'seek-bench-wt-')));
console.log(`scratch directory: ${base}`);
try {
  const root = makeRepo(base, 'repo', FILES);
  const manager = new WorktreeManager({ projectRoot: root, seekHome: join(base, 'home'), projectId: 'benchbenchbench0' });
  const plainPath = (run: number): string => join(base, `plain-${run + 1}`);
  console.log(`worktrees on a repository of ${FILES} files, median of ${RUNS} runs (each run in ms):`);

  // Plain git and seek alternate run by run, so load from elsewhere on the machine hits both alike.
  const plainAdd: number[] = [];
  const seekAdd: number[] = [];
  const plainRemove: number[] = [];
  const checkedRemove: number[] = [];
  const seekRemove: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const keep = run >= 0;
    let created = '';
    // The three creations rotate their order run by run, so none always follows the others' writes.
    const adds: Array<[number[], () => Promise<unknown>]> = [
      [plainAdd, () => gitOk(root, ['worktree', 'add', '-q', '-b', `plain/a${run + 1}`, plainPath(run), 'HEAD'])],
      [plainAdd, () => gitOk(root, ['worktree', 'add', '-q', '-b', `plain/b${run + 1}`, `${plainPath(run)}-checked`, 'HEAD'])],
      [seekAdd, async () => (created = (await manager.create()).path)],
    ];
    const removes: Array<[number[], () => Promise<unknown>]> = [
      [plainRemove, () => gitOk(root, ['worktree', 'remove', '--force', plainPath(run)])],
      [checkedRemove, () => gitOk(root, ['worktree', 'remove', `${plainPath(run)}-checked`])],
      [seekRemove, async () => {
        const outcome = await manager.cleanup(created);
        if (outcome.kind !== 'cleaned') throw new Error(outcome.result);
      }],
    ];
    for (const phase of [adds, removes]) {
      const shift = (run + 1) % phase.length;
      for (const [samples, fn] of [...phase.slice(shift), ...phase.slice(0, shift)]) {
        const elapsed = await time(fn);
        if (keep) samples.push(elapsed);
      }
    }
  }
  const row = (label: string, samples: number[]): number => {
    const value = median(samples);
    console.log(`  ${label.padEnd(44)} ${ms(value).padStart(10)}   (${samples.map((v) => v.toFixed(0)).join(', ')})`);
    return value;
  };
  const gitAdd = row('git worktree add -b', plainAdd);
  const seekCreate = row('seek create', seekAdd);
  const gitRemove = row('git worktree remove --force (no check)', plainRemove);
  const gitChecked = row('git worktree remove (checks it is clean)', checkedRemove);
  const seekClean = row('seek cleanup (checks status, removes)', seekRemove);

  let dirty = '';
  const makeDirty = async (): Promise<void> => {
    dirty = (await manager.create()).path;
    writeFileSync(join(dirty, 'src', 'd0', 'f0.ts'), 'export const v0 = -1;\n');
    writeFileSync(join(dirty, 'NEW.md'), 'untracked\n');
  };
  const discard = await measure('seek cleanup discard (2 changes, rescued)', RUNS, makeDirty, async () => {
    const outcome = await manager.cleanup(dirty, 'discard');
    if (outcome.kind !== 'discarded') throw new Error(outcome.result);
  });
  const merge = await measure('seek cleanup merge (1 new file)', RUNS, async (run) => {
    dirty = (await manager.create()).path;
    writeFileSync(join(dirty, `merged-${run + 1}.txt`), 'merged\n');
  }, async () => {
    const outcome = await manager.cleanup(dirty, 'merge');
    if (outcome.kind !== 'merged') throw new Error(outcome.result);
  });

  const emptyRoot = makeRepo(base, 'empty', 10);
  const untouched = new WorktreeManager({ projectRoot: emptyRoot, seekHome: join(base, 'home2'), projectId: 'benchbenchbench1' });
  const skipped = await measure('start-up housekeeping, nothing of seek', RUNS, async () => undefined, () => untouched.housekeep());
  for (let i = 0; i < 3; i++) await manager.create();
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  // 50 rescue refs from 2020, re-created before each run, so every run prunes all 50.
  const staleRefs = Array.from({ length: 50 }, (_, n) => `create refs/seek/discarded/20200101-1200${String(n).padStart(2, '0')} ${commit}\n`).join('');
  const busy = await measure('start-up housekeeping, 3 worktrees, 50 old refs', RUNS, async () => {
    await runGit(['update-ref', '--stdin'], { cwd: root, input: staleRefs });
  }, async () => {
    const report = await manager.housekeep();
    if (report.pruned !== 50) throw new Error(`pruned ${report.pruned}`);
  });

  console.log('ratios (same run):');
  const signed = (value: number): string => `${value >= 0 ? '+' : ''}${ms(value)}`;
  console.log(`  create: seek / git worktree add                  ${(seekCreate / gitAdd).toFixed(2)}x  (${signed(seekCreate - gitAdd)})`);
  console.log(`  remove: seek / git worktree remove (checked)     ${(seekClean / gitChecked).toFixed(2)}x  (${signed(seekClean - gitChecked)})`);
  console.log(`  remove: seek / git worktree remove --force       ${(seekClean / gitRemove).toFixed(2)}x  (${signed(seekClean - gitRemove)})`);
  console.log(`  discard / seek clean removal                     ${(discard / seekClean).toFixed(2)}x`);
  console.log(`  merge / seek clean removal                       ${(merge / seekClean).toFixed(2)}x`);
  console.log(`  housekeeping: ${ms(skipped)} with nothing to do, ${ms(busy)} with 3 worktrees and 50 old refs pruned`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
