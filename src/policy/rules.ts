import path from 'node:path';
import picomatch from 'picomatch';
import type { ActionRequest } from '../agent/types.js';
import { coverCommand, denyMatch } from './command-rules.js';
import { expandHome, isInsideResolved, resolveReal } from './paths.js';
import type { PolicyRule, RuleSource } from './types.js';
import { domainMatches, domainPattern } from './web-rules.js';

/**
 * The built-in classification, as data: which kinds are dangerous (`ask`) and which are safe
 * (`allow`). Any path outside the root makes an action dangerous before these are consulted, and
 * a kind with no default rule is dangerous (unknown means ask).
 * `memory` means a memory *write*: tools that only read memory do not describe an action.
 */
export const DEFAULT_RULES: readonly PolicyRule[] = Object.freeze([
  { kind: 'read', decision: 'allow', source: 'default' },
  { kind: 'git', decision: 'allow', source: 'default' },
  { kind: 'agent', decision: 'allow', source: 'default' }, // the child gets its own, tighter policy
  { kind: 'worktree', decision: 'allow', source: 'default' }, // seek-managed, reversible
  { kind: 'bash', decision: 'ask', source: 'default' },
  { kind: 'write', decision: 'ask', source: 'default' },
  { kind: 'edit', decision: 'ask', source: 'default' },
  // memory_observe only proposes: a background check keeps an entry or not, and the user is told.
  // Described (kind memory) so that plan mode refuses it like every other memory write.
  { tool: 'memory_observe', decision: 'allow', source: 'default' },
  { kind: 'memory', decision: 'ask', source: 'default' },
  { kind: 'other', decision: 'ask', source: 'default' },
] satisfies PolicyRule[]);

/** Rule sources from the most specific to the least; the first source with a match decides. */
export const SOURCE_PRECEDENCE: readonly RuleSource[] = ['spawn', 'session', 'local', 'project', 'user', 'command', 'default'];

const SHELL_SEPARATORS = /[;&|\n\r()`]/;
const NOT_METACHARACTER = '[^;&|><$`()\\n\\r]*';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Text pattern match, for actions that carry a command but are not bash (bash commands are judged
 * on what they run: command-rules.ts). Without `*` the pattern must equal the trimmed command. With `*`, each `*`
 * matches a run of characters that are not shell metacharacters, so an allow rule `npm test *`
 * cannot be stretched over `npm test; rm -rf ~`. For deny rules (`loose`), `*` matches anything and
 * every `;`/`&&`/`|`-separated segment is tried too, so deny `rm *` catches `ls; rm -rf x`.
 * Deny rules are a guard rail, not a sandbox: `eval`, `bash -c` and friends can still hide a command.
 */
export function commandMatches(pattern: string, command: string, loose = false): boolean {
  const cmd = command.trim();
  let pat = pattern.trim();
  // Claude Code's prefix form `npm test:*`: the command itself, or it followed by arguments.
  if (pat.endsWith(':*')) {
    const prefix = pat.slice(0, -2).trimEnd();
    if (commandMatches(prefix, command, loose)) return true;
    pat = `${prefix} *`;
  }
  const star = loose ? '.*' : NOT_METACHARACTER;
  const re = new RegExp(`^${pat.split('*').map(escapeRegExp).join(star)}$`, 's');
  if (re.test(cmd)) return true;
  if (!loose) return false;
  return cmd
    .split(SHELL_SEPARATORS)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .some((segment) => re.test(segment));
}

const matchers = new Map<string, (candidate: string) => boolean>();

/** A compiled glob, kept: a read guard asks for every file a search meets. */
function globMatcher(glob: string, nocase: boolean): (candidate: string) => boolean {
  const key = `${nocase ? 'i' : 'c'}${glob}`;
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = picomatch(glob, { dot: true, nocase });
    if (matchers.size > 1000) matchers.clear();
    matchers.set(key, matcher);
  }
  return matcher;
}

/** Path glob match. Relative globs are anchored at the root (a worktree child's root for its rules).
 * Deny and ask rules (`loose`) ignore case: they err on the side of denying, and a case-insensitive
 * file system (macOS, Windows) opens `.ENV` for a rule on `.env`. */
