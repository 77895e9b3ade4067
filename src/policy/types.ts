import { lazySchema } from '../util/zod.js';
import type { ActionKind } from '../agent/types.js';
import type { SandboxProfile } from '../sandbox/types.js';

/** Whether commands can be sandboxed here; the policy never names a profile it cannot get, and
 * falls back to asking (or denying) instead of running unsandboxed. */
export interface SandboxAvailability {
  available: boolean;
  /** Why not, for messages ("bubblewrap (bwrap) is not installed"). */
  reason?: string;
}

/** How much the user lets seek do without asking (seek-spec 2.3). Ordered: deny < ask < auto < yolo.
 * `deny` is the headless default, `ask` the TUI default, `auto` is `--auto` (edits and commands
 * inside the project without asking, commands in the workspace-write sandbox), `yolo` is `--yolo`
 * (everything, unsandboxed). */
export type Preference = 'deny' | 'ask' | 'auto' | 'yolo';

/** What the session is doing. Workflow beats preference: yolo + plan_analyze stays read-only.
 * `plan_execute` only loosens anything while the approved plan is running (`preApproved`). */
export type Workflow = 'none' | 'plan_analyze' | 'plan_execute';

export const PREFERENCES: readonly Preference[] = ['deny', 'ask', 'auto', 'yolo'];
export const WORKFLOWS: readonly Workflow[] = ['none', 'plan_analyze', 'plan_execute'];
export const ACTION_KINDS: readonly ActionKind[] = [
  'read',
  'write',
  'edit',
  'bash',
  'git',
  'memory',
  'agent',
  'worktree',
  'other',
];

export type RuleDecision = 'allow' | 'deny' | 'ask';

/** Where a rule came from. Precedence (most specific first): spawn, session, local
 * (`<root>/.seek/config.local.json`), project (`<root>/.seek/config.json`), user
 * (`~/.seek/config.json`), command (the `allowed-tools` of the skill or command running in this
 * turn, extensions/grants.ts: below every config file, so their ask rules still ask), default. */
export type RuleSource = 'default' | 'user' | 'project' | 'local' | 'session' | 'spawn' | 'command';

/** A policy rule: plain data, so config files, the UI ("always allow") and subagent templates can
 * all add rules without touching tools.
 * - `tool`: exact tool name (`bash`, `write_file`); absent or `"*"` = any tool.
 * - `kind`: the ActionRequest kind; absent = any kind.
 * - `pattern`: for bash, a pattern on the simple commands the command line runs (command-rules.ts:
 *   `npm test *` allows `npm test -- x` but never `npm test; rm -rf ~`, and a deny rule `curl:*`
 *   catches `sh -c 'curl …'`); for every other kind, a glob (picomatch) on the action's paths —
 *   relative globs are anchored at the policy root.
 *   Absent = matches every action the tool/kind filters let through. */
export interface PolicyRule {
  tool?: string;
  kind?: ActionKind;
  pattern?: string;
  decision: RuleDecision;
  source: RuleSource;
  /** The rule as the user wrote it (`Bash(npm test:*)`) and the file it came from, for messages
   * and `seek permissions list`; not part of what it matches. */
  origin?: { text: string; file?: string };
}

/** Validates rules read from config files (user/project); `source` is set by the loader. */
export const PolicyRuleSchema = lazySchema((z) =>
  z.strictObject({
    tool: z.string().min(1).optional(),
    kind: z.enum(ACTION_KINDS as [ActionKind, ...ActionKind[]]).optional(),
    pattern: z.string().min(1).optional(),
    decision: z.enum(['allow', 'deny', 'ask']),
    source: z.enum(['default', 'user', 'project', 'local', 'session', 'spawn', 'command']),
  }),
);

/** Why the policy decided what it did; stable codes for logs and tests. */
export type DecisionCode =
  | 'deny_rule' // a deny rule matched (any source)
  | 'ask_rule' // an ask rule matched: asked in every mode, denied when nobody can be asked
  | 'inspector' // read-only bash inspector (runs in the read-only sandbox)
  | 'auto' // --auto: an edit or command inside the project (commands in the workspace-write sandbox)
  | 'plan_analyze' // plan mode allowed (read inside / git / agent) or denied it
  | 'plan_execute' // approved plan running: bash/write/edit inside the root
  | 'rule' // an allow rule matched
  | 'yolo' // dangerous, but preference is yolo
  | 'safe' // not dangerous (default allow)
  | 'dangerous'; // dangerous: asked, or denied because nobody can be asked

export type PolicyDecision =
  /** `sandbox`: the command must run in this OS sandbox profile (it runs without a person's yes). */
  | { decision: 'allow'; code: DecisionCode; rule?: PolicyRule; sandbox?: SandboxProfile }
  /** `message` is the text the model receives as the tool result. */
  | { decision: 'deny'; code: DecisionCode; message: string; rule?: PolicyRule }
  /** `suggestedRule` is what an "always" answer adds (show it in the prompt); `rule` the ask rule
   * that asks, when one does. */
  | { decision: 'ask'; code: DecisionCode; reason: string; suggestedRule: PolicyRule; rule?: PolicyRule };

/** Per-call context for an evaluation. */
export interface EvaluateContext {
  /** The tool's name, for tool-scoped rules and for messages. */
  tool?: string;
  /** Working directory of the call (relative inspector arguments resolve against it). Default: root. */
  cwd?: string;
  /** True when someone can be asked (an ask function exists). Without it, "ask" becomes a denial. */
  canAsk?: boolean;
}

/** What a child policy may be restricted to (seek-spec 2.3 "Spawn"); absent fields inherit. */
export interface SpawnRestriction {
  /** The child's containment root (a worktree for isolated children). Must be absolute. */
  root?: string;
  preference?: Preference;
  workflow?: Workflow;
  /** Extra deny/ask rules for the child (stored with source `spawn`). Allow rules would loosen: error. */
  rules?: Omit<PolicyRule, 'source'>[];
}

export class PolicySpawnError extends Error {
  override readonly name = 'PolicySpawnError';
}
