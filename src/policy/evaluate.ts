/**
 * How one request is decided: deny and ask rules, read-only inspectors, the workflow (plan),
 * allow rules, then the preference (ask, auto, yolo). Everything it depends on besides the request is
 * the PolicyState; PermissionPolicy (policy.ts) holds that state for one agent.
 */
import path from 'node:path';
import type { ActionRequest } from '../agent/types.js';
import { isReadOnlyInspector } from './inspectors.js';
import { isInside } from './paths.js';
import { protectedWrite } from './protected-paths.js';
import { coverCommand, denyMatch } from './command-rules.js';
import { DEFAULT_RULES, SOURCE_PRECEDENCE, formatRule, ruleAppliesTo, ruleMatches, suggestRule } from './rules.js';
import { formatSimpleCommand } from './shell-commands.js';
import {
  PREFERENCES,
  type EvaluateContext,
  type PolicyDecision,
  type PolicyRule,
  type Preference,
  type SandboxAvailability,
  type Workflow,
} from './types.js';

/** Everything a decision depends on, besides the request. */
export interface PolicyState {
  /** Containment root: the project root, or the worktree of an isolated child. Absolute. */
  root: string;
  preference: Preference;
  workflow: Workflow;
  /** Set when the user approved a plan; never inherited, reset by every workflow change. */
  preApproved: boolean;
  /** Non-default rules (user, project, session, spawn), in declaration order. */
  rules: readonly PolicyRule[];
  /** Whether commands can be sandboxed on this machine (fixed for a process; children inherit it). */
  sandbox: SandboxAvailability;
  /** Folders outside the root whose files are read as if inside it (the user's skill folders);
   * deny rules still apply. Reads only: writes, edits and commands there stay outside. */
  readRoots?: readonly string[];
}

const YOLO_HINT = 're-run seek with --yolo to allow it, or use --plan for read-only analysis.';
/** For edits and commands inside the project, which --auto allows (commands sandboxed). */
const AUTO_HINT = 're-run seek with --auto to allow edits and commands inside the project (commands sandboxed), or --yolo to allow everything.';

function subject(label: string, outside: string[]): string {
  return outside.length > 0 ? `${label} outside the project (${outside[0]})` : label;
}

/** Sources whose allow rules were written ahead of time (config files, a command's or skill's
 * allowed-tools): the command they allow still runs in the sandbox. Session rules are a person's
 * answer to the exact action: unsandboxed. */
const SANDBOXED_RULE_SOURCES = new Set(['user', 'project', 'local', 'command']);

/** The first path of a write or edit that lands in git metadata or `.seek/` (protected-paths.ts),
 * with what it is; only a person (a yes, an "always" for the session) or yolo lets such a write run. */
function protectedTarget(state: PolicyState, request: ActionRequest): { path: string; what: string } | undefined {
  if (request.kind !== 'write' && request.kind !== 'edit') return undefined;
  for (const p of request.paths) {
    const what = protectedWrite(state.root, p);
    if (what !== undefined) return { path: path.relative(state.root, p) || p, what };
  }
  return undefined;
}

function noSandboxNote(state: PolicyState): string {
  return `no OS sandbox is available here (${state.sandbox.reason ?? 'unknown reason'}; see \`seek sandbox check\`)`;
}

/** Allow and ask rules by source precedence: the first source with a matching ask rule asks; an
 * allow decision needs the action covered by allow rules of that source or more specific ones (a
 * bash line: every simple command it runs, each by one of them, command-rules.ts). */
