import { stat, open } from 'node:fs/promises';
import path from 'node:path';
import { commandPaths, insideRoot, literalPath, operands, optionValue, programAt, relativeKey, simpleCommands, tokens, type CommandLine, type Token } from './covered-command.js';

/**
 * Following a command to what it runs, for what an approval covers (the rules are listed at the
 * top of covered-files.ts): scripts a shell or an interpreter runs, package.json `scripts` entries
 * that npm, yarn and pnpm run (and what those run in turn), Makefiles and their includes.
 */

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

const MAX_SCRIPT_DEPTH = 4;
const MAX_MAKEFILES = 32;
/** Files read to find what they run (Makefiles, package.json): larger ones are hashed, not read. */
const MAX_PARSE_BYTES = 1 << 20;

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);
const INTERPRETERS = new Set(['node', 'nodejs', 'python', 'python3', 'ruby', 'perl', 'php', 'tsx', 'ts-node', 'bun']);
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

export interface Walk {
  root: string;
  items: Map<string, CoveredItem>;
  makefiles: number;
}

function addFile(walk: Walk, absolute: string): void {
  const key = relativeKey(walk.root, absolute);
  if (!walk.items.has(key)) walk.items.set(key, { key, path: absolute });
}


export async function walkCommand(walk: Walk, command: CommandLine, cwd: string, depth: number, allWords: boolean): Promise<void> {
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
export async function readScripts(manifest: string): Promise<Record<string, unknown> | undefined> {
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

