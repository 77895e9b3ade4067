import stringWidth from 'string-width';
import type { ActionRequest } from '../agent/types.js';
import { formatRule, type PolicyRule } from '../policy/index.js';

/**
 * What every front end shows before the user answers a permission prompt: the whole command (each
 * line, none cut), every path the action touches, the preview (a write's diff, a memory entry), and
 * the exact rule an "always" answer saves. Text from the model is untrusted: control characters,
 * escape sequences and invisible or reordering Unicode (bidi overrides, zero-width spaces) are
 * rendered as visible escapes (`\x1b`, `\r`, `\u202e`), so a command cannot repaint the prompt,
 * hide a line or make one line look like another.
 */

/** The parts of the gate's PermissionPrompt a display uses (it satisfies this type). */
export interface ApprovalRequest {
  action: ActionRequest;
  cwd?: string;
  reason?: string;
  alwaysRule?: PolicyRule;
  subagent?: { description: string };
  /** The worktree the asking agent works in. */
  worktree?: { path: string; branch?: string };
}

/** One display row: a gutter (`$ `, `> `, or blank on a wrapped row) and its text. */
export interface ApprovalRow {
  gutter: string;
  text: string;
  /** The first character of the diff line this row belongs to (`+`, `-`, `@`), for colour. */
  tone?: 'added' | 'removed' | 'hunk' | 'header';
}

export interface ApprovalView {
  /** `[subagent: …] asks:` when a subagent asks. */
  asker?: string;
  /** `Allow bash: npm test?` */
  title: string;
  /** `writes to worktree <path> (branch <b>)` when the asking agent works in a worktree. */
  tree?: string;
  reason?: string;
  /** The command, one entry per line, every line, escaped. */
  command?: string[];
  /** Where a command runs. */
  cwd?: string;
  /** Every path the action touches (the working directory of a command is in `cwd`). */
  paths: string[];
  /** A preview's lines, escaped (tabs as spaces). */
  preview?: { kind: 'diff' | 'text'; lines: string[] };
  /** The rule an "always" answer adds, as text. */
  rule?: string;
  /** Warnings worth a line of their own (escaped control characters, no OS sandbox). */
  notes: string[];
}

/** Characters that move the cursor, restyle or clear the screen, or are invisible / reorder text. */
const HIDING =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|\p{Cs}/gu;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

function codeEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16);
  if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
}

/** `text` with every hiding character written as a visible escape (`\x1b`, `\r`, `\n`, `\u202e`). */
export function visible(text: string): string {
  return text.replace(HIDING, (char) => NAMED[char] ?? codeEscape(char));
}

/** A command's lines, escaped; trailing empty lines (a final newline) are left off. */
export function commandLines(command: string): string[] {
  const lines = command.split('\n');
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map(visible);
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** `text` cut into pieces of at most `columns` display columns, nothing dropped (spaces kept
 * where a piece ends). An empty text is one empty piece. */
export function wrapColumns(text: string, columns: number): string[] {
  const width = Math.max(1, Math.floor(columns));
  if (PRINTABLE_ASCII.test(text)) {
    if (text.length <= width) return [text];
    const pieces: string[] = [];
    for (let start = 0; start < text.length; start += width) pieces.push(text.slice(start, start + width));
    return pieces;
  }
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const { segment } of graphemeSegmenter.segment(text)) {
    const size = stringWidth(segment);
    if (used + size > width && used > 0) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += segment;
    used += size;
  }
  pieces.push(piece);
  return pieces;
}

/** Rows of text lines under a gutter: `first` before line 1, `next` before the other lines, and
 * blanks of the same width before wrapped rows. No wrapping when `columns` is undefined. */
export function gutterRows(lines: readonly string[], first: string, next: string, columns?: number, tone?: (line: string) => ApprovalRow['tone']): ApprovalRow[] {
  const blank = ' '.repeat(Math.max(first.length, next.length));
  const rows: ApprovalRow[] = [];
  lines.forEach((line, index) => {
    const gutter = index === 0 ? first : next;
    const pieces = columns === undefined ? [line] : wrapColumns(line, columns - gutter.length);
    const lineTone = tone?.(line);
    pieces.forEach((piece, at) => rows.push({ gutter: at === 0 ? gutter : blank.slice(0, gutter.length), text: piece, ...(lineTone ? { tone: lineTone } : {}) }));
  });
  return rows;
}

/** A command as rows: `$ ` before its first line, `> ` before each further line (as a shell
 * continues one), wrapped rows indented under them. */
export function commandRows(lines: readonly string[], columns?: number): ApprovalRow[] {
  return gutterRows(lines, '$ ', '> ', columns);
}

function diffTone(line: string): ApprovalRow['tone'] {
  if (line.startsWith('+++') || line.startsWith('---')) return 'header';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return line.startsWith('@@') ? 'hunk' : undefined;
}

/** A preview (diff or text) as rows, wrapped at `columns` when given. */
export function previewRows(preview: NonNullable<ApprovalView['preview']>, columns?: number): ApprovalRow[] {
  return gutterRows(preview.lines, '', '', columns, preview.kind === 'diff' ? diffTone : undefined);
}

/** Past this length a command's own rule is named, not repeated (the command is shown in full). */
const INLINE_RULE_MAX = 60;

/** The rule an "always" answer adds. A bash rule whose pattern is the whole command, when that is
 * long or has several lines, points at the command shown above instead of repeating it. */
