import { existsSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { realOrSelf } from './sensitive-paths.js';
import type { GitMount } from './types.js';

/**
 * How a writable root's git metadata is mounted for a sandboxed command, so that nothing the
 * user's own git later reads as configuration, hooks or a pointer to another git directory can be
 * planted from inside (issue 32). What stays writable, and why: the index, HEAD, refs, logs and
 * objects, so `git add`, `git commit`, `git stash` and a build's `git describe` work as usual.
 *
 * - The root's `.git` directory is bound onto itself (`rw` here): a mount point cannot be renamed,
 *   removed or replaced (EBUSY), so `mv .git .git.orig` and a fresh `.git` fail. A `.git` file (a
 *   linked worktree) is read-only.
 * - Inside the common git directory, read-only: `config` (and so `core.hooksPath`,
 *   `core.fsmonitor`), `hooks/`, `modules/` (submodules' own git directories, with their configs
 *   and hooks), `worktrees/` (other worktrees' `gitdir` and `commondir` pointers); a worktree's own
 *   admin directory is writable again, its `commondir`, `gitdir` and `config.worktree` read-only.
 *   Missing `hooks/`, `modules/` and `worktrees/` are created empty first (as `git init` and
 *   `git worktree add` would) so they can be mounted.
 * - Config files the repository's config includes, where they exist.
 * What mounts cannot stop, creating a new name (a `commondir` in the git directory, a `.git` in a
 * subfolder, a missing include target), the audit finds and moves aside after every command
 * (git-audit.ts), from `gitDirs` and `includeTargets`.
 */
export interface GitLayout {
  mounts: GitMount[];
  /** The git directory and the common one (the same for a main checkout). */
  gitDirs: string[];
  /** Config files the repository's config includes, existing or not. */
  includeTargets: string[];
  /** The hooks git would run from a `core.hooksPath` inside the root (husky's `.husky/_`). */
  hookFiles: string[];
}

const NO_GIT: GitLayout = { mounts: [], gitDirs: [], includeTargets: [], hookFiles: [] };

/** Read from the files git itself writes (no git process): a main checkout has `.git/`; a
 * worktree has a `.git` file naming its admin directory, whose `commondir` names the shared one. */
export function gitLayout(root: string, home: string): GitLayout {
  const dotGit = path.join(root, '.git');
  const found = locate(root, dotGit);
  // A `.git` file seek cannot vouch for (a submodule's checkout, whose git dir has no back-pointer)
  // is still pinned read-only: rewritten, it would point the user's git at a planted directory.
  if (!found) return isFile(dotGit) ? { ...NO_GIT, mounts: [{ path: dotGit, mode: 'ro' }] } : NO_GIT;
  const { gitDir, commonDir } = found;
  for (const dir of ['hooks', 'modules', 'worktrees']) ensureDirectory(path.join(commonDir, dir));
  const mounts: GitMount[] = [];
  const add = (p: string, mode: GitMount['mode']): void => {
    if (existsSync(p)) mounts.push({ path: p, mode });
  };
  if (gitDir === dotGit) add(dotGit, 'rw');
  else {
    add(dotGit, 'ro');
    add(commonDir, 'rw');
  }
  for (const name of ['config', 'config.worktree', 'hooks', 'modules', 'worktrees', 'commondir']) add(path.join(commonDir, name), 'ro');
  if (gitDir !== commonDir) {
    add(gitDir, 'rw');
    for (const name of ['commondir', 'gitdir', 'config.worktree']) add(path.join(gitDir, name), 'ro');
  }
  const configs = [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')];
  const includeTargets = includedConfigs(configs, home);
  for (const target of includeTargets) add(target, 'ro');
  const hooksPath = configuredHooksPath([...userConfigs(home), ...configs, ...includeTargets], root, home);
  const hookFiles = hooksPath !== undefined && hooksPath.startsWith(`${root}/`) ? GIT_HOOKS.map((name) => path.join(hooksPath, name)) : [];
  return { mounts, gitDirs: [...new Set([gitDir, commonDir])], includeTargets, hookFiles };
}

function locate(root: string, dotGit: string): { gitDir: string; commonDir: string } | undefined {
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) return { gitDir: dotGit, commonDir: dotGit };
    if (!stat.isFile()) return undefined;
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    const candidate = match ? realOrSelf(path.resolve(root, match[1]!.trim())) : undefined;
    // The `.git` file is the project's (a hostile repository writes what it likes there); git's
    // own back-pointer in the worktree's gitdir, outside the project, must name this checkout.
    const backPointer = candidate ? readOptional(path.join(candidate, 'gitdir'))?.trim() : undefined;
    if (!candidate || !backPointer || realOrSelf(path.resolve(candidate, backPointer)) !== realOrSelf(dotGit)) return undefined;
    const common = readOptional(path.join(candidate, 'commondir'));
    return { gitDir: candidate, commonDir: common ? realOrSelf(path.resolve(candidate, common.trim())) : candidate };
  } catch {
    return undefined;
  }
}

function isFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}

function ensureDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    // A read-only repository: nothing can be planted there from inside either.
  }
}

/**
 * The files `include.path` and `includeIf.<condition>.path` name in `configs`, followed through
 * the files they include (ten levels, as git allows). Relative paths are relative to the including
 * file; `~/` is the home directory. Read with a line parser: only the include keys matter here.
 */
export function includedConfigs(configs: string[], home: string): string[] {
  const found = new Set<string>();
  const visit = (file: string, depth: number): void => {
    const text = readOptional(file);
    if (text === undefined || depth > 10) return;
    let inInclude = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      const section = /^\[\s*([A-Za-z0-9.-]+)/.exec(line);
      if (section) inInclude = /^include(if)?$/i.test(section[1]!);
      const body = section ? line.slice(line.indexOf(']') + 1).trim() : line;
      const entry = /^path\s*=\s*(.*)$/i.exec(body);
      if (!inInclude || !entry) continue;
      const value = unquote(entry[1]!.replace(/\s+[#;].*$/, '').trim());
      if (value === '') continue;
      const target = value.startsWith('~/') ? path.join(home, value.slice(2)) : path.resolve(path.dirname(file), value);
      if (found.has(target)) continue;
      found.add(target);
      visit(target, depth + 1);
    }
  };
  for (const config of configs) visit(config, 0);
  return [...found];
}

/** Every hook name git runs (githooks(5)). */
const GIT_HOOKS = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg',
  'commit-msg', 'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update',
  'proc-receive', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc',
  'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'p4-changelist', 'p4-prepare-changelist',
  'p4-post-changelist', 'p4-pre-submit', 'post-index-change',
];

/** The user's own git config files (global scope), where `core.hooksPath` often comes from. */
function userConfigs(home: string): string[] {
  return [path.join(home, '.gitconfig'), path.join(home, '.config', 'git', 'config')];
}

/**
 * The last `core.hooksPath` the files set, resolved as git does: `~/` against the home, a
 * relative path against the working tree's root. Read with a line parser, like the includes.
 */
function configuredHooksPath(files: string[], root: string, home: string): string | undefined {
  let found: string | undefined;
  for (const file of files) {
    const text = readOptional(file);
    if (text === undefined) continue;
    let inCore = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      const section = /^\[\s*([A-Za-z0-9.-]+)\s*\]/.exec(line);
      if (section) inCore = section[1]!.toLowerCase() === 'core';
      const body = section ? line.slice(line.indexOf(']') + 1).trim() : line;
      const entry = /^hookspath\s*=\s*(.*)$/i.exec(body);
      if (inCore && entry) found = unquote(entry[1]!.replace(/\s+[#;].*$/, '').trim());
    }
  }
  if (found === undefined || found === '') return undefined;
  return found.startsWith('~/') ? path.join(home, found.slice(2)) : path.resolve(root, found);
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
