/**
 * The edit_file case set (test/fixtures/edit-cases/*.json) and a runner that puts each case through
 * the real tool the way the agent loop does (src/agent/tool-dispatch.ts): the arguments travel as
 * JSON, are validated with the tool's schema (a schema failure is an error result, so "refused"),
 * then describe() and execute() run against a real file in a fresh temporary directory.
 *
 * A case is classified by what happened to the file, not by what the tool said:
 * - correct: an apply case whose file now equals the expected bytes, reported as a success;
 * - refused: the tool returned an error and the file is byte for byte unchanged;
 * - wrong:   anything else (a changed file that is not the expected one, a refuse case that wrote,
 *            or a success report without the expected content).
 * Used by test/unit/tools/edit-cases.test.ts and bench/edit.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { executeToolCalls } from '../../src/agent/tool-dispatch.js';
import type { Tool, ToolContext, ToolResult } from '../../src/agent/types.js';
import { createEditFileTool } from '../../src/tools/edit-file.js';

export const EDIT_CASE_CATEGORIES = [
  'exact',
  'line-endings',
  'trailing-whitespace',
  'indentation',
  'whitespace-inline',
  'escapes',
  'unicode',
  'line-numbers',
  'typos',
  'ambiguous',
  'placeholders',
  'long-lines',
  'arguments',
  'multi-edit',
] as const;

export type EditCaseCategory = (typeof EDIT_CASE_CATEGORIES)[number];

export interface EditCase {
  id: string;
  /** Where the case comes from: a peer's repository, file and test name (or seek's own set). */
  source: { repo: string; path: string; test: string };
  category: EditCaseCategory;
  /** The file's content before the call. */
  file: string;
  /** The edit_file arguments exactly as the model sent them (may use file_path, strings for booleans, edits[]). */
  args: Record<string, unknown>;
  expect: { kind: 'apply'; content: string } | { kind: 'refuse' };
  /** Why the expected answer is what it is, or how a peer's format was translated. */
  note?: string;
}

export type Outcome = 'correct' | 'refused' | 'wrong';

export interface CaseResult {
  case: EditCase;
  outcome: Outcome;
  /** True when the outcome is the one the case asks for (correct for apply cases, refused for refuse cases). */
  passed: boolean;
  /** What the tool told the model. */
  toolResult: ToolResult;
  /** The file's content after the call. */
  after: string;
}

export interface CategoryTally {
  category: EditCaseCategory;
  cases: number;
  applyCases: number;
  refuseCases: number;
  /** Apply cases by outcome. */
  applied: number;
  applyRefused: number;
  applyWrong: number;
  /** Refuse cases by outcome (correct cannot happen: nothing is expected to be written). */
  refused: number;
  refuseWrong: number;
}

export const EDIT_CASES_DIR = fileURLToPath(new URL('../fixtures/edit-cases/', import.meta.url));

/** Every case of every fixture file, in file order then case order. Throws on a malformed case. */
export function loadEditCases(dir: string = EDIT_CASES_DIR): EditCase[] {
  const cases: EditCase[] = [];
  const seen = new Set<string>();
  for (const name of readdirSync(dir).filter((entry) => entry.endsWith('.json')).sort()) {
    const parsed: unknown = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    if (!Array.isArray(parsed)) throw new Error(`${name}: expected an array of cases`);
    for (const raw of parsed) {
      const item = checkCase(raw, name);
      if (seen.has(item.id)) throw new Error(`${name}: duplicate case id ${item.id}`);
      seen.add(item.id);
      cases.push(item);
    }
  }
  return cases;
}

function checkCase(raw: unknown, file: string): EditCase {
  const item = raw as Partial<EditCase>;
  const where = `${file}: case ${String(item?.id)}`;
  if (typeof item?.id !== 'string' || item.id === '') throw new Error(`${file}: a case has no id`);
  if (!item.source || typeof item.source.repo !== 'string' || typeof item.source.test !== 'string') throw new Error(`${where}: source needs repo, path and test`);
  if (!EDIT_CASE_CATEGORIES.includes(item.category as EditCaseCategory)) throw new Error(`${where}: unknown category ${String(item.category)}`);
  if (typeof item.file !== 'string') throw new Error(`${where}: file must be a string`);
  if (!item.args || typeof item.args !== 'object') throw new Error(`${where}: args must be an object`);
  const expect = item.expect;
  if (!expect || !(expect.kind === 'refuse' || (expect.kind === 'apply' && typeof expect.content === 'string'))) {
    throw new Error(`${where}: expect must be {kind:"apply", content} or {kind:"refuse"}`);
  }
  return item as EditCase;
}

