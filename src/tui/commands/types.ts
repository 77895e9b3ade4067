import type { EntryInput } from '../../memory/entry.js';
import type { AgentSession } from '../../runtime/session.js';
import type { SubagentsState } from '../state/subagents.js';
import type { Completion } from '../types.js';

/** A list the user picks one entry from (sessions for /resume, models for /model). */
export interface PickerSpec {
  title: string;
  items: Array<{ value: string; label: string; description?: string }>;
  onSelect: (value: string) => void | Promise<void>;
}

/**
 * A live panel the App renders in place of the input (it keeps updating while open, unlike a
 * picker's fixed list). Commands name the panel; the App owns its component and data.
 */
export type PanelSpec =
  | { kind: 'agents' }
  | { kind: 'worktrees' }
  | { kind: 'memory' }
  | { kind: 'permissions' }
  /** The whole output of the latest tool row (Ctrl+T), other rows a key away. */
  | { kind: 'tool-output' }
  | { kind: 'distill'; candidates: readonly EntryInput[] }
  /** A long text (a diff) to scroll through; `onClose` runs after Esc closed it. */
  | { kind: 'text'; title: string; lines: readonly string[]; style?: 'diff' | 'plain'; onClose?: () => void };

/** What a slash command may do to the UI. Commands never touch Ink directly. */
export interface CommandContext {
  session: AgentSession;
  /** The terminal's width in columns, for text laid out to fit it (/help's hanging indent). */
  width?: number;
  notice(text: string, level?: 'info' | 'warn' | 'error'): void;
  /** Replaces the session: a fresh one (/clear) or a saved one (/resume); `draft` goes into the
   * input (the prompt of a rewound turn). */
  switchSession(options: { resume?: string; draft?: string; fork?: boolean }): Promise<void>;
  openPicker(picker: PickerSpec): void;
  openPanel(panel: PanelSpec): void;
  /** This session's subagents as the UI knows them now (see state/subagents.ts). */
  subagents(): SubagentsState;
  /** Runs something long (a compaction) with the busy indicator and Esc to cancel. */
  runBusy<T>(label: string, task: (signal: AbortSignal) => Promise<T>): Promise<T | undefined>;
  exit(): void;
}

/** A slash command: one file each in this folder, registered in index.ts. */
export interface SlashCommand {
  name: string;
  description: string;
  /** Argument hint shown in /help, e.g. "[NAME]". */
  usage?: string;
  /** Completions for the argument being typed. */
  args?: (partial: string, context: { session: AgentSession }) => Completion[];
  /** Usable while a turn runs (read-only views, /agents to watch or stop children). */
  whileRunning?: boolean;
  run(context: CommandContext, args: string): void | Promise<void>;
}
