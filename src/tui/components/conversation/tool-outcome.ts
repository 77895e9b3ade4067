import { textLines } from './text-blocks.js';

/**
 * What a tool's output says about how it went, for the one-line outcome under a tool row: the
 * summary line of a test or build run, and the match counts of a grep. Pure text parsing; the
 * formats are the tools' own (vitest, jest, mocha, pytest, go test, cargo test, tsc).
 */

export interface RunSummary {
  /** `12 passed, 1 failed`. */
  text: string;
  /** Something failed (a failed test, an error). */
  failed: boolean;
}

/** Words a summary counts, and the word shown for each (`passing` → `passed`). */
const COUNT_WORDS: Readonly<Record<string, string>> = {
  passed: 'passed',
  passing: 'passed',
  pass: 'passed',
  failed: 'failed',
  failing: 'failed',
  fail: 'failed',
  skipped: 'skipped',
  skip: 'skipped',
  pending: 'pending',
  todo: 'todo',
  ignored: 'ignored',
  error: 'errors',
  errors: 'errors',
  xfailed: 'xfailed',
  xpassed: 'xpassed',
  deselected: 'deselected',
};
const FAILING = new Set(['failed', 'errors']);

/** Lines that are a runner's final tally, by runner. Each must count something (`\d+ word`). */
const SUMMARY_LINES: readonly RegExp[] = [
  /^\s*Tests:?\s+\d+ (passed|failed|skipped|todo)\b/, // vitest `Tests  12 passed | 1 failed (13)`, jest `Tests: 1 failed, 12 passed, 13 total`
  /^=+ .*\b\d+ (passed|failed|errors?|skipped|xfailed|xpassed|deselected)\b.* in [\d.]+s.* =+$/, // pytest
  /^\d+ (passed|failed|errors?)\b[^=]* in [\d.]+s$/, // pytest -q
  /^\s*test result: (ok|FAILED)\. \d+ passed; \d+ failed/, // cargo test
  /^\s*\d+ (passing|failing|pending)\b/, // mocha
  /^Found \d+ errors?\b/, // tsc
];

/** ANSI colour codes some runners print even into a pipe. */
const SGR = /\u001b\[[0-9;]*m/g;

/**
 * The last test/build summary line of `output`, as counts: vitest and jest `Tests` lines, pytest's
 * `=== … in 0.1s ===`, cargo's `test result:`, mocha's `N passing`/`N failing` block (read
 * together), tsc's `Found N errors`, and go test's per-package `ok`/`FAIL` lines (counted).
 * Undefined when nothing recognisable is there.
 */
export function runSummary(output: string): RunSummary | undefined {
  const lines = textLines(output.replace(SGR, ''));
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!;
    if (!SUMMARY_LINES.some((pattern) => pattern.test(line))) continue;
    // mocha prints passing, pending and failing on lines of their own: read the block.
    const block = /^\s*\d+ (passing|failing|pending)\b/.test(line) ? mochaBlock(lines, index) : line;
    const counts = countsIn(block);
    if (counts.length > 0) return summaryOf(counts);
  }
  return goSummary(lines);
}

function mochaBlock(lines: readonly string[], last: number): string {
  let first = last;
  while (first > 0 && /^\s*\d+ (passing|failing|pending)\b/.test(lines[first - 1]!)) first--;
  return lines.slice(first, last + 1).join(', ');
}

/** `(count, word)` pairs in reading order, each word once (jest's `13 total` is left out). */
function countsIn(line: string): Array<[number, string]> {
  const seen = new Map<string, number>();
  const cleaned = line.replace(/\(\d+\)/g, ''); // vitest's `(13)` total
  for (const match of cleaned.matchAll(/(\d+) ([a-z]+)/gi)) {
    const word = COUNT_WORDS[match[2]!.toLowerCase()];
    if (word === undefined || seen.has(word)) continue;
    seen.set(word, Number(match[1]));
  }
  return [...seen.entries()].map(([word, n]) => [n, word]);
}

function summaryOf(counts: ReadonlyArray<[number, string]>): RunSummary {
  // Passed first, then failures, then the rest: the order a reader looks for them.
  const rank = (word: string) => (word === 'passed' ? 0 : FAILING.has(word) ? 1 : 2);
  const sorted = [...counts].sort((a, b) => rank(a[1]) - rank(b[1]));
  // A zero count says nothing unless it is the only one (`0 passed`), or "0 failed" next to passes.
  const shown = sorted.filter(([n, word], index) => n > 0 || index === 0 || (word === 'failed' && sorted[0]![1] === 'passed'));
  const failed = counts.some(([n, word]) => FAILING.has(word) && n > 0);
  return { text: shown.map(([n, word]) => `${n} ${word}`).join(', '), failed };
}

/** go test: `ok  	pkg	0.01s` and `FAIL	pkg	0.01s` per package. */
function goSummary(lines: readonly string[]): RunSummary | undefined {
  let ok = 0;
  let failed = 0;
  for (const line of lines) {
    if (/^ok\s+\S+\s+(\(cached\)|[\d.]+s)/.test(line)) ok++;
    else if (/^FAIL\s+\S+\s+([\d.]+s|\[build failed\]|\[setup failed\])/.test(line)) failed++;
  }
  if (ok + failed === 0) return undefined;
  const packages = (n: number) => `${n} package${n === 1 ? '' : 's'}`;
  const text = failed === 0 ? `${packages(ok)} ok` : `${packages(ok)} ok, ${failed} failed`;
  return { text, failed: failed > 0 };
}

/** grep's output (`path:line:text` rows, and a `(N matches in M files in all)` note when cut):
 * `12 matches in 3 files`. */
export function grepCounts(output: string): string | undefined {
  const total = /\((\d+) matches in (\d+) files in all\)/.exec(output);
  if (total) return `${plural(Number(total[1]), 'match', 'matches')} in ${plural(Number(total[2]), 'file', 'files')}`;
  const files = new Set<string>();
  let matches = 0;
  for (const line of textLines(output)) {
    const row = /^(.+?):(\d+):/.exec(line);
    if (!row) continue;
    matches++;
    files.add(row[1]!);
  }
  if (matches === 0) return undefined;
  return `${plural(matches, 'match', 'matches')} in ${plural(files.size, 'file', 'files')}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
