/**
 * Code a simple command runs that is not a command after it: shell code or programs held in
 * variables it sets (`PAGER='…' git log`, `export GIT_SSH_COMMAND=…`, `env BASH_FUNC_x%%=…`), in
 * bash builtins' options (`mapfile -C`, `complete -C`), in files read as commands (`source
 * /dev/stdin`, `sh <(…)`), and in git's own ways to run programs (git.ts). expand.ts judges each
 * as a command run by this one; `writes` marks a command that writes a file named in its arguments
 * (`time -o FILE`).
 */
import { gitHiddenRuns, type HiddenRun } from './git.js';
import { joined, readsCodeFromInput, scanOptions } from './options.js';
import { literalOf, textWord, type ShellWord, type SimpleCommand } from './words.js';

export type { HiddenRun };

/** Variables whose value is shell code or a program some program runs (pagers, editors, git's
 * and ssh's helpers, bash's prompts). */
const CODE_VARIABLES = new Set([
  'PAGER', 'GIT_PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'EDITOR', 'VISUAL', 'GIT_EXTERNAL_DIFF', 'GIT_SSH',
  'GIT_SSH_COMMAND', 'GIT_ASKPASS', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'GIT_PROXY_COMMAND', 'BROWSER', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS4',
  'LESSOPEN', 'LESSCLOSE', 'FCEDIT',
]);

/** Variables that make a program load or run a file seek does not read (a library, a startup
 * file, a git config that may name programs): what they run is unknown. */
const FILE_VARIABLES = new Set([
  'BASH_ENV', 'ENV', 'LD_PRELOAD', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'PERL5OPT', 'RUBYOPT', 'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_EXEC_PATH', 'GIT_TEMPLATE_DIR', 'SHELLOPTS', 'BASHOPTS',
]);

/** `NAME=value` (a word, known up to its `=` at least): the name and the value's word. */
function splitAssignment(word: ShellWord): { name: string; value: ShellWord | undefined } | undefined {
  const first = word.parts[0];
  if (!first || !('text' in first)) return undefined;
  const match = /^([^=\s/]+?)(\[[^\]]*\])?\+?=/.exec(first.text);
  if (!match) return undefined;
  const rest = [{ text: first.text.slice(match[0].length) }, ...word.parts.slice(1)];
  const value: ShellWord = { source: word.source, parts: rest };
  return { name: match[1]!, value: literalOf(value) === undefined ? undefined : textWord(literalOf(value)!, word.source) };
}

/** What setting a variable makes some program run. */
export function assignmentRuns(word: ShellWord): HiddenRun | undefined {
  const split = splitAssignment(word);
  if (!split) return undefined;
  const { name, value } = split;
  const label = `${name}=`;
  const code = (text: string): HiddenRun => ({ inner: text.trim() === '' ? { kind: 'none' } : { kind: 'shell', code: textWord(text, word.source), label }, label });
  if (/^BASH_FUNC_.+%%$/.test(name)) {
    if (value === undefined) return { inner: { kind: 'unknown', why: `${name} is given a function not known before it runs` }, label };
    return code(`seek_function ${literalOf(value)!}`); // bash imports it as a function definition
  }
  if (FILE_VARIABLES.has(name) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name) || /^npm_config_(script_shell|node_options|userconfig|globalconfig|prefix|git|editor|shell)$/i.test(name)) {
    return { inner: { kind: 'unknown', why: `${name} makes programs load or run code seek does not read` }, label };
  }
  if (name === 'NODE_OPTIONS' && (value === undefined || /(^|\s)(-r|--require|--import|--loader|--experimental-loader)\b/.test(literalOf(value)!))) {
    return { inner: { kind: 'unknown', why: 'NODE_OPTIONS makes node load code seek does not read' }, label };
  }
  if (!CODE_VARIABLES.has(name)) return undefined;
  if (value === undefined) return { inner: { kind: 'unknown', why: `${name} is given a command not known before it runs` }, label };
  const text = literalOf(value)!;
  return code(name.startsWith('LESS') ? text.replace(/^[|-]+/, '').replace(/%s/g, 'x') : text);
}

const PACKAGE_MANAGERS = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx']);
/** Options that make a package manager run a program or load code or config seek does not read
 * (`npm test --script-shell=/tmp/x`, `--node-options=--require=…`, another project's scripts). */
const PACKAGE_MANAGER_OPTIONS = /^(--(script-shell|node-options|userconfig|globalconfig|prefix|dir|cwd|git|editor|browser|viewer|shell|init-module|preload|rc)(=|$)|-C)/;

/** npm and its kin: `exec -c CODE` / `--call CODE` is shell code; the options above, and a word
 * not known before the command runs that may be one, are unknown. Words after `--` are the
 * script's arguments. */
