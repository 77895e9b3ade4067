import type { Dirent } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { FileSystemAdapter } from 'tinyglobby';

/**
 * The one .gitignore-aware view of the file system that glob, grep and list_dir share.
 *
 * Rules: `.git` is always skipped; every `.gitignore` from the repository top level (the nearest
 * ancestor holding `.git`, else the searched root) down to an entry's directory applies, deeper
 * files taking precedence, later lines within a file winning; `.git/info/exclude` applies at the
 * top. Ignored directories are pruned, never entered, so a negation cannot re-include a file under
 * an ignored directory, exactly as in git. Symlinks are listed but never followed.
 */
export class IgnoreRules {
  /** Parsed rules per directory; `null` when the directory has no .gitignore. */
  private readonly rulesByDir = new Map<string, Promise<Ignore | null>>();

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
    const exclude = await loadRules(path.join(gitTop, '.git', 'info', 'exclude'));
    const rules = new IgnoreRules(gitTop, exclude);
    if (gitTop !== root && (await rules.isIgnored(root, true))) return new IgnoreRules(root, null);
    return rules;
  }

  /** Whether `absPath` is ignored. Paths outside `top` are only checked for a `.git` component. */
  async isIgnored(absPath: string, isDirectory: boolean): Promise<boolean> {
    if (path.basename(absPath) === '.git') return true;
    const relativeToTop = path.relative(this.top, absPath);
    if (relativeToTop === '' || isOutside(relativeToTop)) return false;
    const suffix = isDirectory ? '/' : '';

    // Deepest .gitignore first: the first file with an opinion (ignore or re-include) decides.
    let dir = path.dirname(absPath);
    for (;;) {
      const rules = await this.rulesIn(dir);
      if (rules) {
        const verdict = rules.test(toPosix(path.relative(dir, absPath)) + suffix);
        if (verdict.ignored) return true;
        if (verdict.unignored) return false;
      }
      if (dir === this.top || path.dirname(dir) === dir) break;
      dir = path.dirname(dir);
    }
    return this.exclude ? this.exclude.ignores(toPosix(relativeToTop) + suffix) : false;
  }

  /** The entries of `dir` that are neither `.git` nor ignored. */
  async filterEntries(dir: string, entries: Dirent[]): Promise<Dirent[]> {
    const verdicts = await Promise.all(
      entries.map((entry) => this.isIgnored(path.join(dir, entry.name), entry.isDirectory())),
    );
    return entries.filter((_entry, index) => !verdicts[index]);
  }

  /** Reads `dir` and drops `.git` and ignored entries. */
  async readDir(dir: string): Promise<Dirent[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    return this.filterEntries(dir, entries);
  }

  /**
   * A file-system adapter for tinyglobby whose directory reads skip ignored entries, so the glob
   * crawl prunes ignored trees (node_modules, build output) instead of filtering afterwards.
   */
  globFsAdapter(): FileSystemAdapter {
    type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void;
    const filteredReaddir = (dir: string, _options: unknown, callback: ReaddirCallback): void => {
      const absolute = path.resolve(dir);
      this.readDir(absolute).then(
        (entries) => callback(null, entries),
        (error: NodeJS.ErrnoException) => callback(error, []),
      );
    };
    // fdir only calls the (path, { withFileTypes: true }, callback) form; the cast narrows the
    // overloaded node:fs signature to that one.
    return { readdir: filteredReaddir as unknown as FileSystemAdapter['readdir'] };
  }

  private rulesIn(dir: string): Promise<Ignore | null> {
    let rules = this.rulesByDir.get(dir);
    if (!rules) {
      rules = loadRules(path.join(dir, '.gitignore'));
      this.rulesByDir.set(dir, rules);
    }
    return rules;
  }
}

export interface WalkedFile {
  absPath: string;
  /** Relative to the walk root, with `/` separators. */
  relPath: string;
}

/**
 * Every non-ignored regular file under `root`, in lexicographic order of `relPath` (a directory
 * `a` sorts as `a/`, which makes depth-first order equal plain string order of the full paths).
 * Stops early when `signal` aborts.
 */
export async function* walkFiles(root: string, rules: IgnoreRules, signal?: AbortSignal): AsyncGenerator<WalkedFile> {
  async function* visit(dir: string, relDir: string): AsyncGenerator<WalkedFile> {
    if (signal?.aborted) return;
    let entries: Dirent[];
    try {
      entries = await rules.readDir(dir);
    } catch {
      return; // unreadable directory: skip it like rg does
    }
    const keyed = entries
      .filter((entry) => entry.isFile() || entry.isDirectory())
      .map((entry) => ({ entry, key: entry.isDirectory() ? `${entry.name}/` : entry.name }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { entry } of keyed) {
      if (signal?.aborted) return;
      const absPath = path.join(dir, entry.name);
      const relPath = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) yield* visit(absPath, relPath);
      else yield { absPath, relPath };
    }
  }
  yield* visit(root, '');
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

async function loadRules(file: string): Promise<Ignore | null> {
  try {
    const text = await readFile(file, 'utf8');
    return ignore().add(text);
  } catch {
    return null;
  }
}

function isOutside(relative: string): boolean {
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}
