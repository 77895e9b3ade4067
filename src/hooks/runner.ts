import { appendAudit } from './audit.js';
import { runShell, type ShellResult } from './exec.js';
import { changedPin } from './scripts.js';
import { matchesTool, type HookDef, type HookEvent, type LoadedHooks } from './types.js';

/** Byte cap for SEEK_TOOL_RESULT and SEEK_PROMPT (seek-spec 2.4). */
export const RESULT_ENV_MAX_BYTES = 4096;

export interface HookRunnerEnv {
  sessionId: string;
  projectId: string;
  /** The project root: hooks run there and see it as SEEK_PROJECT_PATH. */
  projectPath: string;
  version: string;
}

export interface HookRunnerOptions {
  /** Runnable hooks (a `loadHooks` result, or its `hooks`). Order is run order. */
  hooks: readonly HookDef[] | LoadedHooks;
  seekHome: string;
  env: HookRunnerEnv;
  /** Observer failures and audit-write failures; never thrown. Default: ignored. */
  onProblem?: (message: string) => void;
  /** Write `hooks-audit.jsonl` (default true). */
  audit?: boolean;
}

export interface ToolHookCall {
  tool: string;
  /** The call's arguments as JSON; re-serialised on one line for SEEK_TOOL_ARGS_JSON. */
  argsJson: string;
  /** Set when the call comes from a subagent (SEEK_SUBAGENT_ID; empty otherwise). */
  subagentId?: string;
  /** Set when the agent works in a seek worktree (SEEK_WORKTREE_PATH; empty otherwise). Paths in
   * `argsJson` are already mapped back to the project by the caller. */
  worktreePath?: string;
}

export interface PostToolHookCall extends ToolHookCall {
  /** What the model saw; SEEK_TOOL_RESULT gets at most 4096 bytes + " [truncated]". */
  result: string;
  ok: boolean;
}

export interface PreToolOutcome {
  /** Set when a hook denied the call: the reason (trimmed stdout, or a generated line). */
  deny?: string;
  /** The hook that denied. */
  hook?: string;
}

/**
 * Runs shell hooks for one session. Hooks of one event run serially in the given order. Only
 * `preTool` can block (first denial stops the chain); every other event is an observer whose
 * failures go to `onProblem` and the audit log and never reach the caller. No method rejects.
 * A trusted project hook whose pinned files (HookDef.pinned) changed since they were trusted is not
 * run while they differ: that is reported (once per hook), audited (exit_code null) and, for
 * pre_tool, neither allows nor denies: the chain goes on, as for an untrusted project hook.
 * Extra env (extensions): SEEK_PROMPT for pre_prompt (capped like the result), SEEK_EVENT_JSON
 * (one-line JSON details) for session and compaction events.
 */
export interface HookRunner {
  readonly hooks: readonly HookDef[];
  /** True when some hook would run for this event (and tool): callers can skip work otherwise. */
  has(event: HookEvent, tool?: string): boolean;
  preTool(call: ToolHookCall): Promise<PreToolOutcome>;
  postTool(call: PostToolHookCall): Promise<void>;
  prePrompt(text: string): Promise<void>;
  sessionStart(details?: object): Promise<void>;
  sessionEnd(summary?: object): Promise<void>;
  preCompact(details?: object): Promise<void>;
  postCompact(details?: object): Promise<void>;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes (never inside a character) + " [truncated]". */
export function truncateBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // back off continuation bytes
  return `${bytes.subarray(0, end).toString('utf8')} [truncated]`;
}

/** Environment values cannot hold NUL bytes. */
function envSafe(value: string): string {
  return value.replace(/\0/g, '');
}

function oneLineJson(argsJson: string): string {
  try {
    return JSON.stringify(JSON.parse(argsJson));
  } catch {
    return argsJson.replace(/[\r\n]+/g, ' ');
  }
}

interface Invocation {
  event: HookEvent;
  tool?: string;
  subagentId?: string;
  worktreePath?: string;
  vars: Record<string, string>;
}

function isLoaded(value: readonly HookDef[] | LoadedHooks): value is LoadedHooks {
  return !Array.isArray(value);
}

