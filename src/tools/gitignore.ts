import type { Dirent } from 'node:fs';
import { readFileSync, readdirSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * The one .gitignore-aware view of the file system that glob, grep and list_dir share (the walk
 * itself is walk.ts).
 *
 * Rules: `.git` is always skipped; every `.gitignore` from the repository top level (the nearest
 * ancestor holding `.git`, else the searched root) down to an entry's directory applies, deeper
 * files taking precedence, later lines within a file winning; `.git/info/exclude` applies at the
 * top. Ignored directories are pruned, never entered, so a negation cannot re-include a file under
 * an ignored directory, exactly as in git. Symlinks are listed but never followed.
 */
export class IgnoreRules {
  /** Parsed rules per directory; `null` when the directory has no .gitignore. */
  private readonly rulesByDir = new Map<string, Ignore | null>();
  /** Per directory, the .gitignore files that apply to its entries, deepest first. */
  private readonly chains = new Map<string, RuleScope[]>();
  private readonly ignoredDirs = new Map<string, boolean>();

  private constructor(
    /** Directory whose .gitignore is the outermost one that applies. */
    readonly top: string,
    private readonly exclude: Ignore | null,
  ) {}

  /**
   * Rules for walking under `root` (absolute). A root that is itself ignored was asked for
   * explicitly (say `node_modules/pkg`), so, like ripgrep, only the rules at and below it apply.
   */
  static async forRoot(root: string): Promise<IgnoreRules> {
    const gitTop = await findGitTop(root);
    if (!gitTop) return new IgnoreRules(root, null);
    const exclude = loadRules(path.join(gitTop, '.git', 'info', 'exclude'));
    const rules = new IgnoreRules(gitTop, exclude);
    if (gitTop !== root && rules.isIgnoredSync(root, true)) return new IgnoreRules(root, null);
    return rules;
  }

  /** Whether `absPath` is ignored. Paths outside `top` are only checked for a `.git` component. */
  isIgnored(absPath: string, isDirectory: boolean): Promise<boolean> {
    return Promise.resolve(this.isIgnoredSync(path.resolve(absPath), isDirectory));
  }

  /** `isIgnored` without a promise, for an absolute, normalised path: also ignored when a
   * directory between `top` and it is (a negation cannot re-include what lies under one). */
  isIgnoredSync(absPath: string, isDirectory: boolean): boolean {
    if (path.basename(absPath) === '.git') return true;
    if (!isBelow(this.top, absPath)) return false;
    const parent = path.dirname(absPath);
    return (parent !== this.top && this.dirIgnored(parent)) || this.testEntry(absPath, isDirectory);
  }

  /** `testName` for an absolute path. */
  private testEntry(absPath: string, isDirectory: boolean): boolean {
    return this.testName(path.dirname(absPath), path.basename(absPath), isDirectory);
  }

  /**
   * Whether entry `name` of directory `dir` (absolute, normalised, at or below `top`) is ignored
   * by the rules that apply there, its parent directories assumed not ignored (walkers prune
   * ignored directories, so they never ask about their entries). Each .gitignore is read once per
   * IgnoreRules, when a path below it is first tested.
   */
  private testName(dir: string, name: string, isDirectory: boolean): boolean {
    return name === '.git' || this.scopesFor(dir).ignores(name, isDirectory);
  }

  /** The rule files that apply to the entries of `dir` (at or below `top`), each with the prefix
   * that makes an entry's name relative to it: built once per directory, not per entry. */
  private scopesFor(dir: string): DirScopes {
    const chain = this.chainFor(dir);
    const prefixes = chain.map((scope) => relativePrefix(scope.dir, dir));
    const exclude = this.exclude && hasRules(this.exclude) ? this.exclude : null;
    return new DirScopes(chain, prefixes, exclude, exclude ? relativePrefix(this.top, dir) : '');
  }

  /** Whether directory `dir` (below `top`) or one above it is ignored; remembered per directory. */
  private dirIgnored(dir: string): boolean {
    let ignored = this.ignoredDirs.get(dir);
    if (ignored === undefined) {
      const parent = path.dirname(dir);
      ignored = (parent !== this.top && parent !== dir && this.dirIgnored(parent)) || this.testEntry(dir, true);
      this.ignoredDirs.set(dir, ignored);
    }
    return ignored;
  }

  /** The entries of `dir` that are neither `.git` nor ignored. */
  async filterEntries(dir: string, entries: Dirent[]): Promise<Dirent[]> {
    return this.filterEntriesSync(path.resolve(dir), entries);
  }

  /** `filterEntries` for an absolute, normalised `dir`, without a promise. */
  filterEntriesSync(dir: string, entries: Dirent[]): Dirent[] {
    if (dir !== this.top && !isBelow(this.top, dir)) return entries.filter((entry) => entry.name !== '.git');
    const scopes = this.scopesFor(dir);
    if (scopes.empty) return entries.filter((entry) => entry.name !== '.git');
    return entries.filter((entry) => entry.name !== '.git' && !scopes.ignores(entry.name, entry.isDirectory()));
  }

  /** Reads `dir` and drops `.git` and ignored entries. */
  async readDir(dir: string): Promise<Dirent[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    return this.filterEntriesSync(path.resolve(dir), entries);
  }

  /** `readDir` without a promise (a directory read costs tens of microseconds; walkers call it
   * in slices, see walk-slices.ts). */
  readDirSync(dir: string): Dirent[] {
    const entries = readdirSync(dir, { withFileTypes: true });
    // The listing says whether there is a .gitignore to read: no failed open per directory.
    if (!this.rulesByDir.has(dir) && !entries.some((entry) => entry.name === '.gitignore')) this.rulesByDir.set(dir, null);
    return this.filterEntriesSync(dir, entries);
  }

  /** The rule files from `dir` (at or below `top`) up to `top`, deepest first. */
  private chainFor(dir: string): RuleScope[] {
    let chain = this.chains.get(dir);
    if (!chain) {
      const parent = path.dirname(dir);
      const outer = dir === this.top || parent === dir ? [] : this.chainFor(parent);
      const rules = this.rulesIn(dir);
      chain = rules ? [{ dir, rules }, ...outer] : outer;
      this.chains.set(dir, chain);
    }
    return chain;
  }

  private rulesIn(dir: string): Ignore | null {
    let rules = this.rulesByDir.get(dir);
    if (rules === undefined) {
      rules = loadRules(path.join(dir, '.gitignore'));
      this.rulesByDir.set(dir, rules);
    }
    return rules;
  }
}

/** The nearest ancestor of `start` (itself included) that holds a `.git` entry. */
export async function findGitTop(start: string): Promise<string | null> {
  let dir = path.resolve(start);
  for (;;) {
    try {
      await stat(path.join(dir, '.git'));
      return dir;
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
  }
}

function loadRules(file: string): Ignore | null {
  try {
    return ignore().add(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

interface RuleScope {
  dir: string;
  rules: Ignore;
}

/** The rules that apply in one directory, deepest .gitignore first, with the `.git/info/exclude`
 * rules last; `prefixes[i]` makes an entry name relative to `chain[i]`'s directory. */
class DirScopes {
  constructor(
    private readonly chain: RuleScope[],
    private readonly prefixes: string[],
    private readonly exclude: Ignore | null,
    private readonly excludePrefix: string,
  ) {}

  /** No rule applies: nothing here is ignored (but `.git`). */
  get empty(): boolean {
    return this.chain.length === 0 && this.exclude === null;
  }

  ignores(name: string, isDirectory: boolean): boolean {
    const suffix = isDirectory ? '/' : '';
    // Deepest .gitignore first: the first file with an opinion (ignore or re-include) decides.
    for (let index = 0; index < this.chain.length; index += 1) {
      const verdict = testOne(this.chain[index]!.rules, this.prefixes[index]! + name + suffix);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return this.exclude ? testOne(this.exclude, this.excludePrefix + name + suffix).ignored : false;
  }
}

interface Verdict {
  ignored: boolean;
  unignored: boolean;
}

type RuleList = { test(relPath: string, mode: 'regex'): Verdict };

/**
 * One path against one .gitignore's rules, without `ignore`'s check of every parent directory
 * (and its cache, which grows by every path tested): the walkers prune ignored directories, so
 * a tested path's parents are never ignored. Uses the rule list of ignore 7 (pinned) when it has
 * one, else the public `test`.
 */
function testOne(rules: Ignore, relPath: string): Verdict {
  const list = (rules as unknown as { _rules?: Partial<RuleList> })._rules;
  return typeof list?.test === 'function' ? list.test(relPath, 'regex') : rules.test(relPath);
}

/** What makes an entry name of `dir` relative to `scope` (an ancestor of `dir` or `dir` itself),
 * with `/`: '' or `sub/dir/`. */
function relativePrefix(scope: string, dir: string): string {
  return dir === scope ? '' : `${toPosix(dir.slice(prefixLength(scope)))}/`;
}

/** Whether a rule set has rules (a `.git/info/exclude` of comments only has none); true when
 * `ignore`'s internals are not as expected. */
function hasRules(rules: Ignore): boolean {
  const list = (rules as unknown as { _rules?: { _rules?: unknown } })._rules?._rules;
  return !Array.isArray(list) || list.length > 0;
}

/** `dir` joined with an entry name, without path.join's normalising (`dir` is already). */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** Length of `dir` plus its separator: what to slice off a path below it. */
function prefixLength(dir: string): number {
  return dir.endsWith(path.sep) ? dir.length : dir.length + 1;
}

/** Whether `absPath` is strictly below `dir` (both absolute and normalised). */
function isBelow(dir: string, absPath: string): boolean {
  return absPath.length > dir.length && absPath.startsWith(dir) && (dir.endsWith(path.sep) || absPath[dir.length] === path.sep);
}

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}
