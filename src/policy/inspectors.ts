import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { GIT_CONFIG_LISTING_ARGS, repositoryConfigRunsPrograms } from '../util/git-safety.js';
import { expandHome, isInside, isInsideResolved, resolveReal } from './paths.js';

/**
 * Read-only bash inspectors (seek-spec 2.3 step 1): commands allowed without asking in every mode,
 * plan mode included. These checks must hold on their own, with or without an OS sandbox around
 * the command. A command qualifies only when
 *  - it contains none of the shell metacharacters `; & | > < $ \` ( )` and no newline, so it is one
 *    simple command with no redirection, substitution or chaining; no unquoted `{` either (brace
 *    expansion could produce any path);
 *  - its first word is on the whitelist below and its arguments pass that entry's check: options
 *    that write, delete or run other programs are refused (`find -exec`, `rg --pre`, `sort -o`…),
 *    and so are options that make a recursive reader follow symlinks (`grep -R`, `rg -L`,
 *    `find -L`/`-follow`, `du -L`, `ls -L`, `diff -r`), which could walk out of the project;
 *  - every argument that could be a path stays inside the project once symlinks are resolved:
 *    each word that is not an option, each option value (`--file=X`, `-fX`), and every match of
 *    an unquoted glob (a glob containing `..` is refused outright);
 *  - `git` runs in a repository at or inside the project whose own config names no program and
 *    has no post-index-change hook (plain `git status` would run them), and version queries run
 *    where no file selects a toolchain (rustup, asdf or mise can run a program such a file names).
 * Anything else is ordinary bash and goes through the normal gate. Being conservative here only
 * costs a prompt; being loose costs a write, or a secret read.
 */
