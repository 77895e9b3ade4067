/**
 * What each task's child is told: its task, the plan's goal, the results it builds on (under the
 * seed's `## Results of earlier tasks` heading) and, for reviewers, the diffs to judge. A child's
 * prompt is capped at 32 KiB (MAX_PROMPT_BYTES), so inputs share what is left fairly: short ones
 * whole, long ones cut with a pointer to where the rest is.
 */
import { MAX_PROMPT_BYTES } from '../subagents/result-format.js';
import { VERDICT_RULE } from './roles.js';
import type { PlanTask, TaskRecord, Verdict } from './types.js';

export const RESULTS_HEADING = '## Results of earlier tasks';
export const CHANGES_HEADING = '## Changes to review';
/** Summaries in the tool result and in later prompts, like the agent tool's. */
export const SUMMARY_CAP = 4096;
/** Room kept free under MAX_PROMPT_BYTES for headings and separators. */
const MARGIN = 1024;

interface Section {
  title: string;
  body: string;
  /** Said after a cut body: where the whole of it is. */
  whole: string;
}

export interface PromptInput {
  goal?: string;
  task: PlanTask;
  /** Completed dependencies (serial: every earlier task), in plan order. */
  inputs: readonly TaskRecord[];
  /** For reviewers: the writers among the dependencies, in plan order. */
  changes?: readonly TaskRecord[];
  /** Said instead of diffs when the project has none to show (not a git repository). */
  noDiffReason?: string;
  /** Said to an editor whose worktree lacks the user's uncommitted changes. */
  worktreeNote?: string;
}

export function taskPrompt(input: PromptInput): string {
  const head: string[] = [];
  if (input.goal) head.push('## Goal', input.goal, '');
  head.push(`## Your task (${input.task.id}, ${input.task.role})`, input.task.task);
  if (input.worktreeNote) head.push('', input.worktreeNote);
  const opening = head.join('\n');

  const results: Section[] = input.inputs.map((record) => ({
    title: `### ${record.id} (${record.role})${record.verdict ? ` verdict: ${verdictText(record.verdict)}` : ''}`,
    body: record.summary ?? '(no summary)',
    whole: record.transcriptPath ? `the full transcript: ${record.transcriptPath}` : 'the rest is not available',
  }));
  const changes: Section[] = (input.changes ?? []).map((record) => ({
    title: `### ${record.id} (${record.role})${record.merge && 'commit' in record.merge ? ` merged as ${record.merge.commit.slice(0, 12)}` : ''}`,
    body: record.diff ?? input.noDiffReason ?? '(no diff recorded)',
    whole: 'run git diff or read the changed files',
  }));
  const closing = input.task.reviews ? `\n\n${VERDICT_RULE()}` : '';
  const fixed = Buffer.byteLength(opening) + Buffer.byteLength(closing) + MARGIN;
  const fitted = fitSections([...results, ...changes], MAX_PROMPT_BYTES - fixed);

  const parts = [opening];
  if (results.length > 0) parts.push('', RESULTS_HEADING, '', fitted.slice(0, results.length).join('\n\n'));
  if (input.task.reviews) {
    parts.push('', CHANGES_HEADING, '');
    parts.push(changes.length > 0 ? fitted.slice(results.length).join('\n\n') : '(this reviewer depends on no editor: review the current state of the code the task names)');
  }
  return parts.join('\n') + closing;
}

/**
 * Each section rendered as title + body, the bodies cut so all of them fit `budget` bytes:
 * sections smaller than an equal share keep everything, and what they leave is shared by the rest.
 */
export function fitSections(sections: readonly Section[], budget: number): string[] {
  const sizes = sections.map((section) => Buffer.byteLength(section.title) + 1 + Buffer.byteLength(section.body) + 2);
  const limits = sizes.map(() => Number.POSITIVE_INFINITY);
  let left = Math.max(0, budget);
  let open = sections.map((_, index) => index);
  while (open.length > 0) {
    const share = Math.floor(left / open.length);
    const small = open.filter((index) => sizes[index]! <= share);
    if (small.length === 0) {
      for (const index of open) limits[index] = share;
      break;
    }
    for (const index of small) left -= sizes[index]!;
    open = open.filter((index) => !small.includes(index));
  }
  return sections.map((section, index) => {
    const limit = limits[index]!;
    if (sizes[index]! <= limit) return `${section.title}\n${section.body}`;
    const room = limit - Buffer.byteLength(section.title) - 1 - 2; // the newline after the title, the blank line after the body
    return `${section.title}\n${cutBytes(section.body, room, `\n… (cut to fit; ${section.whole})`)}`;
  });
}

/** `text` cut to at most `max` bytes (at a character boundary), ending with `marker` when cut. */
export function cutBytes(text: string, max: number, marker: string): string {
  if (Buffer.byteLength(text) <= max) return text;
  const room = Math.max(0, max - Buffer.byteLength(marker));
  return Buffer.from(text).subarray(0, room).toString('utf8').replace(/\uFFFD+$/, '') + marker;
}

/** A child's final message as results carry it: at most SUMMARY_CAP bytes. */
export function capSummary(text: string, transcriptPath?: string): string {
  return cutBytes(text.trim(), SUMMARY_CAP, `\n…(truncated)${transcriptPath ? ` full text: ${transcriptPath}` : ''}`);
}

/**
 * The reviewer's verdict from its last `VERDICT:` line: `approve`, or problems counted from the
 * numbered or bulleted lines after it (at least one). `none` when there is no verdict line.
 */
export function parseVerdict(text: string): Verdict {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const match = /^[\s*_#>-]*VERDICT\s*:\s*\**\s*([A-Za-z ]+)/i.exec(lines[i]!);
    if (!match) continue;
    const word = match[1]!.trim().toLowerCase();
    if (word.startsWith('approve') || word === 'lgtm') return { kind: 'approve' };
    // \u2022 is the bullet character.
    const listed = lines.slice(i + 1).filter((line) => /^\s*(\d+[.)]|[-*\u2022])\s+\S/.test(line)).length;
    return { kind: 'problems', count: Math.max(1, listed) };
  }
  return { kind: 'none' };
}

export function verdictText(verdict: Verdict): string {
  if (verdict.kind === 'approve') return 'approve';
  if (verdict.kind === 'problems') return `problems(${verdict.count})`;
  return 'none';
}