export function ruleText(rule: PolicyRule, command?: string): string {
  const pattern = rule.pattern;
  if (command !== undefined && pattern !== undefined && pattern === command.trim() && (pattern.includes('\n') || pattern.length > INLINE_RULE_MAX)) {
    const wildcard = pattern.includes('*') ? ', each * a wildcard' : '';
    return formatRule({ ...rule, pattern: `<the command above${wildcard}>` });
  }
  return visible(formatRule(rule));
}

/** The distinct escapes `visible` writes for these texts (the first few, then `…`). */
function escapesIn(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(HIDING)) found.add(NAMED[match[0]] ?? codeEscape(match[0]));
  const list = [...found];
  return list.length > 6 ? [...list.slice(0, 6), '…'] : list;
}

/** Whether a sandbox-aware gate marked the action as running outside the OS sandbox. */
function isUnsandboxed(action: ActionRequest): boolean {
  return (action as { unsandboxed?: unknown }).unsandboxed === true;
}

/** Which tree an agent in a worktree acts on: a write names it so it is not taken for the
 * project's own checkout. */
function treeText(action: ActionRequest, worktree: { path: string; branch?: string }): string {
  const verb = action.kind === 'read' ? 'reads' : action.kind === 'bash' || action.kind === 'git' ? 'runs in' : 'writes to';
  return `${verb} worktree ${visible(worktree.path)}${worktree.branch ? ` (branch ${visible(worktree.branch)})` : ''}`;
}

/** Everything a prompt shows, escaped, in display order. */
export function approvalView(request: ApprovalRequest): ApprovalView {
  const { action } = request;
  const runs = action.command !== undefined && (action.kind === 'bash' || action.kind === 'git');
  const cwd = runs ? request.cwd : undefined;
  const paths = action.paths.filter((path) => !(runs && path === request.cwd)).map(visible);
  const preview = action.preview;
  const previewLines =
    preview?.kind === 'diff' ? preview.diff : preview?.kind === 'text' ? preview.text : undefined;
  // Line breaks of a command or a preview are shown as line breaks (and a preview's tabs as spaces).
  const multiline = [(action.command ?? '').replace(/\n/g, ''), (previewLines ?? '').replace(/[\n\t]/g, '')];
  const raw = [...multiline, ...action.paths, request.cwd ?? '', action.summary, request.subagent?.description ?? ''];
  const notes: string[] = [];
  if (isUnsandboxed(action)) notes.push('runs OUTSIDE the OS sandbox');
  const hidden = escapesIn(raw);
  if (hidden.length > 0) notes.push(`hidden characters shown escaped: ${hidden.join(' ')}`);
  return {
    ...(request.subagent ? { asker: `[subagent: ${visible(request.subagent.description)}] asks:` } : {}),
    title: `Allow ${visible(action.summary)}?`,
    ...(request.worktree ? { tree: treeText(action, request.worktree) } : {}),
    ...(request.reason ? { reason: visible(request.reason) } : {}),
    ...(action.command !== undefined ? { command: commandLines(action.command) } : {}),
    ...(cwd !== undefined ? { cwd: visible(cwd) } : {}),
    paths,
    ...(previewLines !== undefined && previewLines !== ''
      ? { preview: { kind: preview!.kind === 'diff' ? 'diff' : 'text', lines: commandLines(previewLines.replace(/\n$/, '').replace(/\t/g, '    ')) } }
      : {}),
    ...(request.alwaysRule ? { rule: ruleText(request.alwaysRule, action.command) } : {}),
    notes,
  };
}

/**
 * The approval as plain text lines for the line-mode front end: everything, nothing capped (a
 * scrolling terminal keeps it all). `width`: wrap rows at this many columns (a terminal's width);
 * no wrapping when absent (a pipe).
 */
export function formatApprovalLines(request: ApprovalRequest, width?: number): string[] {
  const view = approvalView(request);
  const indent = '  ';
  const columns = width === undefined ? undefined : Math.max(20, width - indent.length);
  const out: string[] = [];
  if (view.asker) out.push(view.asker);
  out.push(view.title);
  if (view.tree) out.push(`${indent}${view.tree}`);
  // Prose lines are left to the terminal to wrap (at words); command and preview rows are cut into
  // rows under their gutter so a wrapped row cannot pass for a line of its own.
  const detail = (text: string): void => {
    out.push(`${indent}${text}`);
  };
  if (view.reason) detail(view.reason);
  if (view.command) {
    if (view.command.length > 1) out.push(`${indent}command, ${view.command.length} lines:`);
    for (const row of commandRows(view.command, columns)) out.push(`${indent}${row.gutter}${row.text}`);
  }
  if (view.cwd !== undefined) detail(`in ${view.cwd}`);
  if (view.paths.length === 1) detail(`path: ${view.paths[0]}`);
  else if (view.paths.length > 1) {
    out.push(`${indent}paths (${view.paths.length}):`);
    for (const path of view.paths) detail(`  ${path}`);
  }
  for (const note of view.notes) detail(`! ${note}`);
  if (view.preview) for (const row of previewRows(view.preview, columns)) out.push(`${indent}${row.text}`);
  if (view.rule) detail(`[a]lways adds the rule ${view.rule}: for this session, or saved to a config file (asked next)`);
  return out;
}
