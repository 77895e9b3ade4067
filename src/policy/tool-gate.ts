import { linkedAbort } from '../util/abort.js';
import type { ActionRequest, AfterToolCall, BeforeToolCall, ToolContext, WriteCheck } from '../agent/types.js';
import type { HookRunner } from '../hooks/runner.js';
import type { PermissionPolicy } from './policy.js';
import type { PolicyDecision, PolicyRule } from './types.js';
import type { SandboxLauncher } from '../sandbox/launcher.js';
import { commandRulesReady } from './command-rules.js';
import { judgedPaths, writeCheckFor } from './write-guard.js';

/** `always` keeps the suggested rule for this session; `always-local`, `always-project` and
 * `always-user` also save it to that config file (`.seek/config.local.json`, `.seek/config.json`,
 * `~/.seek/config.json`). */
export type AskAnswer = 'yes' | 'no' | 'always' | 'always-local' | 'always-project' | 'always-user' | StopAnswer | EditedAnswer;

/** A "yes" to other arguments (a program's `updatedInput`, stream-json's can_use_tool): the call
 * runs with `edited` instead, validated again by the tool's schema and judged again by the policy
 * (a deny rule still denies it; what the policy runs in the OS sandbox runs there). */
export interface EditedAnswer {
  edited: unknown;
}

/** A "no" from the user: the denial becomes the tool result. Without `feedback` the session's turn
 * ends there (the word goes back to the user) instead of the model carrying on by itself. With
 * `feedback` (what the user typed for seek to do differently) the correction is acted on at once:
 * the denial and the words go to the model and the turn goes on, as Claude Code does. A
 * subagent's gate treats both as a "no" (its run goes on: nobody waits on its loop). */
export interface StopAnswer {
  decline: 'stop';
  feedback?: string;
}

export function isAlways(answer: AskAnswer | 'aborted'): answer is 'always' | 'always-local' | 'always-project' | 'always-user' {
  return typeof answer === 'string' && answer.startsWith('always');
}

/** The tool result a declined call gets: what was declined and, when the user said it, what to do
 * instead (quoted as a block, so the model reads it as the user's words). */
export function declinedMessage(summary: string, feedback?: string): string {
  const said = feedback?.trim();
  if (!said) return `The user declined: ${summary}. Do not retry it unchanged; ask the user what they want instead, or take another approach.`;
  return `The user declined: ${summary}. They said what to do differently:\n${said}\nDo that instead; do not retry the declined call unchanged.`;
}

/** Where an "always" answer saves its rule, for the answers that save one. */
export type SavedRuleScope = 'local' | 'project' | 'user';

export function savedScopeOf(answer: AskAnswer): SavedRuleScope | undefined {
  return answer === 'always-local' ? 'local' : answer === 'always-project' ? 'project' : answer === 'always-user' ? 'user' : undefined;
}

/** Everything a front end needs to render a permission prompt. */
export interface PermissionPrompt {
  tool: string;
  callId: string;
  /** summary, paths, command, preview (a diff for writes). */
  action: ActionRequest;
  cwd: string;
  /** Why approval is needed ("bash needs approval", "read_file outside the project (/etc/x) needs approval"). */
  reason: string;
  /** The session rule an "always" answer adds; render it with `formatRule`. */
  alwaysRule: PolicyRule;
  /** Set when a subagent asks (its id and the description it was given). */
  subagent?: { id: string; description: string };
  /** Set when the asking agent works in a worktree: the tree the action reads or writes. */
  worktree?: { path: string; branch?: string };
  /** The call's validated arguments (what a program answering for the user sees as `input`). */
  input?: unknown;
}

export type AskFn = (request: PermissionPrompt, signal?: AbortSignal) => Promise<AskAnswer>;

/**
 * One question at a time across every gate of a session: the session's and each subagent's gate
 * ask concurrently, and a front end shows one prompt. Requests wait in FIFO order; one whose call
 * was cancelled while waiting is answered "no" without being shown.
 */
export function serializeAsk(ask: AskFn): AskFn {
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const turn = queue.then(() => (signal?.aborted ? ('no' as const) : ask(request, signal)));
    queue = turn.catch(() => undefined);
    return turn;
  };
}

