/**
 * What the `/permissions` panel shows and changes: the rules of the live policy (config files and
 * this session), the project's allow rules held back until it is trusted, the mode and the OS
 * sandbox; adding a rule (to the session or a config file) and removing one. Changes take effect
 * in the live policy at once. The panel is tested with this source over a real policy and real
 * files; it never builds the policy itself.
 */
import { readConfig } from '../../config/config.js';
import { configFile } from '../../config/paths.js';
import { seekToolNames } from '../../tools/tool-names.js';
import { loadPermissionRules } from '../../policy/config-rules.js';
import { addConfigRule, fileFor, removeConfigRule, type RuleLocation } from '../../policy/config-write.js';
import type { PermissionMode, PermissionPolicy } from '../../policy/policy.js';
import { parseRuleText } from '../../policy/rule-syntax.js';
import { formatRule } from '../../policy/rules.js';
import type { PolicyRule, RuleDecision, RuleSource, SandboxAvailability } from '../../policy/types.js';
import type { RuleScope } from './rule-scopes.js';

/** One rule as the user wrote it: a config text can stand for several policy rules (`Edit(…)`
 * covers edits and writes), listed once. */
export interface PermissionEntry {
  key: string;
  decision: RuleDecision;
  /** The rule's text: as written in its file, or as `formatRule` prints a session rule. */
  text: string;
  source: RuleSource;
  /** The config file it comes from. */
  file?: string;
  /** A project or local allow rule not applied until the project is trusted. */
  heldBack?: boolean;
  /** The policy rules it stands for. */
  rules: PolicyRule[];
}

export interface PermissionsSnapshot {
  rules: PolicyRule[];
  mode: PermissionMode;
  sandbox: SandboxAvailability;
}

export interface PermissionsPanelSource {
  /** The live policy's rules, mode and sandbox, now. */
  snapshot(): PermissionsSnapshot;
  /** Calls `listener` on every change of the policy (mode, rules). */
  subscribe(listener: () => void): () => void;
  /** Reads the config files again and brings the policy's config rules in line with them (an
   * "always" answer saved to a file, an edit by hand); returns the held-back rules. Throws when a
   * file does not parse (the policy is then left as it is). */
  refresh(): Promise<{ heldBack: PolicyRule[] }>;
  /** Validates `text` (throws RuleSyntaxError), then adds it to the session or writes it to the
   * scope's file and applies it; returns what happened, for the panel's message line. */
  add(decision: RuleDecision, text: string, scope: RuleScope): Promise<string>;
  /** Takes the entry out of its file (config rules) and out of the live policy. */
  remove(entry: PermissionEntry): Promise<string>;
}

const CONFIG_SOURCES: ReadonlySet<RuleSource> = new Set(['user', 'project', 'local']);
const isConfigScope = (source: RuleSource): source is RuleLocation['scope'] => CONFIG_SOURCES.has(source);
/** The order the panel lists sources in: the policy's precedence, most specific first. */
const SOURCE_ORDER: readonly RuleSource[] = ['spawn', 'session', 'local', 'project', 'user', 'command', 'default'];
const DECISION_ORDER: readonly RuleDecision[] = ['deny', 'ask', 'allow'];

export function ruleTextOf(rule: PolicyRule): string {
  return rule.origin?.text ?? formatRule(rule);
}

/** The panel's rows: the policy's rules grouped by what the user wrote, by source (most specific
 * first) and decision (deny, ask, allow), then the held-back rules. */
export function permissionEntries(rules: readonly PolicyRule[], heldBack: readonly PolicyRule[] = []): PermissionEntry[] {
  const group = (list: readonly PolicyRule[], held: boolean): PermissionEntry[] => {
    const byKey = new Map<string, PermissionEntry>();
    for (const rule of list) {
      const text = ruleTextOf(rule);
      const file = rule.origin?.file;
      const key = `${held ? 'held' : 'on'}|${rule.source}|${rule.decision}|${file ?? ''}|${text}`;
      const entry = byKey.get(key);
      if (entry) entry.rules.push(rule);
      else byKey.set(key, { key, decision: rule.decision, text, source: rule.source, ...(file ? { file } : {}), ...(held ? { heldBack: true } : {}), rules: [rule] });
    }
    return [...byKey.values()].sort(
      (a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source) || DECISION_ORDER.indexOf(a.decision) - DECISION_ORDER.indexOf(b.decision),
    );
  };
  return [...group(rules, false), ...group(heldBack, true)];
}

