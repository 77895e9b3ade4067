/**
 * Diagnostics after edits (src/lsp, issue 42): `npx tsx bench/lsp.ts`. Prints figures, asserts nothing.
 * Part 1: how long an edit's result waits for diagnostics, cold (the server's first start) and warm
 * (median of 5 edits), with the real typescript-language-server and pyright from node_modules/.bin.
 * Part 2: the cost of the diagnostics over the edit case set (test/fixtures/edit-cases): every apply
 * case on a .ts/.tsx/.js/.py file is written as expected into a project of its own folder and the
 * text added to the edit's result is measured (tokens ≈ characters / 4). Each case is a snippet
 * (imports and neighbours missing), so this is an upper bound of what real edits cost.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLspService } from '../src/lsp/index.js';
import { caseFileName, loadEditCases } from '../test/support/edit-cases.js';

const BIN = new URL('../node_modules/.bin', import.meta.url).pathname;
const env = { ...process.env, PATH: `${BIN}:${process.env.PATH ?? ''}` };
const policy = { mode: 'ask', preference: 'yolo' };
const BUDGET_MS = 120_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeWaits(label: string, file: string, good: string, bad: string): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-bench-lsp-')));
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  const target = path.join(root, file);
  const lsp = createLspService({ config: {}, env, policy, waitMs: BUDGET_MS });
  try {
    writeFileSync(target, bad);
    let started = Date.now();
    const cold = await lsp.service.diagnosticsAfterEdit(target, root);
    const coldMs = Date.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      writeFileSync(target, i % 2 === 0 ? good : bad);
      started = Date.now();
      await lsp.service.diagnosticsAfterEdit(target, root);
      warm.push(Date.now() - started);
    }
    console.log(`${label.padEnd(12)} cold ${String(coldMs).padStart(6)} ms (${cold.errors} error)   warm median ${String(median(warm)).padStart(5)} ms  [${warm.join(', ')}]`);
  } finally {
    await lsp.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

async function caseSetCost(): Promise<void> {
  const cases = loadEditCases().filter((item) => item.expect.kind === 'apply' && /\.(tsx?|jsx?|py)$/.test(caseFileName(item)));
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-bench-lsp-cases-')));
  const lsp = createLspService({ config: {}, env, policy, waitMs: BUDGET_MS });
  let chars = 0;
  let withText = 0;
  let max = 0;
  let errors = 0;
  try {
    for (const [index, item] of cases.entries()) {
      const file = path.join(root, `case-${index}`, caseFileName(item));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, (item.expect as { content: string }).content);
      const added = await lsp.service.diagnosticsAfterEdit(file, root);
      // What the result gains: the blank line before the block and the block.
      const length = added.text === '' ? 0 : added.text.length + 2;
      chars += length;
      max = Math.max(max, length);
      errors += added.errors;
      if (length > 0) withText += 1;
    }
  } finally {
    await lsp.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const tokens = (n: number): string => String(Math.round(n / 4));
  console.log(`edit cases with a server: ${cases.length} (.ts/.tsx/.js/.py apply cases); results with diagnostics added: ${withText}; errors listed: ${errors}`);
  console.log(`added text: ${chars} chars ≈ ${tokens(chars)} tokens in all; ≈ ${tokens(chars / Math.max(1, cases.length))} tokens per edit on average; ≈ ${tokens(max)} tokens at most (cap 20 lines)`);
}

console.log('Part 1: time an edit result waits for diagnostics');
await timeWaits('typescript', 'main.ts', 'export const total: number = 1 + 2;\n', 'export const total: string = 1 + 2;\n');
await timeWaits('pyright', 'app.py', 'def double(x: int) -> int:\n    return x * 2\n', 'def double(x: int) -> int:\n    return "twice"\n');
console.log('\nPart 2: cost of the diagnostics over the edit case set');
await caseSetCost();