function packageManagerRuns(name: string, argv: ShellWord[]): HiddenRun[] {
  const runs: HiddenRun[] = [];
  for (let i = 1; i < argv.length; i++) {
    const text = literalOf(argv[i]!);
    if (text === '--') break;
    if (text === undefined) {
      runs.push({ inner: { kind: 'unknown', why: `${name} is given a word not known before it runs, which may be an option that runs a program (${argv[i]!.source})` }, label: name });
    } else if (text === '-c' || text === '--call') {
      runs.push({ inner: argv[i + 1] ? joined([argv[i + 1]!], `${name} ${text}`) : { kind: 'none' }, label: `${name} ${text}` });
      i += 1;
    } else if (text.startsWith('--call=')) {
      runs.push({ inner: joined([textWord(text.slice(7), argv[i]!.source)], `${name} --call`), label: `${name} --call` });
    } else if (PACKAGE_MANAGER_OPTIONS.test(text)) {
      runs.push({ inner: { kind: 'unknown', why: `${name} ${text.split('=')[0]} makes it run a program or code seek does not read` }, label: name });
    }
  }
  return runs;
}

const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/** Builtins that run code given in an option or evaluate their arguments. */
function builtinRuns(name: string, argv: ShellWord[]): HiddenRun[] {
  const args = argv.slice(1);
  const unknown = (why: string): HiddenRun[] => [{ inner: { kind: 'unknown', why }, label: name }];
  if (name === 'mapfile' || name === 'readarray') {
    const callback = scanOptions(argv, 1, { short: 'dnOsuCc' }).seen.get('-C');
    return callback === undefined ? [] : [{ inner: callback === true ? { kind: 'none' } : joined([callback], `${name} -C`), label: `${name} -C` }];
  }
  if (name === 'complete' || name === 'compgen') {
    const command = scanOptions(argv, 1, { short: 'oAGWFCXPSo' }).seen.get('-C');
    return command === undefined || command === true ? [] : [{ inner: joined([command], `${name} -C`), label: `${name} -C` }];
  }
  const flags = args.map(literalOf).filter((text): text is string => text !== undefined && /^-[A-Za-z]+$/.test(text));
  if (name === 'bind' && flags.some((flag) => flag.includes('x'))) return unknown('bind -x runs shell code when a key is pressed');
  if (name === 'enable' && flags.some((flag) => flag.includes('f'))) return unknown('enable -f loads a shared library into bash');
  if (name === 'hash' && flags.some((flag) => flag.includes('p'))) return unknown('hash -p makes a command name run another program');
  if (name === 'fc' && !flags.some((flag) => flag.includes('l'))) return unknown('fc runs an editor and commands from the history');
  if (name === 'let' && args.some((arg) => literalOf(arg) === undefined || /[A-Za-z_]/.test(literalOf(arg)!))) {
    return unknown('let evaluates the value of a variable as arithmetic, and an expression like a[$(cmd)] runs cmd');
  }
  if (name !== 'export' && name !== 'readonly' && DECLARATIONS.has(name) && flags.some((flag) => /[in]/.test(flag))) {
    return unknown(`${name} -i/-n makes bash evaluate values assigned later as arithmetic or as variable names, which can run commands`);
  }
  if ((name === 'source' || name === '.') && args[0] && readsCodeFromInput(args[0])) return unknown(`${name} reads the commands it runs from its input`);
  return [];
}

/** Everything `command` runs besides the command after it (see the module comment). */
export function hiddenRuns(command: SimpleCommand, name: string | undefined): { runs: HiddenRun[]; writes: boolean } {
  const runs: HiddenRun[] = [];
  for (const word of command.assignments) {
    const run = assignmentRuns(word);
    if (run) runs.push(run);
  }
  if (name === undefined) return { runs, writes: false };
  const argv = command.argv;
  if (DECLARATIONS.has(name) || name === 'env' || name === 'sudo') {
    for (const word of argv.slice(1)) {
      const run = assignmentRuns(word);
      if (run) runs.push(run);
    }
  }
  runs.push(...builtinRuns(name, argv));
  if (PACKAGE_MANAGERS.has(name)) runs.push(...packageManagerRuns(name, argv));
  let writes = false;
  if (name === 'time') {
    const scanned = scanOptions(argv, 1, { short: 'fo', long: ['format', 'output'] });
    writes = scanned.seen.has('-o') || scanned.seen.has('--output');
  }
  if (name === 'git') {
    const git = gitHiddenRuns(argv);
    runs.push(...git.runs);
    writes ||= git.writes;
  }
  return { runs, writes };
}