/** What PermissionPolicy.addRule treats as the same rule. */
function matchesAlike(a: PolicyRule, b: PolicyRule): boolean {
  return a.tool === b.tool && a.kind === b.kind && a.pattern === b.pattern && a.decision === b.decision && a.source === b.source;
}

function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return matchesAlike(a, b) && a.origin?.text === b.origin?.text && a.origin?.file === b.origin?.file;
}

/** Replaces the policy's config rules by `loaded` (the files as they are now), unless they match. */
export function syncConfigRules(policy: PermissionPolicy, loaded: readonly PolicyRule[]): void {
  const current = policy.rules.filter((rule) => isConfigScope(rule.source));
  // The policy keeps one of rules that match alike (whatever their text): so does this list.
  const wanted = loaded.filter((rule, index) => loaded.findIndex((other) => matchesAlike(other, rule)) === index);
  if (current.length === wanted.length && current.every((rule, index) => sameRule(rule, wanted[index]!))) return;
  for (const rule of current) policy.removeRule(rule);
  for (const rule of wanted) policy.addRule(rule);
}

export function permissionsPanelSource(options: { policy: PermissionPolicy; seekHome: string; projectRoot: string }): PermissionsPanelSource {
  const { policy, seekHome, projectRoot } = options;
  const location = (scope: RuleLocation['scope']): RuleLocation => ({ scope, seekHome, projectRoot });

  async function refresh(): Promise<{ heldBack: PolicyRule[] }> {
    const loaded = await loadPermissionRules({ seekHome, projectRoot, userConfig: await readConfig(seekHome), userConfigFile: configFile(seekHome) });
    syncConfigRules(policy, loaded.rules);
    return { heldBack: loaded.untrusted };
  }

  return {
    snapshot: () => ({ rules: policy.rules, mode: policy.mode, sandbox: policy.sandbox }),
    subscribe: (listener) => policy.subscribe(listener),
    refresh,

    async add(decision, text, scope) {
      const trimmed = text.trim();
      if (trimmed === '') throw new Error('type a rule, e.g. Bash(npm test:*) or Edit(src/**)');
      const parsed = parseRuleText(trimmed, decision, scope === 'session' ? 'session' : scope, seekToolNames());
      const inert = parsed.inert ? ` (it never matches: ${parsed.inert})` : '';
      if (scope === 'session') {
        for (const rule of parsed.rules) policy.addRule(rule);
        return `${decision} ${trimmed} added for this session${inert}`;
      }
      const file = fileFor(location(scope));
      const added = await addConfigRule(location(scope), decision, trimmed);
      const { heldBack } = await refresh();
      if (heldBack.some((rule) => rule.origin?.file === file && rule.origin.text === trimmed)) {
        return `${decision} ${trimmed} saved to ${file}, not applied: this project's allow rules are not trusted (review them, then seek permissions trust)`;
      }
      return `${decision} ${trimmed} ${added ? 'saved to' : 'was already in'} ${file}${inert}`;
    },

    async remove(entry) {
      if (entry.file !== undefined && isConfigScope(entry.source)) {
        const removed = await removeConfigRule(location(entry.source), entry.decision, entry.text);
        for (const rule of policy.rules.filter((r) => r.source === entry.source && r.origin?.file === entry.file && r.origin?.text === entry.text && r.decision === entry.decision)) {
          policy.removeRule(rule);
        }
        await refresh();
        return removed ? `removed ${entry.decision} ${entry.text} from ${entry.file}` : `${entry.text} was no longer in ${entry.file}`;
      }
      for (const rule of entry.rules) policy.removeRule(rule);
      return `removed ${entry.decision} ${entry.text} from this session`;
    },
  };
}
