import path from 'node:path';
import type { ActionRequest } from '../agent/types.js';
import { evaluatePolicy, preferenceMayBecome, workflowMayBecome, type PolicyState } from './evaluate.js';
import { noteRules } from './command-rules.js';
import { formatRule, suggestRule } from './rules.js';
import { readGuard, type ReadGuard } from './read-guard.js';
import {
  PolicySpawnError,
  type EvaluateContext,
  type PolicyDecision,
  type PolicyRule,
  type Preference,
  type SandboxAvailability,
  type SpawnRestriction,
  type Workflow,
} from './types.js';

export { evaluatePolicy, preferenceMayBecome, ruleWhere, workflowMayBecome, type PolicyState } from './evaluate.js';

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
    noteRules(this.#rules);
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
    noteRules([rule]);
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

  /** Which deny rule forbids a file's content to reach the model through `tool` (read-guard.ts). */
  readGuard(tool?: string): ReadGuard {
    return readGuard(this.#rules, this.#root, tool);
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
    // A command's allowed-tools are for its own turn in this agent: a child does not inherit them.
    const inherited = this.#rules.filter((r) => r.source !== 'command');
    const child = new PermissionPolicy({ root, preference, workflow, rules: [...inherited, ...extra] });
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
