import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * What an approval covers: given a command line (a shell string, or a program and its arguments)
 * and the project root, the project files whose content decides what the command runs, each
 * hashed. Project hook trust (src/hooks/trust.ts) and project MCP server approval
 * (src/mcp/approvals.ts) both record these hashes and ask again when one changes.
 *
 * Covered, always inside the project root (lexically; a symlink's target is hashed as it is):
 * - every word of the command that names a file (the program, `./scripts/guard.sh`,
 *   `bash .seek/check.sh`, `node tools/mcp-server.js`, `--config=conf/rules.json`, the value of
 *   `VAR=value`), resolved against the working directory; `$SEEK_PROJECT_PATH` and
 *   `${SEEK_PROJECT_PATH}` at the start of a word stand for the root (hooks). Output targets
 *   (`> log`) are not: they are written, not run;
 * - `make` (`gmake`; `-C DIR`, `-f FILE` understood): `GNUmakefile`, `makefile` and `Makefile` of
 *   its directory (all three, so one appearing later is noticed) or the `-f` files, and the files
 *   they `include` / `-include` / `sinclude` by a literal name, transitively (at most 32 files);
 * - `npm run X` (`run-script`), `npm test|start|stop|restart`, `npm install|ci`, `yarn X`,
 *   `yarn run X`, `pnpm X`, `pnpm run X` (`--prefix`, `-C`, `--dir`, `--cwd` understood): the
 *   entries of `package.json`'s `scripts` they run, `preX` and `postX` included (install: its
 *   lifecycle scripts), by the text of each entry, not the whole file (a key
 *   `package.json#scripts.X`);
 * - `sh|bash|dash|zsh|ksh FILE`, `source FILE`, `. FILE`: the file; `sh -c '…'`: the commands
 *   in the string, by these same rules;
 * - inside a covered `scripts` entry (at most 4 levels deep): the scripts it runs by the rules above
 *   (`npm run lint`, `make`, `sh x.sh`), a program it runs by path (`./bin/x`), and the script an
 *   interpreter runs (`node|python|python3|ruby|perl|php|tsx|ts-node|deno run|bun FILE`).
 * Simple commands are split at `;`, `&`, `|`, `(`, `)`, a backquote and a newline; leading
 * `VAR=value` words and the wrappers `command`, `builtin`, `exec`, `nohup`, `time`, `env`, `nice`
 * and `timeout` are passed over to find the program.
 * Not covered: what a Makefile's recipes run (scripts, `$(MAKE) -C sub`), includes or paths built
 * from variables or globs, any other word inside a `scripts` entry (a config file a tool reads),
 * `npx`, `yarn dlx`, `pnpm exec`, workspaces (`-w`, `yarn workspace`), `node_modules` (installed
 * dependencies, their own scripts), files outside the project, and anything a command decides at
 * run time (`cd` before a relative path, variables, files it downloads).
 */

/** A command line: a shell string (hooks), or a program with its arguments (a stdio MCP server). */
export type CommandLine = string | { argv: readonly string[] };

/** One thing an approval covers: a file, or one entry of a package.json's `scripts`. */
export interface CoveredItem {
  /** The record's key: the path relative to the project root, `/`-separated; for a scripts
   * entry `<that package.json>#scripts.<name>`. */
  key: string;
  /** Absolute path of the file (the package.json for a scripts entry). */
  path: string;
  /** Set for a scripts entry: its name. */
  script?: string;
}

/** A covered item with the hash it was approved with: checked again before each run. */
export interface CoveredPin {
  /** Absolute path. */
  path: string;
  /** The record key (see CoveredItem.key): what messages show. */
  relative: string;
  sha256: string;
  /** Set for a package.json scripts entry. */
  script?: string;
}

export interface CoverageOptions {
  /** Where the command runs (default: the project root). */
  cwd?: string;
}

/** What changed since the approval, for a message. */
export type CoverageChange = 'uncovered' | 'removed' | 'changed';

export type CoverageCheck = { ok: true; pinned: CoveredPin[] } | { ok: false; change: CoverageChange; key: string };