export interface ToolGateOptions {
  policy: PermissionPolicy;
  hooks?: HookRunner;
  /** Absent in headless runs: then anything that needs approval is denied with the `--yolo` hint. */
  ask?: AskFn;
  subagent?: { id: string; description: string };
  /** The agent's workspace, when it can work in a worktree: hooks see project paths and
   * SEEK_WORKTREE_PATH, so the same hook rules apply inside and outside worktrees. */
  workspace?: { readonly worktree: { path: string; branch?: string } | undefined; mapToProject(text: string): string };
  /** Builds the OS sandbox for calls the policy lets run sandboxed. Absent: such calls cannot get
   * one, so they are refused (the policy is told no sandbox is available, so it never asks for one
   * when the session was wired without a launcher). */
  sandbox?: SandboxLauncher;
  /** Resolves once `policy.sandbox` and `sandbox` hold the detected OS sandbox (a headless session
   * detects on first need, permissions.ts). Awaited before the policy decides a call whose decision
   * may depend on it (`waitsForSandbox`), so no gate, the session's or a child's, ever decides on a
   * detection that has not finished. Absent: both already hold the detected status. */
  sandboxReady?: () => Promise<void>;
  /** Saves an "always" answer's rule to a config file (the answers that name one). A failure is
   * reported through `onProblem`; the rule still holds for the session. */
  saveRule?: (scope: SavedRuleScope, rule: PolicyRule) => Promise<void>;
  onProblem?: (text: string) => void;
  /** The allowed-tools of the skills and command active in this turn: a call outside them is
   * refused before hooks and policy (extensions/allowed-tools.ts). It never allows anything. */
  scope?: { refusal(toolName: string, callName: string): string | undefined };
}

export interface ToolGate {
  before: BeforeToolCall;
  after: AfterToolCall;
}

/** Whether the policy's decision on an action of this kind may depend on the OS sandbox. File and
 * memory tools run in seek's own process, so their decision never does: a headless session whose
 * first calls read or edit files spawns no bwrap probe for them. Everything else does: commands
 * (sandboxed or not), git, worktrees, and `agent`/`delegate_tasks` (their children's policies share
 * the sandbox status, settled before this decision). */
export function waitsForSandbox(kind: ActionRequest['kind']): boolean {
  return !(kind === 'read' || kind === 'write' || kind === 'edit' || kind === 'memory');
}

function withCheck(checkWrite: WriteCheck | undefined): { checkWrite?: WriteCheck } {
  return checkWrite ? { checkWrite } : {};
}

/** Prefix of a result produced by a pre_tool hook denial, so the model knows a hook (not the user,
 * not the mode) refused, and that retrying the same call will not help. */
export function hookDenialMessage(hook: string | undefined, reason: string): string {
  return `[denied by pre_tool hook${hook ? ` "${hook}"` : ''}] ${reason}`;
}

