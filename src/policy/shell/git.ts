/**
 * git's own ways to run programs, given on its command line: settings that name a program or shell
 * code (`git -c core.pager='…' log`, `-c diff.external=…`, `--config-env=core.sshCommand=VAR`),
 * `--exec-path=DIR`, and subcommands that run a command (`submodule foreach`, `bisect run`,
 * `rebase --exec`, `difftool --extcmd`, `grep --open-files-in-pager`, `filter-branch --*-filter`)
 * or write a file they are given (`--output`, `format-patch`, `archive -o`). The git wrapper in
 * wrappers.ts judges `git [options] SUB …` as `git SUB …`; this file adds what these run.
 * Settings and hooks in config files are not looked into.
 */
import { joined, scanOptions, type Inner } from './options.js';
import { GIT_GLOBAL, gitCommandLineSettings } from './wrappers.js';
import { literalOf, textWord, type ShellWord } from './words.js';

/** Something a command runs besides the command after it, and what it is shown as. */
export interface HiddenRun {
  inner: Inner;
  label: string;
}

/** Settings whose value git runs as shell code (or as a program, which reads the same). */
const CODE_KEYS = [
  /^core\.(pager|editor|sshcommand|askpass|fsmonitor|gitproxy|alternaterefscommand)$/,
  /^pager\./,
  /^sequence\.editor$/,
  /^diff\.(external|.+\.(command|textconv))$/,
  /^(difftool|mergetool)\..+\.cmd$/,
  /^merge\..+\.driver$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^credential\.(.+\.)?helper$/,
  /^gpg\.(.+\.)?program$/,
  /^uploadpack\.packobjectshook$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^(web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path))$/,
  /^sendemail\.(.+\.)?(tocmd|cccmd|sendmailcmd|smtpserver)$/,
];

/** Settings that make git read or run files seek does not read, or run transports' commands. */
const FILE_KEYS = [/^core\.hookspath$/, /^include\.path$/, /^includeif\..+\.path$/, /^init\.templatedir$/, /^protocol\..*allow$/];

function settingRuns(setting: { text: string; source: string; env: boolean } | undefined): HiddenRun | undefined {
  if (setting === undefined) return undefined; // not known: the wrapper already makes it unknown
  const eq = setting.text.indexOf('=');
  const key = (eq < 0 ? setting.text : setting.text.slice(0, eq)).toLowerCase();
  const label = `git -c ${key}`;
  if (FILE_KEYS.some((pattern) => pattern.test(key))) return { inner: { kind: 'unknown', why: `git is given ${key} on its command line, which makes it read or run files seek does not read` }, label };
  if (!CODE_KEYS.some((pattern) => pattern.test(key))) return undefined;
  if (setting.env || eq < 0) return { inner: { kind: 'unknown', why: `git is given ${key} on its command line, a program seek cannot read` }, label };
  const value = setting.text.slice(eq + 1).replace(/^!/, '');
  if (value === '' || /^(true|false|yes|no|on|off|0|1)$/i.test(value)) return { inner: { kind: 'none' }, label };
  return { inner: { kind: 'shell', code: textWord(value, setting.source), label }, label };
}

/** The values of an option `-x V`, `-xV`, `--long V`, `--long=V` among `args`. */
function optionValues(args: ShellWord[], short: string | undefined, long: string): (ShellWord | undefined)[] {
  const values: (ShellWord | undefined)[] = [];
  args.forEach((word, i) => {
    const text = literalOf(word);
    if (text === undefined) return;
    if (text === `--${long}` || (short && text === `-${short}`)) values.push(args[i + 1]);
    else if (text.startsWith(`--${long}=`)) values.push(textWord(text.slice(long.length + 3), word.source));
    else if (short && text.startsWith(`-${short}`) && !text.startsWith('--')) values.push(textWord(text.slice(2), word.source));
  });
  return values;
}

const asShell = (label: string) => (value: ShellWord | undefined): HiddenRun => ({
  inner: value === undefined ? { kind: 'unknown', why: `${label} is given no command` } : joined([value], label),
  label,
});