function decideByRules(
  state: PolicyState,
  request: ActionRequest,
  tool: string | undefined,
  cwd: string,
): { decision: 'ask'; rule: PolicyRule } | { decision: 'allow'; rules: PolicyRule[] } | undefined {
  const pool: PolicyRule[] = [];
  const bashLine = request.kind === 'bash' ? request.command : undefined;
  for (const source of SOURCE_PRECEDENCE) {
    if (source === 'default') break;
    const here = state.rules.filter((r) => r.source === source && r.decision !== 'deny' && ruleAppliesTo(r, request, tool));
    const ask = here.find((r) => r.decision === 'ask' && ruleMatches(r, request, tool, state.root, cwd));
    if (ask) return { decision: 'ask', rule: ask };
    const allows = here.filter((r) => r.decision === 'allow');
    if (bashLine !== undefined) {
      pool.push(...allows);
      const covered = pool.length > 0 ? coverCommand(bashLine, pool, { root: state.root, cwd }) : undefined;
      if (covered) return { decision: 'allow', rules: covered.rules };
    } else {
      const allow = allows.find((r) => ruleMatches(r, request, tool, state.root, cwd));
      if (allow) return { decision: 'allow', rules: [allow] };
    }
  }
  return undefined;
}

/** Where a rule was written, for messages: its file, or its source. */
export function ruleWhere(rule: PolicyRule): string {
  return rule.origin?.file ? `from ${rule.origin.file}` : `(a ${rule.source} rule)`;
}

/** What a bash rule matched, for messages: the simple command, and a note when seek could not
 * tell what it runs. Empty for other actions and whole-line matches. */
function matchedPart(rule: PolicyRule, request: ActionRequest): string {
  if (request.kind !== 'bash' || request.command === undefined || rule.pattern === undefined) return '';
  const hit = denyMatch(rule.pattern, request.command);
  if (hit === undefined || hit === 'whole') return '';
  if (hit.unresolved !== undefined) return ` (seek cannot tell what this command runs: ${hit.unresolved}; a deny or ask rule counts that as a match)`;
  const shown = formatSimpleCommand(hit);
  return shown === request.command.trim() ? '' : ` (it runs \`${shown}\`)`;
}

/**
 * The decision procedure (seek-spec 2.3, with rules as data, and the OS sandbox). First step that
 * decides wins:
 *  1. a matching **deny rule** from any source → deny (deny always wins, in every mode);
 *  2. a matching **ask rule** (by source precedence, so a more specific allow rule, such as a
 *     person's "always", wins over it) → ask, in every mode (yolo and auto included); denied,
 *     naming the rule and its file, when nobody can be asked (headless, or the deny preference);
 *     an ask rule never loosens plan mode: what plan mode refuses stays refused;
 *  3. a **read-only bash inspector** → allow in the read-only sandbox;
 *  4. **plan_analyze** (final): read/git/agent with every path inside the root → allow; an action
 *     that declares itself read-only (an MCP tool's readOnlyHint) → allow only when an allow rule
 *     from a config file or a person's answer names it; else deny with a plan-mode hint — yolo and
 *     the hint alone do not loosen plan mode. Everything that writes (edits, commands, memory,
 *     worktrees) is refused here, for the session and every child spawned from it;
 *  5. **plan_execute + preApproved**: write/edit inside the root → allow; bash inside the root →
 *     allow in the workspace-write sandbox;
 *  6. **allow rules**, by source precedence spawn > session > local > project > user: an action
 *     they cover → allow (a bash command allowed by a config file runs in the workspace-write
 *     sandbox);
 *  7. otherwise the action is **dangerous** when any path is outside the root (reads included) or
 *     the default rule for its kind says ask (bash, write, edit, memory writes, other);
 *  8. dangerous + **auto**: write/edit inside the root → allow; bash inside the root → allow in the
 *     workspace-write sandbox;
 *  9. dangerous + yolo → allow (unsandboxed); dangerous + ask/auto + someone to ask → ask;
 *     dangerous otherwise → deny with a hint naming `--yolo`. Not dangerous → allow.
 * Every "allow in a sandbox" needs one: where none is available (or bash asked for `unsandboxed`),
 * the step does not apply and the command goes on to be asked, or denied headless. Nothing that
 * would have been sandboxed runs unsandboxed without a person's yes or yolo.
 *
 * Rules on bash commands judge the simple commands the line runs (command-rules.ts); the grammar
 * must be loaded first (`commandRulesReady`), or every command counts as unreadable.
 */
