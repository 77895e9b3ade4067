import path from 'node:path';
import type { ActionRequest } from '../agent/types.js';
import { isReadOnlyInspector } from './inspectors.js';
import { isInside } from './paths.js';
import { DEFAULT_RULES, SOURCE_PRECEDENCE, formatRule, ruleMatches, suggestRule } from './rules.js';
import {
  PREFERENCES,
  PolicySpawnError,
  type EvaluateContext,
  type PolicyDecision,
  type PolicyRule,
  type Preference,
  type SandboxAvailability,
  type SpawnRestriction,
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

/** Sources whose allow rules were written ahead of time (config files): the command they allow
 * still runs in the sandbox. Session rules are a person's answer to the exact action: unsandboxed. */
const SANDBOXED_RULE_SOURCES = new Set(['user', 'project', 'local']);

function noSandboxNote(state: PolicyState): string {
  return `no OS sandbox is available here (${state.sandbox.reason ?? 'unknown reason'}; see \`seek sandbox check\`)`;
}

/**
 * The decision procedure (seek-spec 2.3, with rules as data, and the OS sandbox). First step that
 * decides wins:
 *  1. a matching **deny rule** from any source → deny (deny always wins, in every mode);
 *  2. a **read-only bash inspector** → allow in the read-only sandbox;
 *  3. **plan_analyze** (final): read/git/agent with every path inside the root → allow; an action
 *     that declares itself read-only (an MCP tool's readOnlyHint) → allow only when an allow rule
 *     from a config file or a person's answer names it; else deny with a plan-mode hint — yolo and
 *     the hint alone do not loosen plan mode;
 *  4. **plan_execute + preApproved**: write/edit inside the root → allow; bash inside the root →
 *     allow in the workspace-write sandbox;
 *  5. **allow/ask rules**, by source precedence spawn > session > project > user; within a source an
 *     ask rule beats an allow rule; an allow rule → allow (a bash command allowed by a config file
 *     runs in the workspace-write sandbox), an ask rule → the action is dangerous;
 *  6. otherwise the action is **dangerous** when any path is outside the root (reads included) or
 *     the default rule for its kind says ask (bash, write, edit, memory writes, other);
 *  7. dangerous + **auto**: write/edit inside the root → allow; bash inside the root → allow in the
 *     workspace-write sandbox;
 *  8. dangerous + yolo → allow (unsandboxed); dangerous + ask/auto + someone to ask → ask;
 *     dangerous otherwise → deny with a hint naming `--yolo`. Not dangerous → allow.
 * Every "allow in a sandbox" needs one: where none is available (or bash asked for `unsandboxed`),
 * the step does not apply and the command goes on to be asked, or denied headless. Nothing that
 * would have been sandboxed runs unsandboxed without a person's yes or yolo.
 */
export function evaluatePolicy(state: PolicyState, request: ActionRequest, ctx: EvaluateContext = {}): PolicyDecision {
  const { root } = state;
  const tool = ctx.tool;
  const label = tool ?? request.kind;
  const isBash = request.kind === 'bash';
  /** A sandbox can hold this call: bash that did not ask to leave it, on a machine that has one. */
  const sandboxable = isBash && request.unsandboxed !== true && state.sandbox.available;
  /** The call would have run sandboxed, but no sandbox can start here: say so in what follows. */
  let lostSandbox = false;

  const denyRule = state.rules.find((r) => r.decision === 'deny' && ruleMatches(r, request, tool, root));
  if (denyRule) {
    return {
      decision: 'deny',
      code: 'deny_rule',
      rule: denyRule,
      message: `${label} is denied by a ${denyRule.source} rule: ${formatRule(denyRule)}.`,
    };
  }

  if (isBash && request.command !== undefined && request.unsandboxed !== true) {
    if (isReadOnlyInspector(request.command, { root, cwd: ctx.cwd ?? root })) {
      if (sandboxable) return { decision: 'allow', code: 'inspector', sandbox: 'read-only' };
      lostSandbox = true;
    }
  }

  const readRoots = request.kind === 'read' ? (state.readRoots ?? []) : [];
  const outside = request.paths.filter((p) => !isInside(root, p) && !readRoots.some((dir) => isInside(dir, p)));

  if (state.workflow === 'plan_analyze') {
    const readLike = request.kind === 'read' || request.kind === 'git' || request.kind === 'agent';
    if (readLike && outside.length === 0) return { decision: 'allow', code: 'plan_analyze' };
    if (request.readOnlyHint === true && outside.length === 0) {
      const allowed = state.rules.find((r) => r.decision === 'allow' && r.source !== 'default' && r.tool !== undefined && r.tool !== '*' && ruleMatches(r, request, tool, root));
      if (allowed) return { decision: 'allow', code: 'plan_analyze', rule: allowed };
    }
    let message =
      outside.length > 0
        ? `${subject(label, outside)} is not allowed in plan mode: only reads inside ${root} are allowed.`
        : `${label} is not allowed in plan mode (read-only analysis): investigate with read-only tools and propose a plan; changes are made once the user approves it.`;
    if (lostSandbox) message += ` Read-only commands run only in the OS sandbox, and ${noSandboxNote(state)}.`;
    else if (isBash && request.unsandboxed === true) message += ' Commands run only inside the read-only sandbox in plan mode.';
    return { decision: 'deny', code: 'plan_analyze', message };
  }

  if (state.workflow === 'plan_execute' && state.preApproved && outside.length === 0) {
    if (request.kind === 'write' || request.kind === 'edit') return { decision: 'allow', code: 'plan_execute' };
    if (isBash) {
      if (sandboxable) return { decision: 'allow', code: 'plan_execute', sandbox: 'workspace-write' };
      lostSandbox ||= request.unsandboxed !== true;
    }
  }

  let dangerous: boolean | undefined;
  for (const source of SOURCE_PRECEDENCE) {
    if (source === 'default') break;
    const matching = state.rules.filter(
      (r) => r.source === source && r.decision !== 'deny' && ruleMatches(r, request, tool, root),
    );
    if (matching.some((r) => r.decision === 'ask')) {
      dangerous = true;
      break;
    }
    const allowRule = matching.find((r) => r.decision === 'allow');
    if (!allowRule) continue;
    if (!isBash || !SANDBOXED_RULE_SOURCES.has(allowRule.source)) return { decision: 'allow', code: 'rule', rule: allowRule };
    if (sandboxable) return { decision: 'allow', code: 'rule', rule: allowRule, sandbox: 'workspace-write' };
    lostSandbox ||= request.unsandboxed !== true;
    dangerous = true;
    break;
  }
  if (dangerous === undefined) {
    const byDefault = DEFAULT_RULES.find((r) => ruleMatches(r, request, tool, root));
    dangerous = outside.length > 0 || byDefault?.decision !== 'allow';
  }

  if (!dangerous) return { decision: 'allow', code: 'safe' };
  if (state.preference === 'auto' && outside.length === 0) {
    if (request.kind === 'write' || request.kind === 'edit') return { decision: 'allow', code: 'auto' };
    if (isBash) {
      if (sandboxable) return { decision: 'allow', code: 'auto', sandbox: 'workspace-write' };
      lostSandbox ||= request.unsandboxed !== true;
    }
  }
  if (state.preference === 'yolo') return { decision: 'allow', code: 'yolo' };
  const why = lostSandbox ? ` (${noSandboxNote(state)})` : '';
  if ((state.preference === 'ask' || state.preference === 'auto') && ctx.canAsk) {
    return {
      decision: 'ask',
      code: 'dangerous',
      reason: `${outside.length > 0 ? `${subject(label, outside)} needs approval` : `${label} needs approval`}${why}`,
      suggestedRule: suggestRule(request, tool, root),
    };
  }
  const hint = lostSandbox
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

/** What the status line shows and Shift+Tab cycles through. */
export type PermissionMode = 'deny' | 'ask' | 'auto' | 'yolo' | 'plan' | 'plan_execute';

export interface PolicyOptions {
  root: string;
  preference?: Preference;
  workflow?: Workflow;
  /** Config rules (user, project), in order; session rules are added with `addRule`. */
  rules?: PolicyRule[];
  /** Whether commands can be sandboxed. Absent: not available, so nothing runs sandboxed and
   * what would have been is asked or denied (fail closed). */
  sandbox?: SandboxAvailability;
}

const NO_SANDBOX: SandboxAvailability = Object.freeze({ available: false, reason: 'no sandbox was set up for this policy' });

function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return a.tool === b.tool && a.kind === b.kind && a.pattern === b.pattern && a.decision === b.decision && a.source === b.source;
}

/**
 * The mutable permission state of one agent (the session, or one subagent). Mode changes and
 * session rules take effect for the next evaluation; listeners hear every change (status lines).
 */
export class PermissionPolicy {
  #root: string;
  #preference: Preference;
  #workflow: Workflow;
  #preApproved = false;
  #rules: PolicyRule[];
  #readRoots: string[] = [];
  /** Shared by reference with every policy spawned from this one: the machine's sandbox is one
   * fact, so settling it on the session's policy settles it for children spawned before. */
  #sandbox: { current: SandboxAvailability };
  readonly #listeners = new Set<() => void>();

  constructor(options: PolicyOptions) {
    if (!path.isAbsolute(options.root)) throw new Error(`policy root must be absolute: ${options.root}`);
    this.#root = path.resolve(options.root);
    this.#preference = options.preference ?? 'ask';
    this.#workflow = options.workflow ?? 'none';
    this.#rules = [...(options.rules ?? [])];
    this.#sandbox = { current: options.sandbox ?? NO_SANDBOX };
  }

  get sandbox(): SandboxAvailability {
    return this.#sandbox.current;
  }

  /** Sets the machine's sandbox availability when detection finished after the policy was made (a
   * headless session detects on first need, runtime/permissions.ts); before any decision that
   * depends on it. Every policy of the family (this one, its parent, its children, made before
   * or after) sees the settled value. */
  settleSandbox(sandbox: SandboxAvailability): void {
    this.#sandbox.current = sandbox;
  }

  get root(): string {
    return this.#root;
  }
  get preference(): Preference {
    return this.#preference;
  }
  get workflow(): Workflow {
    return this.#workflow;
  }
  get preApproved(): boolean {
    return this.#preApproved;
  }
  /** A copy of the non-default rules (config, session, spawn) in order. */
  get rules(): PolicyRule[] {
    return [...this.#rules];
  }

  get mode(): PermissionMode {
    if (this.#workflow === 'plan_analyze') return 'plan';
    if (this.#workflow === 'plan_execute') return 'plan_execute';
    return this.#preference;
  }

  state(): PolicyState {
    return {
      root: this.#root,
      preference: this.#preference,
      workflow: this.#workflow,
      preApproved: this.#preApproved,
      rules: [...this.#rules],
      sandbox: this.#sandbox.current,
      readRoots: [...this.#readRoots],
    };
  }

  /** Reads in these folders count as reads inside the project (see PolicyState.readRoots);
   * children inherit them. */
  allowReadsIn(dirs: readonly string[]): void {
    for (const dir of dirs) {
      if (!path.isAbsolute(dir)) throw new Error(`read root must be absolute: ${dir}`);
      if (!this.#readRoots.includes(path.resolve(dir))) this.#readRoots.push(path.resolve(dir));
    }
    this.#changed();
  }

  /**
   * Moves the containment root (entering or leaving a worktree): paths outside the new root count
   * as outside the project from now on. Rules and modes are unchanged.
   */
  setRoot(root: string): void {
    if (!path.isAbsolute(root)) throw new Error(`policy root must be absolute: ${root}`);
    this.#root = path.resolve(root);
    this.#changed();
  }

  setPreference(preference: Preference): void {
    this.#preference = preference;
    this.#changed();
  }

  /** Any workflow change (including /plan off and Esc) drops the plan approval. */
  setWorkflow(workflow: Workflow): void {
    this.#workflow = workflow;
    this.#preApproved = false;
    this.#changed();
  }

  /** The user approved the proposed plan: bash/write/edit inside the root run without asking. */
  approvePlan(): void {
    this.#workflow = 'plan_execute';
    this.#preApproved = true;
    this.#changed();
  }

  /** Shift+Tab: ask → auto → yolo → plan → ask (deny and plan_execute continue at ask). */
  cycleMode(): PermissionMode {
    const mode = this.mode;
    if (mode === 'ask') {
      this.#preference = 'auto';
    } else if (mode === 'auto') {
      this.#preference = 'yolo';
    } else if (mode === 'yolo') {
      this.#workflow = 'plan_analyze';
    } else {
      this.#preference = 'ask';
      this.#workflow = 'none';
    }
    this.#preApproved = false;
    this.#changed();
    return this.mode;
  }

  /** Adds a rule (the UI's "always" answers use source `session`); identical rules are kept once. */
  addRule(rule: PolicyRule): void {
    if (this.#rules.some((r) => sameRule(r, rule))) return;
    this.#rules.push({ ...rule });
    this.#changed();
  }

  removeRule(rule: PolicyRule): boolean {
    const index = this.#rules.findIndex((r) => sameRule(r, rule));
    if (index < 0) return false;
    this.#rules.splice(index, 1);
    this.#changed();
    return true;
  }

  evaluate(request: ActionRequest, ctx: EvaluateContext = {}): PolicyDecision {
    return evaluatePolicy(this.state(), request, ctx);
  }

  /** The rule an "always" answer to this request would add. */
  suggestRule(request: ActionRequest, tool?: string): PolicyRule {
    return suggestRule(request, tool, this.#root);
  }

  /**
   * A child policy, tightened only (seek-spec 2.3 "Spawn"): absent fields inherit; a looser
   * preference or workflow, a relative root, or an allow rule throws PolicySpawnError. The child
   * starts with a copy of the parent's rules (session answers included) plus the spawn rules, and
   * never inherits `preApproved` (nor an ask function: the gate owns that, one per agent).
   */
  spawn(restriction: SpawnRestriction = {}): PermissionPolicy {
    const root = restriction.root ?? this.#root;
    if (!path.isAbsolute(root)) throw new PolicySpawnError(`child policy root must be absolute: ${root}`);
    const preference = restriction.preference ?? this.#preference;
    if (!preferenceMayBecome(this.#preference, preference)) {
      throw new PolicySpawnError(`a ${this.#preference} parent cannot spawn a ${preference} child (permissions only tighten)`);
    }
    const workflow = restriction.workflow ?? this.#workflow;
    if (!workflowMayBecome(this.#workflow, workflow)) {
      throw new PolicySpawnError(`a ${this.#workflow} parent cannot spawn a ${workflow} child (permissions only tighten)`);
    }
    const extra = (restriction.rules ?? []).map((r): PolicyRule => ({ ...r, source: 'spawn' }));
    const loosening = extra.find((r) => r.decision === 'allow');
    if (loosening) throw new PolicySpawnError(`spawn rules may only deny or ask: ${formatRule(loosening)}`);
    const child = new PermissionPolicy({ root, preference, workflow, rules: [...this.#rules, ...extra] });
    child.#readRoots = [...this.#readRoots];
    child.#sandbox = this.#sandbox;
    return child;
  }

  /** Calls `listener` after every change of mode or rules; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The policy for a top-level session from CLI flags: `--yolo` → yolo, `--auto` → auto, else the
 * config's default mode, else interactive → ask, headless → deny; `--plan` → plan_analyze. */
export function createPolicy(options: {
  root: string;
  yolo?: boolean;
  auto?: boolean;
  plan?: boolean;
  interactive: boolean;
  /** `permissions.defaultMode` from config, when set. */
  defaultPreference?: Preference;
  rules?: PolicyRule[];
  sandbox: SandboxAvailability;
}): PermissionPolicy {
  return new PermissionPolicy({
    root: options.root,
    sandbox: options.sandbox,
    preference: options.yolo ? 'yolo' : options.auto ? 'auto' : (options.defaultPreference ?? (options.interactive ? 'ask' : 'deny')),
    workflow: options.plan ? 'plan_analyze' : 'none',
    rules: options.rules,
  });
}