const MAX_SCRIPT_DEPTH = 4;
const MAX_MAKEFILES = 32;
/** Files read to find what they run (Makefiles, package.json): larger ones are hashed, not read. */
const MAX_PARSE_BYTES = 1 << 20;

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

type Token = { word: string } | { op: string };

/** Shell-style words of a command, with operator tokens (`>`, `|`, a newline, …) as `{ op }`. */
function tokens(command: string): Token[] {
  const out: Token[] = [];
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) out.push({ word });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end < 0 ? undefined : end);
      inWord = true;
      i = end < 0 ? command.length : end;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) i++;
        word += command[i];
      }
    } else if (c === '\\' && i + 1 < command.length) {
      if (command[i + 1] === '\n') i++; // a line continuation
      else {
        word += command[++i];
        inWord = true;
      }
    } else if (c === '#' && !inWord) {
      const newline = command.indexOf('\n', i);
      i = newline < 0 ? command.length : newline - 1;
    } else if (c === '\n') {
      flush();
      out.push({ op: c });
    } else if (/\s/.test(c)) {
      flush();
    } else if (';&|()<>`'.includes(c)) {
      flush();
      out.push({ op: c });
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return out;
}

function insideRoot(root: string, absolute: string): boolean {
  const relative = path.relative(root, absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** A literal path word (no variables, no globs) resolved against `cwd`, if it stays in the root. */
function literalPath(word: string, root: string, cwd: string): string | undefined {
  const expanded = word.replace(/^(\$SEEK_PROJECT_PATH|\$\{SEEK_PROJECT_PATH\})(?=\/|$)/, root);
  if (expanded === '' || expanded.startsWith('-') || expanded.includes('$') || /[*?[]/.test(expanded)) return undefined;
  const absolute = path.resolve(cwd, expanded);
  return insideRoot(root, absolute) ? absolute : undefined;
}

/** The `/`-separated path of `absolute` relative to the project root (the record's key). */
export function relativeKey(projectRoot: string, absolute: string): string {
  return path.relative(path.resolve(projectRoot), absolute).split(path.sep).join('/');
}

/**
 * Candidate paths (absolute) named by the command's words, resolved against `cwd` (default the
 * root); existence is not checked here. The first rule of the list at the top of this file.
 */
export function commandPaths(command: CommandLine, projectRoot: string, cwd: string = projectRoot): string[] {
  const root = path.resolve(projectRoot);
  const base = path.resolve(root, cwd);
  const found = new Set<string>();
  const list: Token[] = typeof command === 'string' ? tokens(command) : command.argv.map((word) => ({ word }));
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if (!('word' in token)) continue;
    const previous = list[i - 1];
    if (previous && 'op' in previous && previous.op === '>') continue; // an output target
    const eq = token.word.indexOf('=');
    for (const candidate of eq > 0 ? [token.word, token.word.slice(eq + 1)] : [token.word]) {
      const absolute = literalPath(candidate, root, base);
      if (absolute) found.add(absolute);
    }
  }
  return [...found];
}

/** Splits tokens into simple commands (their words, redirections left out). */
function simpleCommands(list: readonly Token[]): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if ('word' in token) {
      current.push(token.word);
    } else if (token.op === '<' || token.op === '>') {
      const next = list[i + 1];
      if (next && 'word' in next) i++; // the redirection's file
    } else {
      if (current.length > 0) commands.push(current);
      current = [];
    }
  }
  if (current.length > 0) commands.push(current);
  return commands;
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);
const INTERPRETERS = new Set(['node', 'nodejs', 'python', 'python3', 'ruby', 'perl', 'php', 'tsx', 'ts-node', 'bun']);
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

interface Walk {
  root: string;
  items: Map<string, CoveredItem>;
  makefiles: number;
}

function addFile(walk: Walk, absolute: string): void {
  const key = relativeKey(walk.root, absolute);
  if (!walk.items.has(key)) walk.items.set(key, { key, path: absolute });
}

