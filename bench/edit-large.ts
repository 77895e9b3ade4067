/**
 * edit_file's cost as a function of file size (part of `npm run bench:edit`). For 1 MB and 10 MB
 * files of near-identical lines (`    total = total + values[N] * factor;`, the worst case for a
 * matcher: every token of old_string is on every line) it times, through the real tool:
 * - miss:            a 3-line old_string that is nowhere in the file but shares every token with it;
 * - unique hit:      an exact 2-line old_string, and the same block sent without its indentation;
 * - replace-all:     a word on every line (exact), and a 2-line block repeated every 50 lines sent
 *                    one level shallower than the file has it (tolerant).
 * Each figure is the median of RUNS calls (parse, describe and execute, as the loop does). Prints
 * figures only; nothing is asserted on wall time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool, ToolContext, ToolResult } from '../src/agent/types.js';
import { createEditFileTool } from '../src/tools/edit-file.js';

export const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function callTool(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.schema.safeParse(JSON.parse(JSON.stringify(args)));
  if (!parsed.success) return { content: 'invalid arguments', isError: true };
  if (tool.describe) await tool.describe(parsed.data, ctx);
  return tool.execute(parsed.data, ctx);
}

/** Times one edit RUNS times, rewriting the original content before each run (not timed). Returns the median in ms. */
export async function timeEdit(label: string, dir: string, name: string, content: string, args: Record<string, unknown>, expected: string | undefined): Promise<number> {
  const tool = createEditFileTool() as Tool;
  const ctx: ToolContext = { cwd: dir, projectRoot: dir, signal: new AbortController().signal, callId: 'bench' };
  const file = join(dir, name);
  const times: number[] = [];
  let answer = '';
  for (let run = 0; run < RUNS; run += 1) {
    writeFileSync(file, content);
    const started = performance.now();
    const result = await callTool(tool, { path: name, ...args }, ctx);
    times.push(performance.now() - started);
    const after = readFileSync(file, 'utf8');
    if (result.isError) answer = expected === undefined ? 'refused, as it must' : `refused (${result.content.slice(0, 80)})`;
    else answer = expected !== undefined && after === expected ? 'applied correctly' : 'applied WRONG';
  }
  const mb = (Buffer.byteLength(content) / (1024 * 1024)).toFixed(1);
  const ms = median(times);
  console.log(`${label.padEnd(60)} ${mb.padStart(5)} MB  median ${ms.toFixed(1).padStart(8)} ms  (${times.map((t) => t.toFixed(0)).join(', ')})  ${answer}`);
  return ms;
}

/** Near-identical lines up to `bytes`; every 50th pair of lines is the `if (ready) {` block. */
function repetitive(bytes: number): { text: string; lines: number } {
  const lines: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n += 1) {
    const line = n % 50 === 0 ? `        if (ready) {\n            flush(values);\n        }` : `    total = total + values[${n}] * factor;`;
    lines.push(line);
    size += line.length + 1;
  }
  return { text: lines.join('\n') + '\n', lines: lines.length };
}

/** The miss, unique-hit and replace-all timings for one size; returns the slowest median. */
export async function sizeRow(dir: string, megabytes: number): Promise<number> {
  const { text, lines } = repetitive(megabytes * 1024 * 1024);
  const name = `repetitive-${megabytes}mb.ts`;
  const tag = `${megabytes} MB, ${lines.toLocaleString('en-US')} similar lines:`;
  const times: number[] = [];
  const middle = Math.floor(lines / 2) + 1;
  times.push(await timeEdit(`${tag} miss`, dir, name, text, { old_string: 'total = total + values[n] * factor;\ntotal = total + values[n] * factor;\ntotal = total - values[n] * factor;', new_string: 'x' }, undefined));
  const hitOld = `    total = total + values[${middle}] * factor;\n    total = total + values[${middle + 1}] * factor;`;
  const hitNew = `    total = total + values[${middle}] * factor * 2;\n    total = total + values[${middle + 1}] * factor;`;
  times.push(await timeEdit(`${tag} unique hit, exact`, dir, name, text, { old_string: hitOld, new_string: hitNew }, text.replace(hitOld, hitNew)));
  const flatOld = hitOld.replace(/^ +/gm, '');
  const flatNew = hitNew.replace(/^ +/gm, '');
  times.push(await timeEdit(`${tag} unique hit, indentation shifted`, dir, name, text, { old_string: flatOld, new_string: flatNew }, text.replace(hitOld, hitNew)));
  times.push(await timeEdit(`${tag} replace-all, exact word`, dir, name, text, { old_string: 'factor', new_string: 'scale', replace_all: true }, text.replaceAll('factor', 'scale')));
  const blockOld = '    if (ready) {\n        flush(values);';
  const blockNew = '    if (ready && !closed) {\n        flush(values);';
  const blockExpected = text.replaceAll('        if (ready) {\n            flush(values);', '        if (ready && !closed) {\n            flush(values);');
  times.push(await timeEdit(`${tag} replace-all, shifted block`, dir, name, text, { old_string: blockOld, new_string: blockNew, replace_all: true }, blockExpected));
  return Math.max(...times);
}
