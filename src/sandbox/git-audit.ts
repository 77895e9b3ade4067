import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, type BigIntStats, type Dirent } from 'node:fs';
import path from 'node:path';

/**
 * After every sandboxed command: finds git metadata the command planted under a writable root
 * (a new `.git`, a changed config or hook of a nested repository, a new `commondir`/`gitdir`/
 * `config.worktree` in the root's git dirs, a new or changed config include target, a directory
 * made into a bare repository) and renames each aside, so the user's own git, run later outside the
 * sandbox, never trusts it. Mounts cannot stop a command creating new names; this audit does.
 * A root's own `.git` present at the first walk is left to the mounts; one appearing later (a
 * sandboxed `git init` at the root) is renamed aside like any other.
 *
 * Cost: the first begin() walks every root once (sync); each finish() lstats every known directory
 * and reads again only those whose ctime moved. ctime (not mtime: utimes cannot set ctime back) is
 * compared with the begin() wall clock less a 2 s margin for coarse or lagging filesystem clocks.
 * Trade-offs: the margin only costs extra readdirs, except that a nested repository created or
 * edited OUTSIDE the sandbox within 2 s of a command's start can be quarantined (a rename, and the
 * line says so); and the filesystem clock is assumed to be within 2 s of this machine's (a network
 * filesystem whose server lags by more could let a planted `.git` pass as pre-existing). A nested
 * repository's key file counts as changed when its lstat signature (inode, size, mtime, ctime)
 * differs from the last audit's AND its ctime is recent, so untouched fixtures are left alone.
 */
export interface GitAuditScope {
  /** Directories the sandbox may write (the project root first: messages show paths relative to it). */
  writableRoots: string[];
  /** The root repository's git dir and common dir. */
  gitDirs: string[];
  /** Absolute paths the root repository's config includes (only those inside a writable root matter). */
  includeTargets: string[];
  /** Hook files git runs from a `core.hooksPath` inside a writable root (husky's `.husky/_`):
   * judged by mode and content only, so a tool that writes the same hooks again passes. */
  hookFiles?: string[];
  /** Allowance for coarse or lagging filesystem clocks; 2000 unless a test or benchmark says otherwise. */
  marginMs?: number;
}

export interface AuditToken {
  readonly start: bigint;
  readonly named: ReadonlyMap<string, string | null>;
}

const SUFFIX = '.seek-quarantine';
const KEY_FILES = ['config', 'config.worktree', 'commondir', 'gitdir', 'hooks'];
const POINTER_FILES = ['commondir', 'gitdir', 'config.worktree'];
const TRUSTED = 'and git run outside the sandbox would have trusted it';
const YIELD_EVERY = 2000;

interface Sig { id: string; ctime: bigint }
interface Repo {
  /** What gets renamed aside: a `.git` entry, or the HEAD of a bare-shaped directory. */
  entry: string;
  bare: boolean;
  ino: string;
  gitDir: string | null;
  keys: Map<string, Sig | null>;
  hooks: string[];
}
interface Pass { threshold: bigint; lines: string[]; problems: Set<string>; ops: number }
type Pending = [dir: string, st: BigIntStats, planted: boolean];

