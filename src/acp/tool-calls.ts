import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { ActionRequest, ToolDisplay } from '../agent/types.js';
import { keyArgument } from '../tui/state/key-argument.js';

/**
 * How seek's tool calls look to an ACP client: the kind (the editor's icon), a title, the files a
 * call touches (follow-along), and content: edits as diffs the editor renders, other results as
 * text. Type-only imports of the SDK: this file adds nothing to start-up.
 */

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  bash: 'execute',
  git: 'execute',
  glob: 'search',
  grep: 'search',
  list_dir: 'search',
  mcp_search: 'search',
  tool_search: 'search',
  memory_recall: 'search',
  todo_write: 'think',
  agent: 'think',
  delegate_tasks: 'think',
  enter_worktree: 'switch_mode',
  exit_worktree: 'switch_mode',
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

/** `read src/a.ts`, `bash: npm test`: the action's own summary when the tool describes one. */
export function toolTitle(name: string, args: unknown, action?: ActionRequest): string {
  if (action?.summary) return action.summary;
  const key = keyArgument(name, args);
  return key ? `${name} ${key}` : name;
}

/** The files a call reads or writes (absolute paths), for the editor to follow. A command's paths
 * are its working directory: not followed. */
export function toolLocations(name: string, args: unknown, action?: ActionRequest): ToolCallLocation[] {
  if (!action || action.kind === 'bash' || action.kind === 'git') return [];
  const line = name === 'read_file' ? numberArg(args, 'offset') : undefined;
  return action.paths.map((path) => ({ path, ...(line !== undefined ? { line } : {}) }));
}

function numberArg(args: unknown, key: string): number | undefined {
  const value = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' ? value : undefined;
}

/** Caps the text of a result copied into an update; the full text is in the session file. */
const MAX_TEXT = 8000;

export function textContent(text: string): ToolCallContent {
  const capped = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  return { type: 'content', content: { type: 'text', text: capped } };
}

/**
 * A unified diff (seek's write and edit displays) as ACP diffs of `absPath`: one per hunk, the old
 * and new text of its lines (context included), so the editor renders each change in place. A
 * created file is one diff without old text. Empty when the display holds no hunk (a diff too large
 * to show).
 */
export function diffContent(absPath: string, display: ToolDisplay | undefined, created: boolean): ToolCallContent[] {
  if (display?.kind !== 'diff') return [];
  const hunks = parseHunks(display.diff);
  if (created) return [{ type: 'diff', path: absPath, newText: hunks.map((hunk) => hunk.newText).join('') }];
  return hunks.map((hunk) => ({ type: 'diff', path: absPath, oldText: hunk.oldText, newText: hunk.newText }));
}

interface Hunk {
  oldText: string;
  newText: string;
  /** First line of the hunk in the new text (1-based). */
  newStart: number;
}

/** The hunks of a unified diff, each side's lines joined back into text. */
export function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: { old: string[]; next: string[]; newStart: number } | undefined;
  const close = (): void => {
    if (current) hunks.push({ oldText: joinLines(current.old), newText: joinLines(current.next), newStart: current.newStart });
  };
  for (const line of diff.split('\n')) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      close();
      current = { old: [], next: [], newStart: Number(header[1]) };
      continue;
    }
    if (!current) continue;
    if (line.startsWith(' ')) {
      current.old.push(line.slice(1));
      current.next.push(line.slice(1));
    } else if (line.startsWith('-')) current.old.push(line.slice(1));
    else if (line.startsWith('+')) current.next.push(line.slice(1));
  }
  close();
  return hunks;
}

function joinLines(lines: string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The first changed line of an edit, for the editor to jump to. */
export function firstChangedLine(display: ToolDisplay | undefined): number | undefined {
  return display?.kind === 'diff' ? parseHunks(display.diff)[0]?.newStart : undefined;
}
