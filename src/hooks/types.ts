/** Shell hook events (seek-spec 2.4). Only `pre_tool` can block; every other event is an observer. */
export type HookEvent =
  | 'pre_tool'
  | 'post_tool'
  | 'pre_prompt'
  | 'session_start'
  | 'session_end'
  | 'pre_compact'
  | 'post_compact';

export const HOOK_EVENTS: readonly HookEvent[] = [
  'pre_tool',
  'post_tool',
  'pre_prompt',
  'session_start',
  'session_end',
  'pre_compact',
  'post_compact',
];

export const DEFAULT_HOOK_TIMEOUT_MS = 5000;

export type HookSource = 'project' | 'user';

/** One declared hook, validated. */
export interface HookDef {
  name: string;
  command: string;
  event: HookEvent;
  /** Exact tool name, or undefined for every tool (`"*"` and an absent match both mean all). */
  tool?: string;
  timeoutMs: number;
  source: HookSource;
  /** The hooks.toml it came from. */
  file: string;
}

/** Why a declared hook does not run. */
export type HookStatus =
  | { state: 'active' }
  | { state: 'untrusted' }
  | { state: 'skipped'; reason: string };

export interface HookEntry {
  hook: HookDef;
  status: HookStatus;
}

/** A file that could not be used, or a hook that could not be checked: reported, never thrown. */
export interface HookProblem {
  file: string;
  message: string;
  /** Set when the problem concerns one hook (the rest of the file loaded). */
  hook?: string;
}

export interface ProjectHooksFileInfo {
  path: string;
  sha256: string;
  /** Trusted for exactly this content. */
  trusted: boolean;
  /** Trusted before, for different content (re-asked). */
  changed: boolean;
}

export interface LoadedHooks {
  /** Runnable hooks in run order: project hooks first, then user hooks, each in declaration order. */
  hooks: HookDef[];
  /** Every declared hook with its status, for `seek hooks list` and `/hooks`. */
  entries: HookEntry[];
  problems: HookProblem[];
  /** One-line messages for the user: untrusted project hooks, skipped hooks, problems. */
  notices: string[];
  untrustedProjectHooks: boolean;
  projectFile?: ProjectHooksFileInfo;
}

/** One line of `hooks-audit.jsonl`. `project_id` and `subagent_id` extend the spec's fields. */
export interface AuditRecord {
  ts: string;
  event: HookEvent;
  hook: string;
  tool: string | null;
  session_id: string;
  duration_ms: number;
  exit_code: number | null;
  denied: boolean;
  reason: string | null;
  project_id?: string;
  subagent_id?: string;
}

export function matchesTool(hook: Pick<HookDef, 'tool'>, tool: string | undefined): boolean {
  return hook.tool === undefined || hook.tool === tool;
}