const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;
const errCode = (e: unknown): string => (e as NodeJS.ErrnoException)?.code ?? String(e);
const gone = (e: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes(errCode(e));
const inoOf = (s: BigIntStats): string => `${s.dev}:${s.ino}`;
const sigOf = (s: BigIntStats | null): Sig | null => (s ? { id: `${s.mode}:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, ctime: s.ctimeNs } : null);
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const inside = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

export class GitMetadataAudit {
  private readonly roots: string[];
  private readonly gitDirs: Set<string>;
  private readonly namedFiles: string[];
  private readonly contentOnly: Set<string>;
  /** Every directory seen under the roots (never inside a git dir, never through a symlink). */
  private readonly dirs = new Map<string, { ino: bigint; ctime: bigint }>();
  /** Nested repositories that existed before a command, by entry path. */
  private readonly repos = new Map<string, Repo>();
  /** Each root's own `.git` present at the first walk: the mounts guard it. */
  private readonly rootGit = new Set<string>();
  /** Directories this audit renamed aside (path + inode): not walked (they are git dirs). */
  private readonly quarantined = new Set<string>();
  private readonly active = new Set<AuditToken>();
  private readonly marginNs: bigint;
  private walked = false;

  constructor(scope: GitAuditScope) {
    const real = (p: string): string => { try { return realpathSync(p); } catch { return path.resolve(p); } };
    this.roots = scope.writableRoots.map(real);
    this.marginNs = BigInt(scope.marginMs ?? 2000) * 1_000_000n;
    this.gitDirs = new Set(scope.gitDirs.map(real));
    const includes = scope.includeTargets.map((p) => path.join(real(path.dirname(p)), path.basename(p))).filter((p) => this.roots.some((r) => inside(r, p)));
    const hooks = (scope.hookFiles ?? []).filter((p) => this.roots.some((r) => inside(r, p)));
    this.contentOnly = new Set(hooks);
    this.namedFiles = [...[...this.gitDirs].flatMap((d) => POINTER_FILES.map((f) => path.join(d, f))), ...includes, ...hooks];
  }

  /** Before a command starts. The first call walks the roots; later calls only read the few named files. */
  begin(): AuditToken {
    if (!this.walked) {
      this.walked = true;
      try {
        for (const root of this.roots) {
          const st = this.lst(root, null);
          if (!st?.isDirectory()) continue;
          if (this.lst(path.join(root, '.git'), null)) this.rootGit.add(path.join(root, '.git'));
          const stack: Pending[] = [[root, st, false]];
          for (let next = stack.pop(); next; next = stack.pop()) this.readDir(next[0], next[1], null, next[2], stack);
        }
      } catch { /* a partial baseline: finish() still checks what it knows and re-walks new directories */ }
    }
    const token: AuditToken = { start: nowNs(), named: new Map(this.namedFiles.map((f) => [f, this.named(f)])) };
    this.active.add(token);
    return token;
  }

  /** After the command ended: renames aside what it planted; one line per item, [] when clean. Never throws.
   * Yields to the event loop every few thousand file-system calls, so a large tree keeps the UI live. */
  async finish(token: AuditToken): Promise<string[]> {
    const steps = this.steps(token);
    for (let step = steps.next(); !step.done; step = steps.next()) await tick();
    return this.report(token);
  }

  /** `finish` without yielding: for seek's exit, when background jobs are killed and no await runs. */
  finishSync(token: AuditToken): string[] {
    const steps = this.steps(token);
    for (let step = steps.next(); !step.done; step = steps.next());
    return this.report(token);
  }

  /** Every command still running (background jobs), audited at once: seek's exit. */
  finishRunning(): string[] {
    return [...this.active].flatMap((token) => this.finishSync(token));
  }

  readonly #passes = new WeakMap<AuditToken, Pass>();

  private *steps(token: AuditToken): Generator<void> {
    let earliest = token.start;
    for (const t of this.active) if (t.start < earliest) earliest = t.start;
    const p: Pass = { threshold: earliest - this.marginNs, lines: [], problems: new Set(), ops: 0 };
    this.#passes.set(token, p);
    try {
      yield* this.scanTree(p);
      for (const repo of [...this.repos.values()]) this.checkRepo(repo, p);
      for (const [file, before] of token.named) {
        const after = this.named(file);
        if (after === null || after === before) continue;
        const where = this.gitDirs.has(path.dirname(file))
          ? 'in the repository\'s git dir'
          : this.contentOnly.has(file)
            ? 'in the hooks folder git runs (core.hooksPath)'
            : 'and the repository\'s config includes it';
        this.quarantine(file, `${before === null ? 'created' : 'changed'} it ${where}`, p);
      }
    } catch (e) {
      p.problems.add(`the audit itself (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      this.active.delete(token);
    }
  }

  private report(token: AuditToken): string[] {
    const p = this.#passes.get(token);
    if (!p) return [];
    this.#passes.delete(token);
    const all = [...p.problems];
    const shown = all.slice(0, 5).join(', ') + (all.length > 5 ? `, and ${all.length - 5} more` : '');
    if (all.length > 0) p.lines.push(`could not check ${shown} for git metadata planted by a sandboxed command: look there before running git`);
    return p.lines;
  }

  private *scanTree(p: Pass): Generator<void> {
    const changed: Array<[string, BigIntStats]> = [];
    for (const [dir, node] of this.dirs) {
      if (++p.ops % YIELD_EVERY === 0) yield;
      const st = this.lst(dir, p);
      if (!st?.isDirectory() || st.ino !== node.ino) this.dirs.delete(dir);
      else if (st.ctimeNs !== node.ctime || st.ctimeNs >= p.threshold) changed.push([dir, st]);
    }
    const stack: Pending[] = [];
    for (const root of this.roots) {
      const st = this.dirs.has(root) ? null : this.lst(root, p);
      if (st?.isDirectory()) stack.push([root, st, false]);
    }
    for (const [dir, st] of changed) stack.push([dir, st, false]);
    for (let next = stack.pop(); next; next = stack.pop()) {
      if (++p.ops % YIELD_EVERY === 0) yield;
      this.readDir(next[0], next[1], p, next[2], stack);
    }
  }

  /** Records `dir`, checks its git-looking entries, and queues subdirectories not yet known. */
  private readDir(dir: string, st: BigIntStats, p: Pass | null, planted: boolean, stack: Pending[]): void {
    this.dirs.set(dir, { ino: st.ino, ctime: st.ctimeNs });
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if (gone(e)) return;
      p?.problems.add(`${this.show(dir)} (${errCode(e)})`);
      this.checkGit(path.join(dir, '.git'), p, planted, false); // an unlistable dir can still be searchable
      return;
    }
    const names = new Set(entries.map((e) => e.name));
    // git accepts a directory holding HEAD with objects/ and refs/ (or commondir) as a bare repository:
    // unless the HEAD is renamed aside, it is a git dir, and its subdirectories are not walked.
    const bare = names.has('HEAD') && (names.has('commondir') || (names.has('objects') && names.has('refs')));
    const gitDirLike = bare && !this.gitDirs.has(dir) && !this.checkGit(path.join(dir, 'HEAD'), p, planted, true);
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.name === '.git' && !this.rootGit.has(full)) this.checkGit(full, p, planted, false);
      if (e.name === '.git') continue;
      if (!e.isDirectory() || gitDirLike || this.gitDirs.has(full)) continue;
      const cst = this.lst(full, p);
      if (!cst?.isDirectory() || this.quarantined.has(`${full}\0${cst.ino}`)) continue;
      if (this.dirs.get(full)?.ino === cst.ino) continue; // known: the lstat pass looks at it
      stack.push([full, cst, planted || (p !== null && cst.ctimeNs >= p.threshold)]);
    }
  }

  /** A `.git` entry (or a bare directory's HEAD) met while reading a directory. Returns true if renamed aside. */
  private checkGit(entry: string, p: Pass | null, planted: boolean, bare: boolean): boolean {
    const st = this.lst(entry, p);
    if (!st) return false;
    const ino = inoOf(st);
    if (this.repos.get(entry)?.ino === ino) return false; // known: checkRepo looks at it
    const moved = [...this.repos.values()].find((r) => r.ino === ino && r.bare === bare);
    const movedFrom = moved && this.lst(moved.entry, p);
    if (moved && (!movedFrom || inoOf(movedFrom) !== ino)) {
      // A known repository moved along with its directory: keep its baseline, judge its key files.
      this.repos.delete(moved.entry);
      Object.assign(moved, { entry, gitDir: this.gitDirOf(entry, st, bare) });
      this.repos.set(entry, moved);
      return false;
    }
    if (p && (planted || st.ctimeNs >= p.threshold) && !(st.isDirectory() && !bare && !this.repos.has(entry) && benignNewRepository(entry))) {
      const why = bare ? `made ${this.show(path.dirname(entry))} a git directory` : this.repos.has(entry) ? 'replaced it' : 'created it';
      return this.quarantine(entry, why, p);
    }
    const repo: Repo = { entry, bare, ino, gitDir: this.gitDirOf(entry, st, bare), keys: new Map(), hooks: [] };
    this.snapshot(repo, repo, p);
    this.repos.set(entry, repo);
    return false;
  }

  /** A nested repository known from before: renamed aside if the command replaced it or changed a key file. */
  private checkRepo(repo: Repo, p: Pass): void {
    const st = this.lst(repo.entry, p);
    if (!st || inoOf(st) !== repo.ino) {
      this.repos.delete(repo.entry);
      if (st && st.ctimeNs >= p.threshold) this.quarantine(repo.entry, 'replaced it', p);
      else if (st) this.checkGit(repo.entry, null, false, repo.bare);
      return;
    }
    const now: Repo = { ...repo, keys: new Map() };
    this.snapshot(now, repo, p);
    const changed = [...now.keys].filter(([k, s]) => s !== null && s.ctime >= p.threshold && s.id !== repo.keys.get(k)?.id).map(([k]) => k);
    if (changed.length === 0) { Object.assign(repo, { keys: now.keys, hooks: now.hooks }); return; }
    this.repos.delete(repo.entry);
    const what = repo.bare ? path.dirname(repo.entry) : repo.entry;
    this.quarantine(repo.entry, `changed ${changed.join(', ')} of the repository at ${this.show(what)}`, p);
  }

  /** Fills `into.keys` with signatures of the files git trusts; lists hooks again only if the hooks dir changed. */
  private snapshot(into: Repo, before: Repo, p: Pass | null): void {
    const first = before.keys.size === 0;
    const self = into.bare ? null : this.lst(into.entry, p);
    if (self && !self.isDirectory()) into.keys.set(path.basename(into.entry), sigOf(self)); // a gitfile or symlink
    if (!into.gitDir) return;
    for (const k of KEY_FILES) into.keys.set(k, sigOf(this.lst(path.join(into.gitDir, k), p)));
    const hooksDir = path.join(into.gitDir, 'hooks');
    if (first || into.keys.get('hooks')?.id !== before.keys.get('hooks')?.id) {
      try { into.hooks = readdirSync(hooksDir); } catch { into.hooks = []; }
    }
    for (const h of into.hooks) into.keys.set(`hooks/${h}`, sigOf(this.lst(path.join(hooksDir, h), p)));
  }

  /** The git dir an entry leads to: the `.git` dir itself, a gitfile's or symlink's target, a bare dir. */
  private gitDirOf(entry: string, st: BigIntStats, bare: boolean): string | null {
    const base = path.dirname(entry);
    if (bare) return base;
    if (st.isDirectory()) return entry;
    try {
      if (st.isSymbolicLink()) return path.resolve(base, readlinkSync(entry));
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(entry, 'utf8').slice(0, 4096));
      return m?.[1] ? path.resolve(base, m[1]) : null;
    } catch {
      return null;
    }
  }

  /** Renames `target` to `<target>.seek-quarantine` (or `-2`, `-3`, ...): never deletes. */
  private quarantine(target: string, why: string, p: Pass): boolean {
    for (let i = 1; i < 100; i++) {
      const dest = `${target}${SUFFIX}${i === 1 ? '' : `-${i}`}`;
      if (this.lst(dest, p)) continue; // taken: never overwrite
      try {
        renameSync(target, dest);
      } catch (e) {
        p.lines.push(`could not move ${this.show(target)} aside (${errCode(e)}): a sandboxed command ${why}; remove it before running git there`);
        return false;
      }
      const st = this.lst(dest, p);
      if (st?.isDirectory()) this.quarantined.add(`${dest}\0${st.ino}`);
      p.lines.push(`moved ${this.show(target)} aside to ${this.show(dest)}: a sandboxed command ${why}, ${TRUSTED}`);
      return true;
    }
    p.lines.push(`could not move ${this.show(target)} aside (no free ${SUFFIX} name): a sandboxed command ${why}; remove it before running git there`);
    return false;
  }

  /** A named file's identity and (small files) content; null when absent. */
  private named(file: string): string | null {
    const st = this.lst(file, null);
    if (!st) return null;
    let body = `${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    if (st.isFile() && st.size <= 65_536n) {
      try { body = readFileSync(file, 'latin1'); } catch { /* keep the signature */ }
    }
    return this.contentOnly.has(file) ? `${st.mode}:${body}` : `${st.mode}:${inoOf(st)}:${body}`;
  }

  /** lstat with bigint times; null when absent; other errors are noted as unchecked. */
  private lst(p: string, pass: Pass | null): BigIntStats | null {
    try { return lstatSync(p, { bigint: true }); } catch (e) {
      if (!gone(e)) pass?.problems.add(`${this.show(p)} (${errCode(e)})`);
      return null;
    }
  }

  private show(p: string): string {
    const root = this.roots[0];
    return root !== undefined && inside(root, p) && p !== root ? path.relative(root, p) : p;
  }
}

/** Config keys `git init`, `git clone` and a first commit write: nothing among them runs a
 * program or points git elsewhere. `<sub>` stands for any subsection (a remote's or branch's name). */
const INIT_KEYS = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'extensions.objectformat',
  'init.defaultbranch',
  'user.name',
  'user.email',
  'remote.<sub>.url',
  'remote.<sub>.fetch',
  'branch.<sub>.remote',
  'branch.<sub>.merge',
]);

/**
 * A `.git` directory exactly as `git init` (or a clone, or a first commit) leaves it: no pointer
 * files, only sample hooks, and a config of INIT_KEYS. A sandboxed `git init` of a new project is
 * kept (and watched from then on, like any nested repository); anything more is moved aside.
 */
export function benignNewRepository(gitDir: string): boolean {
  for (const name of POINTER_FILES) {
    try {
      lstatSync(path.join(gitDir, name));
      return false;
    } catch {
      // absent, as git init leaves it
    }
  }
  try {
    if (readdirSync(path.join(gitDir, 'hooks')).some((hook) => !hook.endsWith('.sample'))) return false;
  } catch (e) {
    if (!gone(e)) return false;
  }
  let config: string;
  try {
    config = readFileSync(path.join(gitDir, 'config'), 'utf8');
  } catch (e) {
    return gone(e);
  }
  let section = '';
  for (const raw of config.split('\n')) {
    const line = raw.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      section = /"/.test(line) ? `${header[1]!.toLowerCase()}.<sub>` : header[1]!.toLowerCase();
      if (header[2] !== '' && !header[2]!.startsWith('#') && !header[2]!.startsWith(';')) return false;
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$)/.exec(line);
    if (!key || !INIT_KEYS.has(`${section}.${key[1]!.toLowerCase()}`)) return false;
  }
  return true;
}