export function pathMatches(pattern: string, target: string, root: string, loose = false): boolean {
  const expanded = expandHome(pattern);
  const matcher = globMatcher(expanded.startsWith('/') ? expanded : expanded.replace(/^\.\//, ''), loose);
  const realRoot = resolveReal(root);
  const realTarget = resolveReal(target);
  const candidates: string[] = [];
  if (expanded.startsWith('/')) {
    // Allow rules judge where the path really leads; deny rules also catch the spelled path.
    candidates.push(realTarget);
    if (loose) candidates.push(path.resolve(target));
  } else {
    if (isInsideResolved(realRoot, realTarget)) candidates.push(path.relative(realRoot, realTarget) || '.');
    if (loose) {
      const lexicalRoot = path.resolve(root);
      const lexicalTarget = path.resolve(target);
      if (isInsideResolved(lexicalRoot, lexicalTarget)) candidates.push(path.relative(lexicalRoot, lexicalTarget) || '.');
    }
  }
  return candidates.some((c) => matcher(c.split(path.sep).join('/')));
}

/** A rule's tool against the call's: exact, or `mcp__<server>` for every tool of that server. */
function toolMatches(ruleTool: string, tool: string | undefined): boolean {
  if (tool === undefined) return false;
  if (ruleTool === tool) return true;
  return ruleTool.startsWith('mcp__') && !ruleTool.slice(5).includes('__') && tool.startsWith(`${ruleTool}__`);
}

/** Whether `rule` is about this tool and kind of action (its pattern aside). */
export function ruleAppliesTo(rule: PolicyRule, request: ActionRequest, tool: string | undefined): boolean {
  if (rule.tool !== undefined && rule.tool !== '*' && !toolMatches(rule.tool, tool)) return false;
  return rule.kind === undefined || rule.kind === request.kind;
}

/** Does `rule` apply to this action? Deny and ask rules match when any path matches (tightening);
 * allow rules need every path to match (one uncovered path keeps the action gated). A bash command
 * is judged on the simple commands it runs (command-rules.ts): a deny or ask rule matches when any
 * of them matches, an allow rule when it allows every one. `cwd` is the command's working
 * directory (default: root), for the read-only inspectors an allowed line may contain. */
export function ruleMatches(rule: PolicyRule, request: ActionRequest, tool: string | undefined, root: string, cwd = root): boolean {
  if (!ruleAppliesTo(rule, request, tool)) return false;
  if (rule.pattern === undefined) return true;
  // A fetch is judged on its host (web-rules.ts): `domain:example.com`.
  if (request.host !== undefined) return domainMatches(rule.pattern, request.host);
  const loose = rule.decision !== 'allow';
  if (request.kind === 'bash') {
    if (request.command === undefined) return false;
    return loose ? denyMatch(rule.pattern, request.command) !== undefined : coverCommand(request.command, [rule], { root, cwd }) !== undefined;
  }
  const onCommand = request.paths.length === 0 && request.command !== undefined;
  if (onCommand) return request.command !== undefined && commandMatches(rule.pattern, request.command, loose);
  if (request.paths.length === 0) return false;
  const hit = (p: string): boolean => pathMatches(rule.pattern!, p, root, loose);
  return loose ? request.paths.some(hit) : request.paths.every(hit);
}

function commonDir(paths: string[]): string {
  let dir = path.dirname(paths[0]!);
  for (const p of paths.slice(1)) {
    while (!isInsideResolved(dir, path.dirname(p))) dir = path.dirname(dir);
  }
  return dir;
}

/**
 * The session rule an "always" answer adds, for the UI to show before the user picks it:
 * - bash: the exact command (`{ tool: 'bash', pattern: 'npm test' }`);
 * - a fetch: its host (`{ tool: 'web_fetch', pattern: 'domain:example.com' }`);
 * - path actions: the directory of the path(s) — `src/**` inside the root (relative, so it follows
 *   a worktree child), `*` for files directly in the root, an absolute `<dir>/**` outside it;
 * - anything else: the tool (`{ tool: 'memory_remember' }`), or the kind when no tool is known.
 */
export function suggestRule(request: ActionRequest, tool: string | undefined, root: string): PolicyRule {
  const base: PolicyRule = { decision: 'allow', source: 'session' };
  if (tool !== undefined) base.tool = tool;
  else base.kind = request.kind;
  if (request.kind === 'bash' && request.command !== undefined) return { ...base, pattern: request.command.trim() };
  if (request.host !== undefined) return { ...base, pattern: domainPattern(request.host) };
  if (request.paths.length === 0) return tool !== undefined ? base : { ...base, kind: request.kind };
  const realRoot = resolveReal(root);
  const dir = commonDir(request.paths.map((p) => resolveReal(p)));
  if (!isInsideResolved(realRoot, dir)) return { ...base, pattern: `${dir.split(path.sep).join('/')}/**` };
  const rel = path.relative(realRoot, dir).split(path.sep).join('/');
  return { ...base, pattern: rel === '' ? '*' : `${rel}/**` };
}

/** Short human form, Claude Code style: `bash(npm test)`, `write_file(src/**)`, `[memory]`; a rule
 * from a config file reads as written there (`Bash(npm test:*)`). */
export function formatRule(rule: PolicyRule): string {
  if (rule.origin) return rule.origin.text;
  const subject = rule.tool ?? (rule.kind ? `[${rule.kind}]` : '*');
  const scoped = rule.tool !== undefined && rule.kind !== undefined ? `${subject}[${rule.kind}]` : subject;
  return rule.pattern !== undefined ? `${scoped}(${rule.pattern})` : scoped;
}