/** The program of a simple command after assignments and wrappers, and the index of its word. */
function programAt(words: readonly string[]): number {
  let i = 0;
  while (i < words.length) {
    const word = words[i]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      i++;
      continue;
    }
    const name = path.basename(word);
    if (name === 'command' || name === 'builtin' || name === 'exec' || name === 'nohup' || name === 'time') {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i++;
    } else if (name === 'env') {
      i++;
      while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) {
        if (words[i] === '-u' || words[i] === '-C' || words[i] === '-S') i++;
        i++;
      }
    } else if (name === 'nice') {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i += words[i] === '-n' ? 2 : 1;
    } else if (name === 'timeout') {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i += words[i] === '-s' || words[i] === '-k' ? 2 : 1;
      i++; // the duration
    } else {
      return i;
    }
  }
  return words.length;
}

/** Words of `args` that are not options (a value of an option given as `--opt=value` stays attached). */
function operands(args: readonly string[], valued: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i + 1)];
    if (arg.startsWith('-')) {
      if (valued.has(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** The value of a directory option (`-C dir`, `-Cdir`, `--dir=dir`, `--dir dir`), the last given. */
function optionValue(args: readonly string[], short: readonly string[], long: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    for (const flag of short) {
      if (arg === flag) value = args[i + 1];
      else if (arg.startsWith(flag) && flag.length === 2 && !arg.startsWith('--')) value = arg.slice(2);
    }
    for (const flag of long) {
      if (arg === flag) value = args[i + 1];
      else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
    }
  }
  return value;
}

async function walkCommand(walk: Walk, command: CommandLine, cwd: string, depth: number, allWords: boolean): Promise<void> {
  if (allWords) for (const absolute of commandPaths(command, walk.root, cwd)) addFile(walk, absolute);
  const list: Token[] = typeof command === 'string' ? tokens(command) : command.argv.map((word) => ({ word }));
  for (const words of simpleCommands(list)) await walkSimple(walk, words, cwd, depth);
}

async function walkSimple(walk: Walk, words: readonly string[], cwd: string, depth: number): Promise<void> {
  const at = programAt(words);
  const program = words[at];
  if (program === undefined) return;
  const name = path.basename(program);
  const args = words.slice(at + 1);
  const file = (word: string | undefined): void => {
    const absolute = word === undefined ? undefined : literalPath(word, walk.root, cwd);
    if (absolute) addFile(walk, absolute);
  };
  if (program.includes('/')) file(program);
  if (name === 'make' || name === 'gmake') {
    await walkMake(walk, args, cwd);
  } else if (name === 'npm') {
    const dir = optionValue(args, ['-C'], ['--prefix']);
    const [sub, script] = operands(args, new Set(['-C', '--prefix', '-w', '--workspace']));
    await walkScripts(walk, dir, cwd, npmScripts(sub, script), depth);
  } else if (name === 'yarn' || name === 'pnpm') {
    const dir = name === 'yarn' ? optionValue(args, [], ['--cwd']) : optionValue(args, ['-C'], ['--dir']);
    const [sub, script] = operands(args, new Set(['-C', '--dir', '--cwd', '--filter', '-F']));
    await walkScripts(walk, dir, cwd, runnerScripts(sub, script), depth);
  } else if (SHELLS.has(name)) {
    const c = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg));
    if (c >= 0) {
      const text = args[c + 1];
      if (text !== undefined && depth < MAX_SCRIPT_DEPTH) await walkCommand(walk, text, cwd, depth + 1, false);
    } else {
      file(operands(args, new Set(['-o', '+o', '-O', '+O']))[0]);
    }
  } else if (name === 'source' || name === '.') {
    file(args[0]);
  } else if (INTERPRETERS.has(name) || name === 'deno') {
    // -e/-c/-m: code or a module, not a file of the project.
    if (args.some((arg) => ['-e', '--eval', '-p', '--print', '-c', '-m'].includes(arg))) return;
    const rest = operands(args, new Set(['-r', '--require', '--import', '--loader', '-W', '-X', '--config']));
    file(name === 'deno' || (name === 'bun' && rest[0] === 'run') ? rest[1] : rest[0]);
  }
}

