/**
 * grep, glob and list_dir over 100,000 files against ripgrep (issue 38, item 1).
 *
 *   npx tsx bench/search-scale.ts          (BENCH_RUNS=5 by default; BENCH_KEEP=1 keeps the tree)
 *
 * Makes a tree once in /tmp (a git work tree, no commit: 100,000 searchable source-like files in
 * nested packages, plus a .gitignore naming `dist/` and `*.log`, 20,000 ignored files in a
 * node_modules-like dir and in dist/ dirs), reuses it for every query and removes it at the end
 * (BENCH_KEEP=1 leaves it, and a later run reuses it). For each query it prints the median of
 * BENCH_RUNS runs (after one warm-up) of seek's tool, called in-process through the tool's own
 * `execute` as the loop calls it, beside ripgrep's own time for the same work (`rg -n PATTERN`,
 * `rg --files -g GLOB`, and with `--sortr modified` the same list newest first as glob gives it,
 * `rg --files --max-depth 1 DIR`), when `rg` is on PATH, and the ratio.
 * grep runs twice: the default engine (ripgrep when it is installed) and the built-in one (what
 * a machine without ripgrep gets). Prints figures; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool, ToolContext } from '../src/agent/types.js';
import { createGlobTool } from '../src/tools/glob.js';
import { createGrepTool } from '../src/tools/grep.js';
import { createListDirTool } from '../src/tools/list-dir.js';
import { median } from './stats.js';

const ROOT = '/tmp/seek-bench-search-100k';
const DONE_MARK = join(ROOT, '.bench-complete');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PACKAGES = 50;
const MODULES = 20;
const FILES_PER_MODULE = 100; // 50 × 20 × 100 = 100,000 searchable files
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'js', 'json', 'md'];

function sourceText(p: number, m: number, f: number): string {
  const name = `Widget${p}_${m}_${f}`;
  const lines = [
    `import { helper${f % 7} } from '../shared/helper${f % 7}';`,
    `import type { Options } from '../../types';`,
    '',
    `/** ${name}: renders a part of package ${p}. */`,
    `export function ${name}(options: Options): string {`,
    `  const value = helper${f % 7}(options.size ?? ${f});`,
    `  if (value > ${m * 10}) return 'large';`,
    `  // TODO: handle the empty case for ${name}`,
    `  return options.label + String(value);`,
    '}',
    '',
    `export const config${f} = { id: ${p * 100_000 + m * 100 + f}, enabled: ${f % 2 === 0} };`,
  ];
  if (p === 17 && m === 3 && f === 42) lines.push('// the needle: zqxjv_unique_marker appears once in the tree');
  return `${lines.join('\n')}\n`;
}

function makeTree(): void {
  if (existsSync(DONE_MARK)) return;
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: ROOT });
  writeFileSync(join(ROOT, '.gitignore'), 'node_modules/\ndist/\n*.log\n');
  for (let p = 0; p < PACKAGES; p++) {
    for (let m = 0; m < MODULES; m++) {
      const dir = join(ROOT, 'packages', `pkg-${p}`, 'src', `module-${m}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < FILES_PER_MODULE; f++) writeFileSync(join(dir, `file-${f}.${EXTENSIONS[f % EXTENSIONS.length]}`), sourceText(p, m, f));
    }
    const dist = join(ROOT, 'packages', `pkg-${p}`, 'dist');
    mkdirSync(dist, { recursive: true });
    for (let f = 0; f < 200; f++) writeFileSync(join(dist, `out-${f}.js`), `var TODO_${f} = 1; // zqxjv_unique_marker\n`);
    writeFileSync(join(ROOT, 'packages', `pkg-${p}`, 'build.log'), 'zqxjv_unique_marker\n');
  }
  for (let d = 0; d < 100; d++) {
    const dir = join(ROOT, 'node_modules', `dep-${d}`, 'lib');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `index-${f}.js`), `module.exports = 'TODO zqxjv_unique_marker ${f}';\n`);
  }
  writeFileSync(DONE_MARK, '');
}

function ctx(): ToolContext {
  return { cwd: ROOT, projectRoot: ROOT, signal: new AbortController().signal, callId: 'bench' };
}

