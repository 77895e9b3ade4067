/**
 * Which completion applies at the cursor, and what accepting one does to the text. Pure.
 *
 * - Slash: the input is one line starting with `/` and the cursor is at its end. Candidates come
 *   from `completer.slash(line)`; the token they replace is the last space-separated word (the
 *   whole `/name` while the name is typed, then the argument being typed).
 * - File: the cursor is in or right after a word that starts with `@` at the start of the input
 *   or after whitespace (so `me@host` is not one). Candidates come from `completer.files(query)`
 *   where the query is the text between `@` and the cursor; a candidate's value is a path, which
 *   replaces the whole word after the `@`.
 */
import type { Completer, Completion } from '../types.js';
import type { EditorState } from './editor-state.js';

export interface CompletionContext {
  kind: 'slash' | 'file';
  /** The text being completed: `[start, end)` of the value is replaced on accept. */
  start: number;
  end: number;
  /** What the user typed of the token (slash: the token; file: the query after `@`). */
  typed: string;
  items: readonly Completion[];
}

export function completionContext(state: EditorState, completer: Completer): CompletionContext | null {
  return slashContext(state, completer) ?? fileContext(state, completer);
}

function slashContext(state: EditorState, completer: Completer): CompletionContext | null {
  const { value, cursor } = state;
  if (!value.startsWith('/') || value.includes('\n') || cursor !== value.length) return null;
  const start = Math.max(value.lastIndexOf(' '), value.lastIndexOf('\t')) + 1;
  const typed = value.slice(start);
  const items = completer.slash(value);
  // Nothing to offer when the one candidate is what is already there (`/help` fully typed).
  if (items.length === 0 || (items.length === 1 && items[0]!.value === typed)) return null;
  return { kind: 'slash', start, end: value.length, typed, items };
}

function fileContext(state: EditorState, completer: Completer): CompletionContext | null {
  const { value, cursor } = state;
  let at = cursor;
  while (at > 0 && !/\s/.test(value[at - 1]!)) at -= 1;
  if (value[at] !== '@' || at >= cursor) return null;
  let end = cursor;
  while (end < value.length && !/\s/.test(value[end]!)) end += 1;
  const typed = value.slice(at + 1, cursor);
  const items = completer.files(typed);
  const current = value.slice(at + 1, end);
  if (items.length === 0 || (items.length === 1 && items[0]!.value === current)) return null;
  return { kind: 'file', start: at + 1, end, typed, items };
}

export interface AcceptedCompletion {
  state: EditorState;
  /**
   * Whether Enter should submit right after accepting. True for a slash candidate that expects
   * nothing more: by convention (see `createSlashCompleter`) a command that takes arguments
   * completes with a trailing space (`/model `), one that does not completes bare (`/help`), and
   * an argument completes bare too.
   */
  complete: boolean;
}

export function acceptCompletion(state: EditorState, context: CompletionContext, item: Completion): AcceptedCompletion {
  const before = state.value.slice(0, context.start);
  const after = state.value.slice(context.end);
  let inserted = item.value;
  let skip = 0;
  if (context.kind === 'file' && !inserted.endsWith('/')) {
    // A file is followed by a space (reusing one already there); a directory (`src/`) stays open
    // for the next path segment.
    if (/^[ \t]/.test(after)) skip = 1;
    else inserted += ' ';
  }
  const cursor = before.length + inserted.length + skip;
  return {
    state: { value: before + inserted + after, cursor },
    complete: context.kind === 'slash' && !/\s$/.test(item.value),
  };
}