/** The package.json scripts an npm command runs (besides their pre and post scripts). */
function npmScripts(sub: string | undefined, script: string | undefined): string[] {
  switch (sub) {
    case 'run':
    case 'run-script':
    case 'rum':
    case 'urn':
      return script === undefined ? [] : [script];
    case 'test':
    case 't':
    case 'tst':
      return ['test'];
    case 'start':
    case 'stop':
      return [sub];
    case 'restart':
      return ['restart', 'stop', 'start'];
    case 'install':
    case 'i':
    case 'ci':
    case 'add':
      return INSTALL_SCRIPTS;
    default:
      return [];
  }
}

/** The package.json scripts a yarn or pnpm command runs: `run X`, or `X` itself for any word that
 * is not one of their commands that run no script of the project. */
function runnerScripts(sub: string | undefined, script: string | undefined): string[] {
  if (sub === 'run' || sub === 'run-script') return script === undefined ? [] : [script];
  if (sub === undefined || sub === 'install' || sub === 'i' || sub === 'add') return INSTALL_SCRIPTS;
  if (sub === 't' || sub === 'tst') return ['test'];
  if (['exec', 'dlx', 'x', 'workspace', 'workspaces', 'create', 'remove', 'rm', 'why', 'info', 'list', 'ls', 'outdated', 'config', 'cache', 'link', 'unlink', 'audit', 'bin', 'help', 'init', 'pack', 'publish', 'version', 'upgrade', 'up', 'update', 'global', 'store', 'env', 'setup', 'import', 'licenses', 'plugin', 'set', 'node'].includes(sub)) return [];
  return [sub];
}

/** The package.json scripts `names` (each with its pre and post script) of `dir` (against `cwd`). */
async function walkScripts(walk: Walk, dir: string | undefined, cwd: string, names: readonly string[], depth: number): Promise<void> {
  if (names.length === 0 || (dir !== undefined && (dir.includes('$') || dir === ''))) return;
  const base = path.resolve(cwd, dir ?? '.');
  const manifest = path.join(base, 'package.json');
  if (!insideRoot(walk.root, manifest)) return;
  const all = [...new Set(names.flatMap((name) => [`pre${name}`, name, `post${name}`]))];
  const manifestKey = relativeKey(walk.root, manifest);
  const scripts = await readScripts(manifest);
  for (const script of all) {
    const key = `${manifestKey}#scripts.${script}`;
    if (walk.items.has(key)) continue; // seen (a script that runs itself ends here)
    walk.items.set(key, { key, path: manifest, script });
    const text = scripts?.[script];
    if (typeof text === 'string' && depth < MAX_SCRIPT_DEPTH) await walkCommand(walk, text, base, depth + 1, false);
  }
}

async function walkMake(walk: Walk, args: readonly string[], cwd: string): Promise<void> {
  const dirOption = optionValue(args, ['-C'], ['--directory']);
  if (dirOption !== undefined && (dirOption.includes('$') || dirOption === '')) return;
  const dir = path.resolve(cwd, dirOption ?? '.');
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-f' || arg === '--file' || arg === '--makefile') named.push(args[++i] ?? '');
    else if (/^-f./.test(arg)) named.push(arg.slice(2));
    else if (arg.startsWith('--file=') || arg.startsWith('--makefile=')) named.push(arg.slice(arg.indexOf('=') + 1));
  }
  const makefiles = named.length > 0 ? named : ['GNUmakefile', 'makefile', 'Makefile'];
  for (const makefile of makefiles) {
    const absolute = literalPath(makefile, walk.root, dir);
    if (absolute) await walkMakefile(walk, absolute, dir);
  }
}

/** A Makefile and, transitively, the files it includes by a literal name (relative to `dir`, make's
 * working directory). */