const SHELL_METACHARACTERS = /[;&|><$`()\n\r]/;

type ArgCheck = (args: string[]) => boolean;

const any: ArgCheck = () => true;
const none: ArgCheck = (args) => args.length === 0;
const only =
  (...allowed: string[]): ArgCheck =>
  (args) =>
    args.length > 0 && args.every((a) => allowed.includes(a));
const without =
  (...forbidden: string[]): ArgCheck =>
  (args) =>
    !args.some((a) => forbidden.some((f) => a === f || a.startsWith(`${f}=`)));

/** Git subcommands that only read; `--output`, `--ext-diff` and friends can write or run programs. */
const GIT_READ = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'describe',
  'shortlog',
  'cat-file',
  'reflog',
]);
const GIT_FORBIDDEN = ['--output', '--ext-diff', '--textconv', '--filters', '--exec', '--upload-pack', '--receiver-pack', '--open-files-in-pager'];

const git: ArgCheck = (args) => {
  const [sub, ...rest] = args;
  if (sub === undefined) return false;
  if (sub === '--version' || sub === 'version') return rest.length === 0;
  // Listing forms only: `git branch foo` creates a branch, `git tag v1` creates a tag.
  if (sub === 'branch') return rest.every((a) => /^(-a|-r|-v|-vv|--list|--all|--remotes|--show-current|--verbose)$/.test(a));
  if (sub === 'tag') return rest.every((a) => a === '-l' || a === '--list');
  if (sub === 'remote') return rest.every((a) => a === '-v' || a === '--verbose');
  if (sub === 'reflog') return (rest[0] === undefined || rest[0] === 'show' || rest[0].startsWith('-')) && without(...GIT_FORBIDDEN)(rest);
  if (!GIT_READ.has(sub)) return false;
  return without(...GIT_FORBIDDEN)(rest);
};

/** Refuses short-option clusters containing any of `letters` (`-uo` holds `-o`). */
const noShortFlag =
  (letters: string): ArgCheck =>
  (args) =>
    !args.some((a) => /^-[^-]/.test(a) && [...a.slice(1)].some((c) => letters.includes(c)));
const both =
  (...checks: ArgCheck[]): ArgCheck =>
  (args) =>
    checks.every((c) => c(args));

/** grep -R / --dereference-recursive follow every symlink met while recursing (-r follows only
 * the command-line ones, which the path check resolves). */
const grep = both(noShortFlag('R'), without('--dereference-recursive'));

/** Version queries: see TOOLCHAIN_FILES. */
const VERSION_QUERIES = new Set(['node', 'npx', 'npm', 'tsc', 'python', 'python3', 'cargo', 'go']);

const INSPECTORS: Record<string, ArgCheck> = {
  ls: both(noShortFlag('L'), without('--dereference')),
  cat: any,
  head: any,
  tail: any,
  wc: without('--files0-from'), // names read from a file are not checked
  pwd: any,
  which: any,
  type: any,
  echo: any,
  stat: any,
  du: both(noShortFlag('L'), without('--dereference', '--files0-from')),
  df: any,
  basename: any,
  dirname: any,
  realpath: any,
  readlink: any,
  whoami: none,
  id: any,
  uname: any,
  nproc: none,
  // Not printenv or env: they hand every secret in the environment to the model.
  diff: both(noShortFlag('r'), without('--recursive')), // diff -r follows symlinks it meets
  cmp: any,
  grep,
  egrep: grep,
  fgrep: grep,
  file: both(noShortFlag('C'), without('--compile')), // -C writes a compiled magic file
  date: both(noShortFlag('s'), without('--set')), // -s sets the clock
  hostname: none, // `hostname NAME` sets it
  // --pre runs a program, -L/--follow follows symlinks, -z/--search-zip runs decompressors.
  rg: both(noShortFlag('Lz'), without('--pre', '--pre-glob', '--follow', '--search-zip')),
  find: without('-L', '-follow', '-files0-from', '-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'),
  git,
  // Version queries only: `npm ls` reads the project's .npmrc (cache and log directories anywhere),
  // `go vet -vettool=X` runs X, `go env -w` writes the user's Go config, `go list` can run cgo.
  npm: only('--version', '-v'),
  node: only('--version', '-v'),
  npx: only('--version', '-v'),
  tsc: only('--version', '-v'),
  python: only('--version', '-V'),
  python3: only('--version', '-V'),
  cargo: only('--version', '-V'),
  go: only('version'),
};

/** One shell word: its value once quotes and escapes are removed, and what bash would expand. */
interface Word {
  value: string;
  /** An unquoted `*`, `?` or `[`: bash replaces the word by the matching paths. */
  glob: boolean;
  /** An unquoted `{`: brace expansion. */
  brace: boolean;
}

function tokenize(command: string): Word[] | undefined {
  const words: Word[] = [];
  let current: Word = { value: '', glob: false, brace: false };
  let inWord = false;
  let quote: '"' | "'" | undefined;
  const push = (): void => {
    if (inWord) words.push(current);
    current = { value: '', glob: false, brace: false };
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < command.length) current.value += command[++i];
      else current.value += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < command.length) {
      current.value += command[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      push();
    } else {
      if (ch === '*' || ch === '?' || ch === '[') current.glob = true;
      if (ch === '{') current.brace = true;
      current.value += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  push();
  return words;
}

/**
 * Splits a metacharacter-free command into words, removing quotes and backslash escapes the way
 * bash would, so `find . "-exec" …` is seen as `-exec`. Returns undefined for an unterminated quote.
 */
export function shellWords(command: string): string[] | undefined {
  return tokenize(command)?.map((word) => word.value);
}

export function hasShellMetacharacters(command: string): boolean {
  return SHELL_METACHARACTERS.test(command);
}

export interface InspectorScope {
  /** The project (containment) root. */
  root: string;
  /** The command's working directory; default: root. */
  cwd?: string;
}

/** True when `command` is a read-only inspector (see the module comment) within `scope`. */
export function isReadOnlyInspector(command: string, scope?: InspectorScope): boolean {
  if (hasShellMetacharacters(command)) return false;
  const words = tokenize(command.trim());
  if (!words || words.length === 0) return false;
  const [name, ...args] = words;
  const check = INSPECTORS[name!.value];
  if (!check || !check(args.map((word) => word.value))) return false;
  if (args.some((word) => word.brace)) return false;
  const cwd = scope?.cwd ?? scope?.root ?? process.cwd();
  const root = scope?.root ?? cwd;
  if (scope && !args.every((word, index) => argumentStaysInside(word, afterEndOfOptions(args, index), cwd, root))) return false;
  if (name!.value === 'git' && !['--version', 'version'].includes(args[0]?.value ?? '')) return plainRepository(cwd, root);
  if (VERSION_QUERIES.has(name!.value)) return !selectsToolchain(cwd, root);
  return true;
}

function afterEndOfOptions(args: Word[], index: number): boolean {
  const end = args.findIndex((word) => word.value === '--');
  return end !== -1 && index > end;
}

/** Max directory entries a glob check looks at before giving up (and refusing). */
const GLOB_ENTRY_LIMIT = 20_000;

/**
 * Every path `word` may stand for stays inside `root`. Any word can be a path: one that does not
 * exist resolves inside (it is a pattern, a number, a name), one that does is judged by where its
 * symlinks lead. Option words are judged by their possible values: after `=`, and every tail of a
 * short-option cluster (`-f/etc/x`, `-rf/etc/x`); an option name that is itself a glob is refused.
 */
function argumentStaysInside(word: Word, plain: boolean, cwd: string, root: string): boolean {
  const value = word.value;
  if (plain || !value.startsWith('-') || value === '-') {
    return word.glob ? globStaysInside(value, cwd, root) : pathStaysInside(value, cwd, root);
  }
  if (word.glob && hasGlob(value.split('=')[0]!)) return false; // `-*` could expand to any option
  const values: string[] = [];
  if (value.includes('=')) values.push(value.slice(value.indexOf('=') + 1));
  if (!value.startsWith('--')) for (let i = 2; i < value.length; i++) values.push(value.slice(i));
  return values.every((candidate) => pathStaysInside(candidate, cwd, root));
}

function pathStaysInside(value: string, cwd: string, root: string): boolean {
  if (value === '') return true;
  if (value.startsWith('~') && !(value === '~' || value.startsWith('~/'))) return false; // ~user: unknown home
  return isInside(root, path.resolve(cwd, expandHome(value)));
}

const hasGlob = (segment: string): boolean => /[*?[]/.test(segment);

/**
 * An unquoted glob, expanded the way `bash -c` would (no globstar: `**` is `*`), except that a
 * glob segment stands for every entry of its directory, dot files included: a superset of bash's
 * matches, so no pattern-syntax difference can hide a match. Every match must stay inside `root`
 * after realpath; so must the word itself, which bash passes on unchanged when nothing matches.
 * A word whose matches could start with `-` is refused: they would be options, unchecked.
 */
function globStaysInside(value: string, cwd: string, root: string): boolean {
  if (value.includes('..')) return false;
  if (value.startsWith('~') && !(value === '~' || value.startsWith('~/'))) return false;
  const expanded = expandHome(value);
  if (!pathStaysInside(value, cwd, root)) return false;
  const segments = expanded.split('/').filter((segment) => segment !== '' && segment !== '.');
  const firstGlob = segments.findIndex(hasGlob);
  if (firstGlob === -1) return true;
  const leadingGlob = hasGlob(expanded.split('/')[0]!);
  const realRoot = resolveReal(root);
  const base = path.resolve(cwd, expanded.startsWith('/') ? '/' : '.', ...segments.slice(0, firstGlob));
  if (!isInsideResolved(realRoot, resolveReal(base))) return false;
  let frontier = [base];
  let seen = 0;
  for (let index = firstGlob; index < segments.length; index++) {
    const segment = segments[index]!;
    const last = index === segments.length - 1;
    const next: string[] = [];
    for (const dir of frontier) {
      const entries = hasGlob(segment) ? listDir(dir) : [segment];
      // A match at the start of the word that begins with `-` reaches the command as an option
      // (a file named `-R` turns `grep x *` into `grep x -R …`).
      if (index === 0 && leadingGlob && entries.some((entry) => entry.startsWith('-'))) return false;
      const candidates = entries.map((entry) => path.join(dir, entry));
      seen += candidates.length;
      if (seen > GLOB_ENTRY_LIMIT) return false;
      for (const candidate of candidates) {
        if (last || isDirectory(candidate)) {
          if (!isInsideResolved(realRoot, resolveReal(candidate))) return false;
          if (!last) next.push(candidate);
        }
      }
    }
    frontier = next;
  }
  return true;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isDirectory(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** `dir` and its parents up to and including `root` (just `dir` when it is not inside root). */
function upToRoot(dir: string, root: string): string[] {
  const dirs: string[] = [];
  let current = path.resolve(dir);
  const top = path.resolve(root);
  for (;;) {
    dirs.push(current);
    const rel = path.relative(top, current);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return dirs;
    current = path.dirname(current);
  }
}

/**
 * Files that make a version manager pick (and maybe run) another program: a rustup toolchain
 * file may name a toolchain `path`, asdf/mise versions may be `path:` entries, and npm reads
 * `.npmrc` (which moves its cache and log directories anywhere) even for `npm --version`.
 */
const TOOLCHAIN_FILES = ['rust-toolchain', 'rust-toolchain.toml', '.tool-versions', '.mise.toml', 'mise.toml', '.rtx.toml', '.python-version', '.node-version', '.nvmrc', '.npmrc'];

function selectsToolchain(cwd: string, root: string): boolean {
  return upToRoot(cwd, root).some((dir) => TOOLCHAIN_FILES.some((file) => existsSync(path.join(dir, file))));
}

/** Variables that point git at another repository or work tree than the one found from cwd. */
const GIT_LOCATION_VARS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE'];

/**
 * Whether plain `git <read>` in `cwd` stays in a repository of the project and runs nothing the
 * repository names: the nearest `.git` is at or below `root` (else git would use a repository
 * above the project; with none at all git only fails), it has no submodules (each has a config of its own), no post-index-change hook (an
 * index refresh by `git status` runs it) and its own config files name no program
 * (`repositoryConfigRunsPrograms`, read with one `git config --list`).
 */
function plainRepository(cwd: string, root: string): boolean {
  if (GIT_LOCATION_VARS.some((name) => process.env[name] !== undefined)) return false;
  const top = upToRoot(cwd, '/').find((dir) => existsSync(path.join(dir, '.git')));
  if (!top) return true; // no repository anywhere: git only says so
  if (!isInside(root, top) || existsSync(path.join(top, '.gitmodules'))) return false;
  const gitDir = commonGitDir(top);
  if (!gitDir || existsSync(path.join(gitDir, 'hooks', 'post-index-change'))) return false;
  const listing = spawnSync('git', [...GIT_CONFIG_LISTING_ARGS], { cwd, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
  return listing.status === 0 && !repositoryConfigRunsPrograms(listing.stdout);
}

/** `<top>/.git` as a directory, or the common directory a `gitdir:` file leads to. */
function commonGitDir(top: string): string | undefined {
  const dotGit = path.join(top, '.git');
  if (isDirectory(dotGit)) return dotGit;
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!pointer) return undefined;
    const gitDir = path.resolve(top, pointer);
    const common = path.join(gitDir, 'commondir');
    return existsSync(common) ? path.resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
  } catch {
    return undefined;
  }
}