/** Subcommands with an option that runs a program (`-O`, `--exec`, `--extcmd`), or that writes a
 * file (`--output`, `-o`): a word not known before they run may be one. */
const RUNS_RISKY = new Set(['grep', 'rebase', 'difftool', 'filter-branch', 'submodule', 'bisect']);
const WRITES_RISKY = new Set(['log', 'diff', 'show', 'whatchanged', 'format-patch', 'range-diff', 'diff-tree', 'diff-files', 'diff-index', 'archive']);

/** The index of the first word before `--` not known before the command runs, or -1. */
function unknownOption(args: ShellWord[]): number {
  const texts = args.map(literalOf);
  const end = texts.indexOf('--');
  return texts.findIndex((text, i) => text === undefined && (end < 0 || i < end));
}

function subcommandRuns(sub: string, args: ShellWord[]): HiddenRun[] {
  const texts = args.map(literalOf);
  const unknownAt = unknownOption(args);
  if (RUNS_RISKY.has(sub) && unknownAt >= 0) {
    return [{ inner: { kind: 'unknown', why: `git ${sub} is given a word not known before it runs, which may be an option that runs a program or writes a file (${args[unknownAt]!.source})` }, label: `git ${sub}` }];
  }
  if (sub === 'submodule') {
    const at = texts.indexOf('foreach');
    if (at < 0) return [];
    const rest = args.slice(at + 1).filter((_, i) => !/^(--recursive|-q|--quiet)$/.test(texts[at + 1 + i] ?? ''));
    return rest.length > 0 ? [{ inner: joined(rest, 'git submodule foreach'), label: 'git submodule foreach' }] : [];
  }
  if (sub === 'bisect' && texts[0] === 'run' && args.length > 1) return [{ inner: { kind: 'argv', argv: args.slice(1) } as Inner, label: 'git bisect run' }];
  if (sub === 'rebase') return optionValues(args, 'x', 'exec').map(asShell('git rebase --exec'));
  if (sub === 'difftool') return optionValues(args, 'x', 'extcmd').map(asShell('git difftool --extcmd'));
  if (sub === 'grep') return optionValues(args, 'O', 'open-files-in-pager').filter((value) => literalOf(value ?? textWord('')) !== '').map(asShell('git grep -O'));
  if (sub === 'filter-branch') {
    const filters = ['env', 'tree', 'index', 'parent', 'msg', 'commit', 'tag-name'].flatMap((kind) => optionValues(args, undefined, `${kind}-filter`));
    return filters.map(asShell('git filter-branch'));
  }
  return [];
}

/** What `git …` runs besides git itself, and whether it writes a file it is given. */
export function gitHiddenRuns(argv: ShellWord[]): { runs: HiddenRun[]; writes: boolean } {
  const first = argv[1] === undefined ? undefined : literalOf(argv[1]);
  if (first === undefined) return { runs: [], writes: false };
  if (first.startsWith('-')) {
    const runs: HiddenRun[] = [];
    const options = argv.slice(1, scanOptions(argv, 1, GIT_GLOBAL).index);
    for (const setting of gitCommandLineSettings(options)) {
      const run = settingRuns(setting);
      if (run) runs.push(run);
    }
    if (options.some((word) => literalOf(word)?.startsWith('--exec-path=') === true)) runs.push({ inner: { kind: 'unknown', why: 'git --exec-path=DIR runs its subcommands from DIR' }, label: 'git --exec-path' });
    return { runs, writes: false };
  }
  const args = argv.slice(2);
  const texts = args.map(literalOf);
  const writes = first === 'format-patch' || (WRITES_RISKY.has(first) && unknownOption(args) >= 0) || texts.some((text) => text === '--output' || text?.startsWith('--output=') === true) || (first === 'archive' && texts.some((text) => text === '-o' || text?.startsWith('-o') === true));
  return { runs: subcommandRuns(first, args), writes };
}
