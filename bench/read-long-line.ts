/**
 * read_file on a file that is one long line (`npm run bench:read`): a 100 MB single-line file is
 * read by read_file in a fresh process (so its peak RSS is its own), beside `wc -c` and `wc -l` on
 * the same file. Prints wall times, the child's peak RSS and what the read added to it, and the
 * ratios from the same run. `wc -c` may only stat the file; `wc -l` reads every byte, so it is the
 * fair floor for a pass over the data. Asserts nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZE_BYTES = 100 * 1024 * 1024;

interface ChildReport {
  ms: number;
  peakRssMiB: number;
  baselineRssMiB: number;
  contentChars: number;
}

/** In the child: one read_file call, timed, with the process's peak RSS before and after. */
async function child(file: string): Promise<void> {
  const { createReadFileTool } = await import('../src/tools/read-file.js');
  const tool = createReadFileTool();
  const ctx = { cwd: tmpdir(), projectRoot: tmpdir(), signal: new AbortController().signal, callId: 'bench' };
  const baselineRssMiB = process.resourceUsage().maxRSS / 1024;
  const started = performance.now();
  const result = await tool.execute({ path: file }, ctx);
  const ms = performance.now() - started;
  const report: ChildReport = { ms, peakRssMiB: process.resourceUsage().maxRSS / 1024, baselineRssMiB, contentChars: result.content.length };
  process.stdout.write(JSON.stringify(report));
}

function writeLongLine(file: string): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(1024 * 1024, 'abcdefghijklmnopqrstuvwxyz0123456789');
  try {
    for (let written = 0; written < SIZE_BYTES; written += block.length) writeSync(fd, block);
    writeSync(fd, '\n');
  } finally {
    closeSync(fd);
  }
}

function timeCommand(command: string, args: string[]): number {
  const started = performance.now();
  execFileSync(command, args, { stdio: 'ignore' });
  return performance.now() - started;
}

function main(): void {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-read-')));
  try {
    const file = join(dir, 'one-line.txt');
    writeLongLine(file);
    timeCommand('wc', ['-l', file]); // warm the page cache for everyone
    const self = fileURLToPath(import.meta.url);
    const run = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', file], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`read_file child failed: ${run.stderr}`);
    const read = JSON.parse(run.stdout) as ChildReport;
    const wcBytesMs = timeCommand('wc', ['-c', file]);
    const wcLinesMs = timeCommand('wc', ['-l', file]);
    const mib = (SIZE_BYTES / (1024 * 1024)).toFixed(0);
    console.log(`read_file on a ${mib} MiB single-line file (result: ${read.contentChars} chars)`);
    console.log(`  read_file  ${read.ms.toFixed(0).padStart(6)} ms   peak RSS ${read.peakRssMiB.toFixed(0)} MiB (+${(read.peakRssMiB - read.baselineRssMiB).toFixed(0)} MiB over the process before the read)`);
    console.log(`  wc -c      ${wcBytesMs.toFixed(0).padStart(6)} ms   read_file/wc -c = ${(read.ms / wcBytesMs).toFixed(1)}x (includes process start for wc only)`);
    console.log(`  wc -l      ${wcLinesMs.toFixed(0).padStart(6)} ms   read_file/wc -l = ${(read.ms / wcLinesMs).toFixed(1)}x`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]!);
else main();
