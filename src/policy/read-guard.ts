import { statSync } from 'node:fs';
import path from 'node:path';
import type { ActionRequest } from '../agent/types.js';
import { deniedInRoot } from '../sandbox/denied-paths.js';
import { resolveReal } from './paths.js';
import { ruleMatches, formatRule } from './rules.js';
import type { PolicyRule } from './types.js';

/**
 * The one check every route to a file's content goes through: which `Read(...)` deny rule (or a
 * deny rule on a reading tool) forbids `absPath` to reach the model. The policy already refuses a
 * call whose own path is denied (read_file .env); this answers for the files a call meets on its
 * way (grep or glob over `.`, list_dir, the git tool's diffs, `@file` mentions, a child's worktree),
 * with the same matcher: a symlink is judged where it leads and where it is, `..` and `//` are
 * resolved away, case is ignored (deny rules err on the side of denying: macOS's file system ignores
 * case), and a file with several hard links is denied when one of its names is.
 */
export interface ReadGuard {
  /** The rule's text when a deny rule forbids reading this path, else undefined. */
  denied(absPath: string): string | undefined;
  /** Whether any rule could deny a read (false: nothing needs checking). */
  readonly active: boolean;
}

const NONE: ReadGuard = Object.freeze({ denied: () => undefined, active: false });

/** Reading tools whose deny rules count for every route (a `Grep(...)` rule only stops grep). */
const READING_TOOLS = ['read_file'];

/** The deny rules that can forbid a read through `tool` (and through read_file: `Read(...)`). */
function readDenyRules(rules: readonly PolicyRule[], tool: string | undefined): PolicyRule[] {
  const probe: ActionRequest = { kind: 'read', paths: [], summary: '' };
  return rules.filter((rule) => rule.decision === 'deny' && [...READING_TOOLS, tool].some((t) => ruleMatchesKind(rule, probe, t)));
}

function ruleMatchesKind(rule: PolicyRule, probe: ActionRequest, tool: string | undefined): boolean {
  if (rule.tool !== undefined && rule.tool !== '*' && rule.tool !== tool) return false;
  return rule.kind === undefined || rule.kind === probe.kind;
}

/** The guard for reads by `tool` in `root` under these rules. */
export function readGuard(rules: readonly PolicyRule[], root: string, tool?: string): ReadGuard {
  const deny = readDenyRules(rules, tool);
  if (deny.length === 0) return NONE;
  const byPath = (p: string): PolicyRule | undefined => {
    const request: ActionRequest = { kind: 'read', paths: [p], summary: '' };
    return deny.find((rule) => ruleMatches(rule, request, rule.tool === undefined ? 'read_file' : rule.tool, root));
  };
  let linked: Map<string, PolicyRule> | undefined;
  return {
    active: true,
    denied(absPath) {
      const abs = path.resolve(absPath);
      const rule = byPath(abs) ?? hardLinkedRule(abs, () => (linked ??= deniedInodes(deny, root, byPath)));
      return rule ? formatRule(rule) : undefined;
    },
  };
}

/** A file with more than one name: the rule denying another of its names, if any. */
function hardLinkedRule(abs: string, inodes: () => Map<string, PolicyRule>): PolicyRule | undefined {
  try {
    const st = statSync(abs);
    if (!st.isFile() || st.nlink < 2) return undefined;
    return inodes().get(`${st.dev}:${st.ino}`);
  } catch {
    return undefined;
  }
}

/** The inodes of the files in `root` the deny rules name now (literal paths and glob matches). */
function deniedInodes(deny: readonly PolicyRule[], root: string, byPath: (p: string) => PolicyRule | undefined): Map<string, PolicyRule> {
  const entries = deny.map((rule) => rule.pattern).filter((p): p is string => p !== undefined && !p.startsWith('/') && !p.startsWith('~'));
  const inodes = new Map<string, PolicyRule>();
  for (const file of deniedInRoot(entries, resolveReal(root))) {
    const rule = byPath(file);
    try {
      const st = statSync(file);
      if (rule && st.isFile()) inodes.set(`${st.dev}:${st.ino}`, rule);
    } catch {
      // gone since it was listed
    }
  }
  return inodes;
}

/** The message a route gives when the file it was asked for is denied. */
export function readDeniedMessage(shown: string, rule: string): string {
  return `${shown} is denied by the rule ${rule}: its content cannot be read by any tool.`;
}
