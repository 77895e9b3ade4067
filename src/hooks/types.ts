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
  /** The tool matcher as written (`bash`, `Bash|Write`, `mcp__github__*`; grammar in matcher.ts), or
   * undefined for every tool (`"*"` and an absent match both mean all). */
  tool?: string;
  timeoutMs: number;
  source: HookSource;
  /** The hooks.toml it came from. */
  file: string;
  /** Project files the command names, as trusted (trusted project hooks only). The runner re-hashes
   * them before every run and does not run the hook when one changed. */
  pinned?: readonly PinnedFile[];
}

/** A project file a trusted hook's command runs (or a package.json `scripts` entry it runs), with
 * the content hash it was trusted for (src/util/covered-files.ts). */
export interface PinnedFile {
  /** Absolute path (the package.json, for a scripts entry). */
  path: string;
  /** Path relative to the project root, `/`-separated (`package.json#scripts.X` for a scripts
   * entry): what messages and the trust record show. */
  relative: string;
  sha256: string;
  /** Set for a package.json scripts entry: its name. */
  script?: string;
}

/** Why a declared hook does not run. */
export type HookStatus =
  | { state: 'active' }
  /** `reason`: `not trusted`, `hooks.toml changed since trusted`, `script changed: scripts/guard.sh`, … */
  | { state: 'untrusted'; reason: string }
  | { state: 'skipped'; reason: string };

export interface HookEntry {
  hook: HookDef;
  status: HookStatus;
}

/** A file that could not be used (fatal: see `hooksStartupError`), or a hook that could not be
 * checked (`hook` set; reported only). `loadHooks` returns these, never throws them. */
export interface HookProblem {
  file: string;
  /** 1-based position in the file, when known (TOML syntax errors; located validation errors). */
  line?: number;
  column?: number;
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

export { matchesTool } from './matcher.js';