export function createHookRunner(options: HookRunnerOptions): HookRunner {
  const hooks: readonly HookDef[] = isLoaded(options.hooks) ? options.hooks.hooks : options.hooks;
  const { env, seekHome } = options;
  const report = (message: string): void => options.onProblem?.(message);
  const selected = (event: HookEvent, tool?: string): HookDef[] =>
    hooks.filter((h) => h.event === event && (event === 'pre_tool' || event === 'post_tool' ? matchesTool(h, tool) : true));

  function baseEnv(inv: Invocation): NodeJS.ProcessEnv {
    return {
      ...process.env,
      SEEK_VERSION: env.version,
      SEEK_SESSION_ID: env.sessionId,
      SEEK_PROJECT_ID: env.projectId,
      SEEK_PROJECT_PATH: env.projectPath,
      SEEK_EVENT: inv.event,
      SEEK_TOOL_NAME: inv.tool ?? '',
      SEEK_TOOL_ARGS_JSON: '',
      SEEK_TOOL_RESULT: '',
      SEEK_TOOL_EXIT_OK: '',
      SEEK_SUBAGENT_ID: inv.subagentId ?? '',
      SEEK_WORKTREE_PATH: inv.worktreePath ?? '',
      ...Object.fromEntries(Object.entries(inv.vars).map(([k, v]) => [k, envSafe(v)])),
    };
  }

  async function audit(hook: HookDef, inv: Invocation, result: ShellResult, denied: boolean, reason: string | null): Promise<void> {
    if (options.audit === false) return;
    try {
      await appendAudit(seekHome, {
        ts: new Date().toISOString(),
        event: inv.event,
        hook: hook.name,
        tool: inv.tool ?? null,
        session_id: env.sessionId,
        duration_ms: result.durationMs,
        exit_code: result.exitCode,
        denied,
        reason,
        project_id: env.projectId,
        ...(inv.subagentId ? { subagent_id: inv.subagentId } : {}),
      });
    } catch (error) {
      report(`cannot write the hooks audit log: ${(error as Error).message}`);
    }
  }

  async function run(hook: HookDef, inv: Invocation): Promise<ShellResult> {
    return runShell(hook.command, { cwd: env.projectPath, env: baseEnv(inv), timeoutMs: hook.timeoutMs });
  }

  /** Why a run failed, or null when it succeeded. */
  function failure(hook: HookDef, result: ShellResult, denying: boolean): string | null {
    if (result.spawnError) return `hook "${hook.name}" could not run: ${result.spawnError}`;
    if (result.timedOut) {
      return `hook "${hook.name}" timed out after ${hook.timeoutMs}ms${denying ? ' — treating as deny' : ''}`;
    }
    if (result.exitCode === 0) return null;
    if (denying) return result.stdout.trim() || `hook "${hook.name}" exited with code ${result.exitCode}`;
    return `hook "${hook.name}" exited with code ${result.exitCode}${result.stderr.trim() ? `: ${result.stderr.trim().split('\n')[0]}` : ''}`;
  }

  const reportedPins = new Set<HookDef>();
  /** Why a pinned project hook must not run (one of its files changed since trust), or null. */
  async function untrustedNow(hook: HookDef, inv: Invocation): Promise<string | null> {
    if (!hook.pinned || hook.pinned.length === 0) return null;
    const changed = await changedPin(hook.pinned);
    if (!changed) return null;
    const reason = `project hook "${hook.name}" not run: script changed since trusted: ${changed.relative} — review it, then run \`seek hooks trust\``;
    if (!reportedPins.has(hook)) report(reason);
    reportedPins.add(hook);
    await audit(hook, inv, { exitCode: null, stdout: '', stderr: '', timedOut: false, durationMs: 0 }, false, reason);
    return reason;
  }

  async function observe(inv: Invocation): Promise<void> {
    for (const hook of selected(inv.event, inv.tool)) {
      try {
        if ((await untrustedNow(hook, inv)) !== null) continue;
        const result = await run(hook, inv);
        const reason = failure(hook, result, false);
        if (reason) report(`${inv.event} ${reason}`);
        await audit(hook, inv, result, false, reason);
      } catch (error) {
        report(`${inv.event} hook "${hook.name}" failed: ${(error as Error).message}`);
      }
    }
  }

  const details = (value?: object): Record<string, string> => {
    if (value === undefined) return {};
    try {
      return { SEEK_EVENT_JSON: JSON.stringify(value) ?? '' };
    } catch {
      return { SEEK_EVENT_JSON: '' }; // cycles or bigints: the hook still runs
    }
  };

  return {
    hooks,
    has: (event, tool) => selected(event, tool).length > 0,

    async preTool(call) {
      const inv: Invocation = {
        event: 'pre_tool',
        tool: call.tool,
        ...(call.subagentId ? { subagentId: call.subagentId } : {}),
        ...(call.worktreePath ? { worktreePath: call.worktreePath } : {}),
        vars: { SEEK_TOOL_ARGS_JSON: oneLineJson(call.argsJson) },
      };
      for (const hook of selected('pre_tool', call.tool)) {
        let result: ShellResult;
        try {
          if ((await untrustedNow(hook, inv)) !== null) continue;
          result = await run(hook, inv);
        } catch (error) {
          // Fail closed: a pre_tool hook that cannot run denies.
          return { deny: `hook "${hook.name}" could not run: ${(error as Error).message}`, hook: hook.name };
        }
        const reason = failure(hook, result, true);
        await audit(hook, inv, result, reason !== null, reason);
        if (reason !== null) return { deny: reason, hook: hook.name };
      }
      return {};
    },

    postTool: (call) =>
      observe({
        event: 'post_tool',
        tool: call.tool,
        ...(call.subagentId ? { subagentId: call.subagentId } : {}),
        ...(call.worktreePath ? { worktreePath: call.worktreePath } : {}),
        vars: {
          SEEK_TOOL_ARGS_JSON: oneLineJson(call.argsJson),
          SEEK_TOOL_RESULT: truncateBytes(call.result, RESULT_ENV_MAX_BYTES),
          SEEK_TOOL_EXIT_OK: call.ok ? '1' : '0',
        },
      }),
    prePrompt: (text) => observe({ event: 'pre_prompt', vars: { SEEK_PROMPT: truncateBytes(text, RESULT_ENV_MAX_BYTES) } }),
    sessionStart: (value) => observe({ event: 'session_start', vars: details(value) }),
    sessionEnd: (value) => observe({ event: 'session_end', vars: details(value) }),
    preCompact: (value) => observe({ event: 'pre_compact', vars: details(value) }),
    postCompact: (value) => observe({ event: 'post_compact', vars: details(value) }),
  };
}