function argsJson(args: unknown, fallback: string): string {
  try {
    return JSON.stringify(args) ?? fallback;
  } catch {
    return fallback;
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | 'aborted'> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** How to let a fetch of `host` through without `--yolo`: a rule naming the host. */
function hostRuleHint(host: string): string {
  return `To allow this host alone, add "WebFetch(domain:${host})" to "permissions.allow" in ~/.seek/config.json.`;
}

/**
 * The gate the loop calls around every validated tool call, in this order:
 *  0. the active skill's or command's allowed-tools: a tool outside them is refused;
 *  1. pre_tool hooks (they see every call, described or not); a denial becomes the tool result,
 *     prefixed by `hookDenialMessage`;
 *  2. the policy, for tools that describe an action (no `describe` = no permission needed), once
 *     the OS sandbox's detection has finished when the decision may depend on it (`sandboxReady`):
 *     allow → run (inside the OS sandbox when the decision names a profile, rooted at the
 *     policy's root: the worktree of an isolated agent); deny → its message (with the `--yolo` or plan-mode hint) is the result;
 *     ask → the ask function; "always" adds the suggested session rule, then runs;
 *  3. `after` fires post_tool hooks with the result the model saw.
 * Prompts are asked one at a time (parallel read-only calls can both need one); each waiting call
 * is re-evaluated when its turn comes, so an "always" answer spares the calls queued behind it.
 */
export function createToolGate(options: ToolGateOptions): ToolGate {
  const { policy, hooks, ask, subagent, workspace, sandbox, sandboxReady, saveRule, onProblem, scope } = options;
  /** Hook view of a call: args with worktree paths mapped to the project, and the worktree path. */
  const hookView = (json: string): { argsJson: string; worktreePath?: string } => {
    const worktree = workspace?.worktree;
    return worktree ? { argsJson: workspace!.mapToProject(json), worktreePath: worktree.path } : { argsJson: json };
  };
  let askQueue: Promise<unknown> = Promise.resolve();

  /** The policy's decision, or the user's answer when it asked. */
  async function decideWithPrompt(
    toolName: string,
    action: ActionRequest,
    ctx: ToolContext,
    input: unknown,
  ): Promise<PolicyDecision | AskAnswer | 'aborted'> {
    const evaluate = () => policy.evaluate(action, { tool: toolName, cwd: ctx.cwd, canAsk: ask !== undefined });
    const first = evaluate();
    if (first.decision !== 'ask' || !ask) return first;
    const turn = askQueue.then(async (): Promise<PolicyDecision | AskAnswer | 'aborted'> => {
      const now = evaluate(); // the mode or the rules may have changed while this call waited
      if (now.decision !== 'ask') return now;
      const prompt: PermissionPrompt = {
        tool: toolName,
        callId: ctx.callId,
        action,
        cwd: ctx.cwd,
        reason: now.reason,
        alwaysRule: now.suggestedRule,
        ...(subagent ? { subagent } : {}),
        ...(workspace?.worktree ? { worktree: { path: workspace.worktree.path, ...(workspace.worktree.branch ? { branch: workspace.worktree.branch } : {}) } } : {}),
        input,
      };
      // The question's own signal: what a front end hangs on it goes with the answer, not with the run.
      const question = linkedAbort(ctx.signal);
      const answer = await abortable(ask(prompt, question.signal), ctx.signal).finally(() => question.dispose());
      // A fetch is asked once per host: a yes holds for the session (the suggested rule names the
      // host); an ask rule's question is asked every time.
      if (answer === 'yes' && action.host !== undefined && now.code === 'dangerous') policy.addRule(now.suggestedRule);
      if (isAlways(answer)) {
        policy.addRule(now.suggestedRule);
        const scope = savedScopeOf(answer);
        if (scope !== undefined) {
          try {
            if (!saveRule) throw new Error('this session cannot save rules');
            await saveRule(scope, now.suggestedRule);
          } catch (error) {
            onProblem?.(`could not save the rule to the ${scope} config: ${(error as Error).message}; it holds for this session only`);
          }
        }
      }
      return answer;
    });
    askQueue = turn.catch(() => undefined);
    return turn;
  }

  const before: BeforeToolCall = async ({ toolCall, tool, args, ctx, described }) => {
    const name = tool.callName?.(args) ?? tool.name;
    const refused = scope?.refusal(tool.name, name);
    if (refused !== undefined) return { allow: false, reason: refused };
    // Every call learns which files it must not show the model (grep over `.`, git diffs…).
    const guard = policy.readGuard(name);
    if (guard.active) ctx.readDenied = (p) => guard.denied(p);
    if (hooks?.has('pre_tool', name)) {
      const outcome = await hooks.preTool({
        tool: name,
        ...hookView(argsJson(args, toolCall.arguments)),
        ...(subagent ? { subagentId: subagent.id } : {}),
      });
      if (outcome.deny !== undefined) {
        const message = hookDenialMessage(outcome.hook, outcome.deny);
        return { allow: false, reason: tool.hookDenialResult ? tool.hookDenialResult(message) : message };
      }
    }

    if (!tool.describe) return { allow: true };
    let action: ActionRequest;
    try {
      action = described ?? (await tool.describe(args, ctx));
    } catch (error) {
      return { allow: false, reason: `[${tool.name}: failed] ${(error as Error).message}` };
    }

    if (sandboxReady && waitsForSandbox(action.kind)) {
      try {
        await sandboxReady();
      } catch (error) {
        return { allow: false, reason: `${action.summary}: not run, the OS sandbox could not be detected (${(error as Error).message}).` };
      }
    }
    // Rules that judge commands need the bash grammar, loaded at the first command (not at start).
    if (action.kind === 'bash') await commandRulesReady();
    // Where the call's files lead now, before anyone is asked: what a person's yes is about.
    const approved = judgedPaths(action);
    const checked = (paths: readonly string[]) => withCheck(writeCheckFor(policy, name, action, ctx.cwd, paths));
    let outcome: PolicyDecision | AskAnswer | 'aborted';
    try {
      outcome = await decideWithPrompt(name, action, ctx, args);
    } catch (error) {
      return { allow: false, reason: `${action.summary}: not run, the permission prompt failed (${(error as Error).message}).` };
    }
    // The read guard's extra reach (another hard link to a denied file), once the policy's own
    // deny rules (which name the path itself, with their message) have had their say.
    const deniedRead = action.kind === 'read' && guard.active && !(typeof outcome === 'object' && 'decision' in outcome && outcome.decision === 'deny') ? action.paths.map((p) => guard.denied(p)).find((rule) => rule !== undefined) : undefined;
    if (deniedRead !== undefined) return { allow: false, reason: `${action.summary}: denied by the rule ${deniedRead} (another name of this file is denied; it may not be read).` };
    if (typeof outcome === 'object' && 'edited' in outcome) return approveEdited(tool, name, outcome.edited, ctx);
    if (typeof outcome === 'object' && 'decline' in outcome) {
      const reason = declinedMessage(action.summary, outcome.feedback);
      // Words to act on continue the turn; a bare "no" hands the turn back.
      return subagent || outcome.feedback?.trim() ? { allow: false, reason } : { allow: false, reason, stopTurn: true };
    }
    if (typeof outcome === 'string') {
      if (outcome === 'yes' || isAlways(outcome)) return { allow: true, ...checked(approved) };
      if (outcome === 'aborted') return { allow: false, reason: `${action.summary}: canceled before the user answered.` };
      return { allow: false, reason: declinedMessage(action.summary) };
    }
    if (outcome.decision === 'allow') return allowed(outcome, action, undefined, checked([]));
    if (outcome.decision === 'deny') return { allow: false, reason: outcome.code === 'dangerous' && action.host !== undefined ? `${outcome.message} ${hostRuleHint(action.host)}` : outcome.message };
    // Unreachable: an ask decision without an ask function is already a denial.
    return { allow: false, reason: `${action.summary}: needs approval and nobody can be asked.` };
  };

  /** An allow decision: run, in the OS sandbox when it names a profile (refused without one). */
  function allowed(decision: Extract<PolicyDecision, { decision: 'allow' }>, action: ActionRequest, args: unknown, checked: { checkWrite?: WriteCheck }): Awaited<ReturnType<BeforeToolCall>> {
    const edited = args === undefined ? { ...checked } : { args, ...checked };
    if (decision.sandbox === undefined) return { allow: true, ...edited };
    if (!sandbox?.available) return { allow: false, reason: `${action.summary}: not run, it must run in the OS sandbox and none is available (see \`seek sandbox check\`).` };
    return { allow: true, ...edited, sandbox: sandbox.forCall(decision.sandbox, policy.root) };
  }

  /** An approval with other arguments (EditedAnswer): valid for the tool's schema, and judged again
   * by the policy: denied stays denied, allowed runs as allowed (sandboxed when so), and what it
   * would ask about runs as a person's yes does, since the answer was about these arguments. */
  async function approveEdited(tool: Parameters<BeforeToolCall>[0]['tool'], name: string, input: unknown, ctx: ToolContext): Promise<Awaited<ReturnType<BeforeToolCall>>> {
    const parsed = tool.schema.safeParse(input);
    if (!parsed.success) return { allow: false, reason: `Not run: the approver's updated input for ${name} is not valid (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}).` };
    let action: ActionRequest | undefined;
    try {
      action = tool.describe ? await tool.describe(parsed.data, ctx) : undefined;
    } catch (error) {
      return { allow: false, reason: `[${tool.name}: failed] ${(error as Error).message}` };
    }
    if (action === undefined) return { allow: true, args: parsed.data };
    const decision = policy.evaluate(action, { tool: name, cwd: ctx.cwd, canAsk: true });
    if (decision.decision === 'deny') return { allow: false, reason: decision.message };
    if (decision.decision === 'allow') return allowed(decision, action, parsed.data, withCheck(writeCheckFor(policy, name, action, ctx.cwd, [])));
    return { allow: true, args: parsed.data, ...withCheck(writeCheckFor(policy, name, action, ctx.cwd, judgedPaths(action))) };
  }

  const after: AfterToolCall = async ({ toolCall, tool, args, result }) => {
    const name = tool.callName?.(args) ?? tool.name;
    if (!hooks?.has('post_tool', name)) return;
    await hooks.postTool({
      tool: name,
      ...hookView(argsJson(args, toolCall.arguments)),
      result: result.content,
      ok: result.isError !== true,
      ...(subagent ? { subagentId: subagent.id } : {}),
    });
  };

  return { before, after };
}