async function walkMakefile(walk: Walk, absolute: string, dir: string): Promise<void> {
  const key = relativeKey(walk.root, absolute);
  if (walk.items.has(key) || walk.makefiles >= MAX_MAKEFILES) return;
  walk.makefiles += 1;
  addFile(walk, absolute);
  const text = await readSmall(absolute);
  if (text === undefined) return;
  const joined = text.replace(/\\\r?\n/g, ' ');
  for (const line of joined.split(/\r?\n/)) {
    const match = /^ *(?:-include|sinclude|include)\s+(.*)$/.exec(line);
    if (!match) continue;
    const names = match[1]!.replace(/#.*$/, '').trim().split(/\s+/).filter(Boolean);
    for (const name of names) {
      if (name.includes('$') || /[*?[%]/.test(name)) continue;
      const included = literalPath(name, walk.root, dir);
      if (included) await walkMakefile(walk, included, dir);
    }
  }
}

/** A regular file's text, when it is small enough to read for what it runs. */
async function readSmall(absolute: string): Promise<string | undefined> {
  try {
    const info = await stat(absolute);
    if (!info.isFile() || info.size > MAX_PARSE_BYTES) return undefined;
    const handle = await open(absolute, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(info.size, MAX_PARSE_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** The `scripts` object of a package.json, if it has one. */
async function readScripts(manifest: string): Promise<Record<string, unknown> | undefined> {
  const text = await readSmall(manifest);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const scripts = parsed && typeof parsed === 'object' ? (parsed as { scripts?: unknown }).scripts : undefined;
    return scripts && typeof scripts === 'object' && !Array.isArray(scripts) ? (scripts as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Everything an approval of `command` covers (see the top of this file), in the order found.
 * Existence is not checked: a covered file that does not exist yet must be noticed when it appears.
 */
export async function coveredItems(command: CommandLine, projectRoot: string, options: CoverageOptions = {}): Promise<CoveredItem[]> {
  const root = path.resolve(projectRoot);
  const walk: Walk = { root, items: new Map(), makefiles: 0 };
  await walkCommand(walk, command, path.resolve(root, options.cwd ?? '.'), 0, true);
  return [...walk.items.values()];
}

/** sha256 of a regular file's content (streamed: any size); undefined when it is missing, not a
 * regular file (a FIFO, a device, a directory), or unreadable. */
export async function fileHash(absolute: string): Promise<string | undefined> {
  try {
    if (!(await stat(absolute)).isFile()) return undefined;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(absolute)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

/** The hash of an item as it is now: the file's content, or the text of the scripts entry (sha256
 * of its JSON string); undefined when it does not exist. */
export async function itemHash(item: Pick<CoveredItem, 'path' | 'script'>): Promise<string | undefined> {
  if (item.script === undefined) return fileHash(item.path);
  const text = (await readScripts(item.path))?.[item.script];
  return typeof text === 'string' ? sha256Hex(JSON.stringify(text)) : undefined;
}

/** What a command covers, as it is now: key → hash, for the items that exist. */
export async function coveredHashes(command: CommandLine, projectRoot: string, options: CoverageOptions = {}): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const item of await coveredItems(command, projectRoot, options)) {
    const hash = await itemHash(item);
    if (hash !== undefined) hashes[item.key] = hash;
  }
  return hashes;
}

/**
 * Checks what a command covers now against the hashes recorded at approval. Not ok when an item
 * changed, disappeared, or exists now but was not recorded (created since, or approved before
 * seek covered it); ok otherwise, with the items to pin (re-hash before each run).
 */
export async function checkCovered(command: CommandLine, projectRoot: string, recorded: Readonly<Record<string, string>>, options: CoverageOptions = {}): Promise<CoverageCheck> {
  const pinned: CoveredPin[] = [];
  for (const item of await coveredItems(command, projectRoot, options)) {
    const current = await itemHash(item);
    const approved = Object.hasOwn(recorded, item.key) ? recorded[item.key] : undefined;
    if (current === undefined && approved === undefined) continue; // nothing there: nothing to cover
    if (approved === undefined) return { ok: false, change: 'uncovered', key: item.key };
    if (current === undefined) return { ok: false, change: 'removed', key: item.key };
    if (current !== approved) return { ok: false, change: 'changed', key: item.key };
    pinned.push({ path: item.path, relative: item.key, sha256: current, ...(item.script !== undefined ? { script: item.script } : {}) });
  }
  return { ok: true, pinned };
}

/** The first pin whose content is no longer what was approved, if any. */
export async function changedPin<T extends CoveredPin>(pinned: readonly T[]): Promise<T | undefined> {
  for (const pin of pinned) {
    if ((await itemHash(pin)) !== pin.sha256) return pin;
  }
  return undefined;
}