/** The file a case edits, relative to the temp directory: the path the model named, else target.txt. */
export function caseFileName(item: EditCase): string {
  for (const key of ['path', 'file_path'] as const) {
    const value = item.args[key];
    if (typeof value === 'string' && value !== '' && !path.isAbsolute(value) && !value.split(/[\\/]/).includes('..')) return value;
  }
  return 'target.txt';
}

/** Runs one case through `tool` (the real edit_file unless given) in a fresh temp directory, removed afterwards. */
export async function runEditCase(item: EditCase, tool: Tool = createEditFileTool() as Tool): Promise<CaseResult> {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-edit-case-')));
  try {
    const file = path.join(dir, caseFileName(item));
    mkdirSync(path.dirname(file), { recursive: true });
    const before = Buffer.from(item.file, 'utf8');
    writeFileSync(file, before);
    const ctx: ToolContext = { cwd: dir, projectRoot: dir, signal: new AbortController().signal, callId: `case-${item.id}` };
    const toolResult = await callLikeTheLoop(tool, item.args, ctx);
    const afterBytes = readFileSync(file);
    const after = afterBytes.toString('utf8');
    const outcome = classify(item, toolResult, before, afterBytes);
    const passed = item.expect.kind === 'apply' ? outcome === 'correct' : outcome === 'refused';
    return { case: item, outcome, passed, toolResult, after };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Calls the tool through the loop's own dispatch (JSON arguments, schema check with argument repair, describe, execute). */
async function callLikeTheLoop(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const call = { id: ctx.callId, name: tool.name, arguments: JSON.stringify(args) };
  const {
    results: [message],
  } = await executeToolCalls([call], {
    tools: [tool],
    emit: () => {},
    signal: ctx.signal,
    cwd: ctx.cwd,
    projectRoot: ctx.projectRoot,
    turn: 1,
  });
  return { content: message!.content, ...(message!.isError ? { isError: true } : {}) };
}

function classify(item: EditCase, result: ToolResult, before: Buffer, after: Buffer): Outcome {
  const unchanged = after.equals(before);
  if (result.isError === true) return unchanged ? 'refused' : 'wrong';
  if (item.expect.kind === 'apply' && after.equals(Buffer.from(item.expect.content, 'utf8'))) return 'correct';
  return 'wrong';
}

export async function runEditCases(cases: readonly EditCase[] = loadEditCases(), tool?: Tool): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const item of cases) results.push(await runEditCase(item, tool));
  return results;
}

/** Per-category tallies in EDIT_CASE_CATEGORIES order (categories without cases left out), and the totals. */
export function tallyByCategory(results: readonly CaseResult[]): { rows: CategoryTally[]; total: Omit<CategoryTally, 'category'> } {
  const empty = (): Omit<CategoryTally, 'category'> => ({ cases: 0, applyCases: 0, refuseCases: 0, applied: 0, applyRefused: 0, applyWrong: 0, refused: 0, refuseWrong: 0 });
  const byCategory = new Map<EditCaseCategory, Omit<CategoryTally, 'category'>>();
  const total = empty();
  for (const result of results) {
    const row = byCategory.get(result.case.category) ?? empty();
    byCategory.set(result.case.category, row);
    for (const tally of [row, total]) {
      tally.cases += 1;
      if (result.case.expect.kind === 'apply') {
        tally.applyCases += 1;
        if (result.outcome === 'correct') tally.applied += 1;
        else if (result.outcome === 'refused') tally.applyRefused += 1;
        else tally.applyWrong += 1;
      } else {
        tally.refuseCases += 1;
        if (result.outcome === 'refused') tally.refused += 1;
        else tally.refuseWrong += 1;
      }
    }
  }
  const rows = EDIT_CASE_CATEGORIES.filter((category) => byCategory.has(category)).map((category) => ({ category, ...byCategory.get(category)! }));
  return { rows, total };
}

/** A short, printable account of one result for failure messages: the call, the tool's answer, the file. */
export function describeCaseResult(result: CaseResult): string {
  const { case: item } = result;
  const lines = [
    `${item.id} (${item.category}; ${item.source.repo} ${item.source.path} — ${item.source.test})`,
    `expected: ${item.expect.kind}, got: ${result.outcome}`,
    `args: ${JSON.stringify(item.args).slice(0, 600)}`,
    `tool ${result.toolResult.isError ? 'error' : 'success'}: ${result.toolResult.content.slice(0, 600)}`,
  ];
  if (item.expect.kind === 'apply' && result.outcome !== 'correct') {
    lines.push(`expected file: ${JSON.stringify(item.expect.content).slice(0, 600)}`);
  }
  if (result.outcome === 'wrong') lines.push(`file after: ${JSON.stringify(result.after).slice(0, 600)}`);
  if (item.note) lines.push(`note: ${item.note}`);
  return lines.join('\n');
}
