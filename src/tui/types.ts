import type { ToolDisplay } from '../agent/types.js';

/**
 * One row of the conversation as the terminal UI shows it. The UI builds these from session
 * events (see state/conversation.ts); components render them and never look at raw events.
 */
export type ConversationItem =
  | {
      kind: 'user';
      id: string;
      /** As the conversation shows it: a paste folded to `[pasted text: N lines]`, a custom command
       * as its name and arguments. */
      text: string;
      /** What was sent, when `text` folds it; shown in the transcript (Ctrl+O). */
      full?: string;
      queued?: boolean;
    }
  | {
      kind: 'assistant';
      id: string;
      turn: number;
      /** Markdown, possibly still streaming. */
      text: string;
      reasoning: string;
      streaming: boolean;
      /** Continues the answer of the item before it (a streaming answer's completed blocks are
       * committed early, see state/conversation.ts). */
      continued?: boolean;
      /** Characters of this turn's answer already committed in earlier items. */
      committedChars?: number;
      /** Continues a code block cut at a line (a long block streams into the scrollback a few
       * lines at a time): `text` starts with this fence opener, which is not in the answer, and
       * the item is drawn right under the one before, without its language label. */
      reopenedFence?: string;
      /** Continues the block of the item before it, cut between two of its lines (a long list or
       * paragraph streams into the scrollback as it goes): drawn right under it, no blank row. */
      joined?: boolean;
    }
  | {
      kind: 'tool';
      /** The tool call id. */
      id: string;
      name: string;
      /** The key argument, one line: a path, a command, a pattern. */
      summary: string;
      /** The files the call touches, absolute (none for commands): the row links the path it shows. */
      paths?: string[];
      status: 'running' | 'done' | 'error' | 'denied';
      durationMs?: number;
      /** What a screen shows (a diff, a command's output…), once finished. */
      display?: ToolDisplay;
      /** What the model saw; the fallback when there is no display. */
      output?: string;
      /** Live output of a running command (bash), appended as it arrives. */
      partial?: string;
      /** Set when a subagent made the call (later issues). */
      agent?: string;
    }
  | { kind: 'notice'; id: string; level: 'info' | 'warn' | 'error'; text: string }
  | { kind: 'compaction'; id: string; reason: 'auto' | 'manual'; replacedMessages: number; summary: string };

/** How much of an item to show. `detail` (transcript mode, Ctrl+O) expands tool output and
 * reasoning; otherwise tool rows are one line and reasoning shows only while it streams. */
export interface ItemViewOptions {
  width: number;
  detail: boolean;
  color: boolean;
  /** Printed into the scrollback (<Static>): code lines, URLs and paths wider than `width` stay
   * whole lines, for the terminal to soft-wrap (copying gives them unbroken). */
  keepLongLines?: boolean;
}

/** A completion candidate for the input editor (slash commands, their arguments, @files). */
export interface Completion {
  /** Text that replaces the token being completed. */
  value: string;
  /** Shown in the menu; defaults to value. */
  label?: string;
  description?: string;
}

/** Supplies completions for the token under the cursor. */
export interface Completer {
  /** `/mo` → [/model …]; `/model deep` → model names. `line` is the whole input so far. */
  slash(line: string): Completion[];
  /** `@src/ag` → fuzzy matches over the project's files (without the `@`). */
  files(query: string): Completion[];
}

/** Input history shared by the sessions of one project (Up/Down). */
export interface InputHistory {
  /** Oldest first. */
  entries(): readonly string[];
  add(text: string): void;
}
