/**
 * edit_file on the project's case set and on large files (`npm run bench:edit`).
 * Part 1: every case of test/fixtures/edit-cases/ through the real tool (test/support/edit-cases.ts);
 * a per-category table of apply cases applied correctly / refused / wrong (with % applied) and of
 * refuse cases refused / wrong, then the totals and the ids of the cases that miss their target.
 * Part 2: a ~10 MB file of many lines and a 5 MB single-line file, each edited through the real
 * tool (schema, describe, execute, as the loop does): an exact edit on both, and on the 10 MB file
 * also an edit whose old_string is the target block shifted left by one indentation level. Prints
 * the median wall time of 5 runs and what the tool answered.
 * Part 3: cost by file size (bench/edit-large.ts): miss, unique hit and replace-all on 1 MB and 10 MB
 * files of near-identical lines. Prints figures only; asserts nothing.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNS, sizeRow, timeEdit } from './edit-large.js';
import { loadEditCases, runEditCases, tallyByCategory, type CategoryTally } from '../test/support/edit-cases.js';

function percent(part: number, whole: number): string {
  return whole === 0 ? '   -' : `${((100 * part) / whole).toFixed(0).padStart(3)}%`;
}

function row(label: string, tally: Omit<CategoryTally, 'category'>): string {
  const cells = [
    label.padEnd(20),
    String(tally.cases).padStart(5),
    String(tally.applyCases).padStart(6),
    String(tally.applied).padStart(8),
    percent(tally.applied, tally.applyCases).padStart(5),
    String(tally.applyRefused).padStart(8),
    String(tally.applyWrong).padStart(6),
    String(tally.refuseCases).padStart(7),
    String(tally.refused).padStart(8),
    String(tally.refuseWrong).padStart(6),
  ];
  return cells.join(' ');
}

async function caseTable(): Promise<void> {
  const cases = loadEditCases();
  const results = await runEditCases(cases);
  const { rows, total } = tallyByCategory(results);
  console.log(`edit_file case set: ${cases.length} cases`);
  console.log('');
  console.log(
    ['category'.padEnd(20), 'cases'.padStart(5), '|apply'.padStart(6), 'applied'.padStart(8), '%'.padStart(5), 'refused'.padStart(8), 'wrong'.padStart(6), '|refuse'.padStart(7), 'refused'.padStart(8), 'wrong'.padStart(6)].join(' '),
  );
  for (const tally of rows) console.log(row(tally.category, tally));
  console.log(row('TOTAL', total));
  const missed = results.filter((result) => !result.passed);
  console.log('');
  console.log(`cases missing their target: ${missed.length}`);
  for (const result of missed) console.log(`  ${result.case.id} [${result.case.category}] expected ${result.case.expect.kind}, got ${result.outcome}`);
}

async function largeFiles(): Promise<void> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-edit-')));
  try {
    // ~10 MB of small functions, one line each of body; the target block is unique and sits in the middle.
    const blocks: string[] = [];
    let size = 0;
    for (let index = 0; size < 10 * 1024 * 1024; index += 1) {
      const block = `export function handler${index}(input: number): number {\n    const value = input * ${index};\n    return value + ${index % 7};\n}\n`;
      blocks.push(block);
      size += block.length;
    }
    const middle = Math.floor(blocks.length / 2);
    const many = blocks.join('');
    const exactOld = `    const value = input * ${middle};\n    return value + ${middle % 7};`;
    const exactNew = `    const value = input * ${middle} + 1;\n    return value + ${middle % 7};`;
    await timeEdit('10 MB, many lines: exact edit', dir, 'many.ts', many, { old_string: exactOld, new_string: exactNew }, many.replace(exactOld, exactNew));
    const shiftedOld = `const value = input * ${middle};\nreturn value + ${middle % 7};`;
    const shiftedNew = `const value = input * ${middle} - 1;\nreturn value + ${middle % 7};`;
    const shiftedExpected = many.replace(exactOld, `    const value = input * ${middle} - 1;\n    return value + ${middle % 7};`);
    await timeEdit('10 MB, many lines: edit shifted by one level', dir, 'many.ts', many, { old_string: shiftedOld, new_string: shiftedNew }, shiftedExpected);

    const half = 'abcdefghij'.repeat(256 * 1024); // 2.5 MB either side of the marker
    const line = `${half}MARKER_0042${half}\n`;
    await timeEdit('5 MB, one line: exact edit', dir, 'one-line.txt', line, { old_string: 'MARKER_0042', new_string: 'MARKER_0043' }, line.replace('MARKER_0042', 'MARKER_0043'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await caseTable();
console.log('');
console.log(`large files (median of ${RUNS} runs, parse + describe + execute):`);
await largeFiles();
console.log('');
console.log(`cost by file size (median of ${RUNS} runs per call):`);
{
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-edit-size-')));
  try {
    let slowest = 0;
    for (const megabytes of [1, 10]) slowest = Math.max(slowest, await sizeRow(dir, megabytes));
    console.log(`slowest call up to 10 MB: ${slowest.toFixed(0)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
