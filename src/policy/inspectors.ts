import path from 'node:path';
import { expandHome, isInside } from './paths.js';

/**
 * Read-only bash inspectors (seek-spec 2.3 step 1): commands allowed without asking in every mode,
 * plan mode included. A command qualifies only when
 *  - it contains none of the shell metacharacters `; & | > < $ \` ( )` and no newline, so it is one
 *    simple command with no redirection, substitution or chaining;
 *  - its first word is on the whitelist below and its arguments pass that entry's check (options
 *    that write, delete or run other programs are refused: `find -exec`, `rg --pre`, `sort -o`…);
 *  - no argument names a path outside the project (an absolute, `~` or `..` path), since reads
 *    outside the project are asked like any other dangerous action.
 * Anything else is ordinary bash and goes through the normal gate. Being conservative here only
 * costs a prompt; being loose costs a write.
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
const GIT_FORBIDDEN = ['--output', '--ext-diff', '--exec', '--upload-pack', '--receiver-pack', '--open-files-in-pager'];

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

const INSPECTORS: Record<string, ArgCheck> = {
  ls: any,
  cat: any,
  head: any,
  tail: any,
  wc: any,
  pwd: any,
  which: any,
  type: any,
  echo: any,
  stat: any,
  du: any,
  df: any,
  basename: any,
  dirname: any,
  realpath: any,
  readlink: any,
  whoami: none,
  id: any,
  uname: any,
  nproc: none,
  printenv: any,
  diff: any,
  cmp: any,
  grep: any,
  egrep: any,
  fgrep: any,
  file: both(noShortFlag('C'), without('--compile')), // -C writes a compiled magic file
  date: both(noShortFlag('s'), without('--set')), // -s sets the clock
  hostname: none, // `hostname NAME` sets it
  rg: without('--pre', '--pre-glob'),
  find: without('-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'),
  git,
  npm: (args) => ['ls', 'list'].includes(args[0] ?? '') || only('--version', '-v')(args),
  node: only('--version', '-v'),
  npx: only('--version', '-v'),
  tsc: only('--version', '-v'),
  python: only('--version', '-V'),
  python3: only('--version', '-V'),
  cargo: only('--version', '-V'),
  go: (args) => ['version', 'env', 'list', 'vet'].includes(args[0] ?? ''),
};

/**
 * Splits a metacharacter-free command into words, removing quotes and backslash escapes the way
 * bash would, so `find . "-exec" …` is seen as `-exec`. Returns undefined for an unterminated quote.
 */
export function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < command.length) current += command[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < command.length) {
      current += command[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(current);
  return words;
}

export function hasShellMetacharacters(command: string): boolean {
  return SHELL_METACHARACTERS.test(command);
}

/** A word that names a filesystem location we should check: absolute, home-relative or with `..`. */
function pathLike(word: string): string | undefined {
  const value = word.startsWith('-') && word.includes('=') ? word.slice(word.indexOf('=') + 1) : word;
  if (value.startsWith('/') || value.startsWith('~')) return value;
  if (value.split('/').includes('..')) return value;
  return undefined;
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
  const words = shellWords(command.trim());
  if (!words || words.length === 0) return false;
  const [name, ...args] = words;
  const check = INSPECTORS[name!];
  if (!check || !check(args)) return false;
  if (!scope) return true;
  const cwd = scope.cwd ?? scope.root;
  for (const word of args) {
    const p = pathLike(word);
    if (p === undefined) continue;
    if (p.startsWith('~') && !(p === '~' || p.startsWith('~/'))) return false; // ~user: unknown home
    // Globs may widen a path: check the part before the first glob character.
    const staticPart = expandHome(p).split(/[*?[]/)[0]!;
    if (!isInside(scope.root, path.resolve(cwd, staticPart || '.'))) return false;
  }
  return true;
}