async function timeTool<A>(tool: Tool<A>, args: unknown): Promise<{ ms: number; summary: string }> {
  const parsed = tool.schema.parse(args);
  const started = performance.now();
  const result = await tool.execute(parsed, ctx());
  const ms = performance.now() - started;
  const lines = result.content.split('\n');
  return { ms, summary: `${result.isError ? 'ERROR ' : ''}${lines.length} lines; ${lines[lines.length - 1]!.slice(0, 60)}` };
}

function rgInstalled(): boolean {
  return spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
}

function timeRg(args: string[]): number {
  const started = performance.now();
  const outcome = spawnSync('rg', args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'] });
  if (outcome.error) throw outcome.error;
  return performance.now() - started;
}

interface Query {
  label: string;
  tool: Tool<unknown>;
  args: unknown;
  rg: string[];
}

async function measure(query: Query, hasRg: boolean): Promise<void> {
  const toolTimes: number[] = [];
  const rgTimes: number[] = [];
  let summary = '';
  for (let run = 0; run <= RUNS; run++) {
    const outcome = await timeTool(query.tool, query.args);
    const rgMs = hasRg ? timeRg(query.rg) : 0;
    if (run === 0) continue; // warm-up: page cache, worker start, lazy imports
    toolTimes.push(outcome.ms);
    rgTimes.push(rgMs);
    summary = outcome.summary;
  }
  const toolMs = median(toolTimes);
  const rgText = hasRg ? `rg ${median(rgTimes).toFixed(0).padStart(6)} ms  ratio ${(toolMs / median(rgTimes)).toFixed(2)}x` : 'rg not installed';
  console.log(`${query.label.padEnd(34)} seek ${toolMs.toFixed(0).padStart(6)} ms  ${rgText}   (${summary})`);
}

async function main(): Promise<void> {
  const started = performance.now();
  makeTree();
  console.log(`tree: ${ROOT}, 100,000 searchable files + 20,050 ignored (ready in ${((performance.now() - started) / 1000).toFixed(1)} s); median of ${RUNS}`);
  const hasRg = rgInstalled();
  const grepAuto = createGrepTool() as Tool<unknown>;
  const grepBuiltin = createGrepTool({ engine: 'builtin', timeoutMs: 600_000 }) as Tool<unknown>;
  const glob = createGlobTool() as Tool<unknown>;
  const listDir = createListDirTool() as Tool<unknown>;
  const deep = 'packages/pkg-17/src/module-3';
  const queries: Query[] = [
    { label: 'grep rare literal (default engine)', tool: grepAuto, args: { pattern: 'zqxjv_unique_marker' }, rg: ['-n', 'zqxjv_unique_marker'] },
    { label: 'grep rare literal (built-in)', tool: grepBuiltin, args: { pattern: 'zqxjv_unique_marker' }, rg: ['-n', 'zqxjv_unique_marker'] },
    { label: 'grep frequent regex (default)', tool: grepAuto, args: { pattern: 'TODO: \\w+' }, rg: ['-n', 'TODO: \\w+'] },
    { label: 'grep frequent regex (built-in)', tool: grepBuiltin, args: { pattern: 'TODO: \\w+' }, rg: ['-n', 'TODO: \\w+'] },
    { label: 'glob **/*.ts', tool: glob, args: { pattern: '**/*.ts' }, rg: ['--files', '-g', '*.ts'] },
    // The same job as glob's: the list newest first (rg then stats each file, on one thread).
    { label: 'glob **/*.ts vs rg newest first', tool: glob, args: { pattern: '**/*.ts' }, rg: ['--files', '-g', '*.ts', '--sortr', 'modified'] },
    { label: 'list_dir root', tool: listDir, args: {}, rg: ['--files', '--max-depth', '1'] },
    { label: `list_dir ${deep}`, tool: listDir, args: { path: deep }, rg: ['--files', '--max-depth', '1', deep] },
  ];
  if (!hasRg) console.log('rg not installed: seek figures only');
  const only = process.env.BENCH_ONLY;
  for (const query of queries) if (!only || query.label.includes(only)) await measure(query, hasRg);
  if (process.env.BENCH_KEEP !== '1') rmSync(ROOT, { recursive: true, force: true });
}

await main();