export function evaluatePolicy(state: PolicyState, request: ActionRequest, ctx: EvaluateContext = {}): PolicyDecision {
  const { root } = state;
  const tool = ctx.tool;
  const cwd = ctx.cwd ?? root;
  const label = tool ?? request.kind;
  const isBash = request.kind === 'bash';
  /** A sandbox can hold this call: bash that did not ask to leave it, on a machine that has one. */
  const sandboxable = isBash && request.unsandboxed !== true && state.sandbox.available;
  /** The call would have run sandboxed, but no sandbox can start here: say so in what follows. */
  let lostSandbox = false;

  const denyRule = state.rules.find((r) => r.decision === 'deny' && ruleMatches(r, request, tool, root, cwd));
  if (denyRule) {
    return {
      decision: 'deny',
      code: 'deny_rule',
      rule: denyRule,
      message: `${label} is denied by a ${denyRule.source} rule: ${formatRule(denyRule)}${matchedPart(denyRule, request)}.`,
    };
  }

  const ruled = decideByRules(state, request, tool, cwd);
  const askRule = ruled?.decision === 'ask' ? ruled.rule : undefined;
  const readRoots = request.kind === 'read' ? (state.readRoots ?? []) : [];
  const outside = request.paths.filter((p) => !isInside(root, p) && !readRoots.some((dir) => isInside(dir, p)));
  const guarded = protectedTarget(state, request);

  const inspector = isBash && request.command !== undefined && request.unsandboxed !== true && isReadOnlyInspector(request.command, { root, cwd });
  const readLike = request.kind === 'read' || request.kind === 'git' || request.kind === 'agent';
  const planAllowedRule = (): PolicyRule | undefined =>
    request.readOnlyHint === true && outside.length === 0
      ? state.rules.find((r) => r.decision === 'allow' && r.source !== 'default' && r.source !== 'command' && r.tool !== undefined && r.tool !== '*' && ruleMatches(r, request, tool, root, cwd))
      : undefined;

  if (askRule) {
    const planRefuses = state.workflow === 'plan_analyze' && !(inspector && sandboxable) && !(readLike && outside.length === 0) && planAllowedRule() === undefined;
    if (!planRefuses) {
      const named = `the ask rule ${formatRule(askRule)} ${ruleWhere(askRule)}${matchedPart(askRule, request)}`;
      if (ctx.canAsk && state.preference !== 'deny') {
        return { decision: 'ask', code: 'ask_rule', rule: askRule, reason: `${subject(label, outside)} matches ${named}`, suggestedRule: suggestRule(request, tool, root) };
      }
      const nobody = ctx.canAsk ? 'this session is in deny mode, which asks nobody' : 'nobody can be asked in this run';
      return {
        decision: 'deny',
        code: 'ask_rule',
        rule: askRule,
        message: `${subject(label, outside)} needs a person's approval: it matches ${named}, and ${nobody}. Run seek interactively to approve it, or change the rule.`,
      };
    }
  }

  if (inspector) {
    if (sandboxable) return { decision: 'allow', code: 'inspector', sandbox: 'read-only' };
    lostSandbox = true;
  }

  if (state.workflow === 'plan_analyze') {
    if (readLike && outside.length === 0) return { decision: 'allow', code: 'plan_analyze' };
    const allowed = planAllowedRule();
    if (allowed) return { decision: 'allow', code: 'plan_analyze', rule: allowed };
    let message =
      outside.length > 0
        ? `${subject(label, outside)} is not allowed in plan mode: only reads inside ${root} are allowed.`
        : `${label} is not allowed in plan mode (read-only analysis): nothing is written in plan mode (files, commands, memory, worktrees); investigate with read-only tools and propose a plan; changes are made once the user approves it.`;
    if (lostSandbox) message += ` Read-only commands run only in the OS sandbox, and ${noSandboxNote(state)}.`;
    else if (isBash && request.unsandboxed === true) message += ' Commands run only inside the read-only sandbox in plan mode.';
    return { decision: 'deny', code: 'plan_analyze', message };
  }

  if (state.workflow === 'plan_execute' && state.preApproved && outside.length === 0) {
    if ((request.kind === 'write' || request.kind === 'edit') && guarded === undefined) return { decision: 'allow', code: 'plan_execute' };
    if (isBash) {
      if (sandboxable) return { decision: 'allow', code: 'plan_execute', sandbox: 'workspace-write' };
      lostSandbox ||= request.unsandboxed !== true;
    }
  }

  let dangerous: boolean | undefined;
  // A command's allowed-tools only spare a question: under yolo nothing is asked, and its grants
  // must not put into the sandbox what yolo runs outside it.
  if (ruled?.decision === 'allow' && state.preference === 'yolo' && ruled.rules.every((r) => r.source === 'command')) return { decision: 'allow', code: 'yolo' };
  // A protected file is allowed by a person's answer (a session rule), never by a rule written ahead.
  if (ruled?.decision === 'allow' && (guarded === undefined || ruled.rules.every((r) => r.source === 'session'))) {
    const allowRule = ruled.rules[0]!;
    const needsSandbox = isBash && ruled.rules.some((r) => SANDBOXED_RULE_SOURCES.has(r.source));
    if (!needsSandbox) return { decision: 'allow', code: 'rule', rule: allowRule };
    if (sandboxable) return { decision: 'allow', code: 'rule', rule: allowRule, sandbox: 'workspace-write' };
    lostSandbox ||= request.unsandboxed !== true;
    dangerous = true;
  }
  if (dangerous === undefined) {
    const byDefault = DEFAULT_RULES.find((r) => ruleMatches(r, request, tool, root, cwd));
    dangerous = outside.length > 0 || guarded !== undefined || byDefault?.decision !== 'allow';
  }

  if (!dangerous) return { decision: 'allow', code: 'safe' };
  if (state.preference === 'auto' && outside.length === 0) {
    if ((request.kind === 'write' || request.kind === 'edit') && guarded === undefined) return { decision: 'allow', code: 'auto' };
    if (isBash) {
      if (sandboxable) return { decision: 'allow', code: 'auto', sandbox: 'workspace-write' };
      lostSandbox ||= request.unsandboxed !== true;
    }
  }
  if (state.preference === 'yolo') return { decision: 'allow', code: 'yolo' };
  const why = lostSandbox ? ` (${noSandboxNote(state)})` : guarded ? ` (${guarded.path} is ${guarded.what}: writing it needs a person's approval in every mode but --yolo)` : '';
  if ((state.preference === 'ask' || state.preference === 'auto') && ctx.canAsk) {
    return {
      decision: 'ask',
      code: 'dangerous',
      reason: `${outside.length > 0 ? `${subject(label, outside)} needs approval` : `${label} needs approval`}${why}`,
      suggestedRule: suggestRule(request, tool, root),
    };
  }
  const hint = guarded
    ? `${guarded.path} is ${guarded.what}; seek writes it only with a person's approval (run seek interactively and answer yes) or with --yolo.`
    : lostSandbox
      ? `it would run in the OS sandbox, but ${noSandboxNote(state)}. Re-run seek interactively to approve it, or with --yolo to run it unsandboxed.`
      : isBash && request.unsandboxed === true
        ? 'running outside the sandbox needs the user\'s approval; nobody can be asked in this mode (re-run seek interactively, or with --yolo).'
        : outside.length === 0 && (isBash || request.kind === 'write' || request.kind === 'edit') && state.preference !== 'auto'
          ? AUTO_HINT
          : YOLO_HINT;
  return { decision: 'deny', code: 'dangerous', message: `${subject(label, outside)} is not allowed in this mode: ${hint}` };
}

/** Spawn transition tables (seek-spec 2.3): a child may only be as loose as its parent. */
export function preferenceMayBecome(parent: Preference, child: Preference): boolean {
  return PREFERENCES.indexOf(child) <= PREFERENCES.indexOf(parent);
}

export function workflowMayBecome(parent: Workflow, child: Workflow): boolean {
  if (parent === 'plan_analyze') return child === 'plan_analyze';
  if (parent === 'plan_execute') return child === 'plan_execute' || child === 'plan_analyze';
  return true;
}
