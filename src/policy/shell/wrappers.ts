/**
 * The wrappers seek looks through: programs that run another command (`env`, `sudo`, `xargs`,
 * `find -exec`, `timeout`…), each with its options, and what each runs.
 */
import { after, anyCommandAfter, joined, scanOptions, shellValue, type Inner } from './options.js';
import { literalOf, textWord, type ShellWord, type WordPart } from './words.js';

type WrapperRule = (argv: ShellWord[]) => Inner;

/** `su`/`runuser`: `-c CODE`, else a login shell reading its input. */
const suLike: WrapperRule = (argv) => {
  const scanned = scanOptions(argv, 1, { short: 'cgGsw', long: ['command', 'session-command', 'group', 'supp-group', 'shell', 'whitelist-environment'] });
  const code = shellValue(scanned.seen.get('-c') ?? scanned.seen.get('--command') ?? scanned.seen.get('--session-command'), `${literalOf(argv[0]!)} -c`);
  if (code) return code;
  if (scanned.unknown) return { kind: 'unknown', why: `an option of su is not known before it runs (${scanned.unknown.source})` };
  return { kind: 'unknown', why: 'su without -c runs a shell that reads its commands from its input' };
};

/** git's options before its subcommand that take a value (git(1)); `--exec-path` takes one only
 * attached (`--exec-path=DIR`). */
export const GIT_GLOBAL = { short: 'Cc', long: ['git-dir', 'work-tree', 'namespace', 'config-env', 'attr-source', 'super-prefix'] } as const;

/**
 * `git [global options] SUBCOMMAND …` is judged as `git SUBCOMMAND …` too, so a rule on
 * `git push` sees `git -C . push`, `git --no-pager push` and `git -c x=y push`. An alias defined on
 * the command line (`-c alias.p=push`, `--config-env=alias.p=VAR`) runs what seek cannot see from
 * the subcommand's name (`!sh …` included): unknown. Aliases in the user's or the repository's
 * config files are not looked into.
 */
const gitGlobalOptions: WrapperRule = (argv) => {
  const first = argv[1] === undefined ? undefined : literalOf(argv[1]);
  if (first !== undefined && !first.startsWith('-')) return { kind: 'none' };
  const scanned = scanOptions(argv, 1, GIT_GLOBAL);
  if (scanned.unknown) return { kind: 'unknown', why: `an option of git is not known before it runs (${scanned.unknown.source})` };
  const settings = gitCommandLineSettings(argv.slice(1, scanned.index));
  const alias = settings.find((setting) => setting !== undefined && /^alias\./i.test(setting.text));
  if (alias !== undefined || settings.includes(undefined)) {
    return { kind: 'unknown', why: `git is given an alias, or a setting not known before it runs, on its command line${alias ? ` (${alias.source})` : ''}` };
  }
  const rest = argv.slice(scanned.index);
  return rest.length > 0 ? { kind: 'argv', argv: [argv[0]!, ...rest] } : { kind: 'none' };
};

/** The `-c NAME=VALUE` and `--config-env=NAME=VAR` settings among git's global options (undefined:
 * not known before the command runs); `env`: the value is the name of a variable. */
export function gitCommandLineSettings(options: ShellWord[]): ({ text: string; source: string; env: boolean } | undefined)[] {
  const settings: ({ text: string; source: string; env: boolean } | undefined)[] = [];
  for (let i = 0; i < options.length; i++) {
    const text = literalOf(options[i]!);
    if (text === '-c' || text === '--config-env') {
      const value = options[i + 1] === undefined ? undefined : literalOf(options[i + 1]!);
      settings.push(value === undefined ? undefined : { text: value, source: options[i + 1]!.source, env: text !== '-c' });
      i += 1;
    } else if (text?.startsWith('-c') && text.length > 2) settings.push({ text: text.slice(2), source: options[i]!.source, env: false });
    else if (text?.startsWith('--config-env=')) settings.push({ text: text.slice(13), source: options[i]!.source, env: true });
    else if (text === '-C' || ['--git-dir', '--work-tree', '--namespace', '--attr-source', '--super-prefix'].includes(text ?? '')) i += 1;
  }
  return settings;
}

/**
 * Programs that run a command given after options seek does not model one by one (tracers,
 * debuggers, namespace and personality changers, fake roots, proxies): every word that may start
 * that command is judged as one (anyCommandAfter), so `strace -f git push` meets a rule on
 * `git push`. What they run through their own options (`gdb -ex 'shell …'`) is not seen.
 */
const LOOSE_WRAPPERS = [
  'strace', 'ltrace', 'valgrind', 'gdb', 'perf', 'unshare', 'nsenter', 'setarch', 'linux32', 'linux64', 'fakeroot', 'fakechroot',
  'firejail', 'xvfb-run', 'chroot', 'prlimit', 'numactl', 'cgexec', 'systemd-run', 'proxychains', 'proxychains4', 'torsocks', 'tsocks',
  'eatmydata', 'faketime', 'catchsegv', 'rlwrap', 'dbus-run-session', 'ssh-agent', 'pkexec', 'caffeinate', 'daemonize',
  'start-stop-daemon', 'with-lock-ex', 'chronic', 'nocache', 'trickle',
] as const;

/**
 * The wrappers seek looks through, each with its options (GNU coreutils, util-linux, sudo, GNU
 * findutils and parallel, bash builtins). `transparent` ones only change how a command runs, so an
 * allow rule for the command covers them.
 */
export const WRAPPERS: ReadonlyMap<string, { transparent: boolean; inner: WrapperRule }> = new Map<string, { transparent: boolean; inner: WrapperRule }>([
  ['command', { transparent: true, inner: (argv) => after(argv, { noCommandShort: 'vV' }) }],
  ['builtin', { transparent: true, inner: (argv) => after(argv, {}) }],
  ['exec', { transparent: true, inner: (argv) => after(argv, { short: 'a' }) }],
  ['nohup', { transparent: true, inner: (argv) => after(argv, {}) }],
  ['time', { transparent: true, inner: (argv) => after(argv, { short: 'fo', long: ['format', 'output'] }) }],
  ['nice', { transparent: true, inner: (argv) => after(argv, { short: 'n', long: ['adjustment'] }) }],
  ['timeout', { transparent: true, inner: (argv) => after(argv, { short: 'ks', long: ['kill-after', 'signal'] }, 1) }],
  ['stdbuf', { transparent: true, inner: (argv) => after(argv, { short: 'ioe', long: ['input', 'output', 'error'] }) }],
  ['setsid', { transparent: true, inner: (argv) => after(argv, {}) }],
  ['unbuffer', { transparent: true, inner: (argv) => after(argv, {}) }],
  [
    'ionice',
    { transparent: true, inner: (argv) => after(argv, { short: 'cn', long: ['class', 'classdata'], noCommandShort: 'pPu', noCommandLong: ['pid', 'pgid', 'uid'] }) },
  ],
  [
    'chrt',
    {
      transparent: true,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, { short: 'TPD', long: ['sched-runtime', 'sched-period', 'sched-deadline'], noCommandShort: 'pm', noCommandLong: ['pid', 'max'] });
        if (scanned.none) return { kind: 'none' };
        if (scanned.unknown) return { kind: 'unknown', why: `an option of chrt is not known before it runs (${scanned.unknown.source})` };
        let index = scanned.index;
        const priority = argv[index];
        if (priority && /^\d+$/.test(literalOf(priority) ?? '')) index += 1;
        return index < argv.length ? { kind: 'argv', argv: argv.slice(index) } : { kind: 'none' };
      },
    },
  ],
  ['taskset', { transparent: true, inner: (argv) => after(argv, { noCommandShort: 'p', noCommandLong: ['pid'] }, 1) }],
  ['env', { transparent: false, inner: envInner }],
  [
    'xargs',
    {
      transparent: false,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, {
          short: 'adEILnPs',
          shortAttached: 'eil',
          long: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
        });
        if (scanned.unknown) return { kind: 'unknown', why: `an option of xargs is not known before it runs (${scanned.unknown.source})` };
        const replace = scanned.seen.get('-I') ?? scanned.seen.get('-i') ?? scanned.seen.get('--replace');
        const placeholder = replace === undefined ? undefined : replace === true ? '{}' : literalOf(replace);
        const rest = argv.slice(scanned.index);
        if (rest.length === 0) return { kind: 'none' }; // echo
        return { kind: 'argv', argv: rest, open: true, ...(placeholder ? { placeholder } : {}) };
      },
    },
  ],
  [
    'sudo',
    {
      transparent: false,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, {
          short: 'CDghpRrtTUu',
          long: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'type', 'command-timeout', 'other-user', 'user'],
          noCommandShort: 'elvKV',
          noCommandLong: ['edit', 'list', 'validate', 'remove-timestamp', 'version', 'help'],
          assignments: true,
        });
        if (scanned.none) return { kind: 'none' };
        if (scanned.unknown) return { kind: 'unknown', why: `an option of sudo is not known before it runs (${scanned.unknown.source})` };
        const rest = argv.slice(scanned.index);
        if (rest.length > 0) return { kind: 'argv', argv: rest };
        const shell = ['-s', '-i', '--shell', '--login'].some((flag) => scanned.seen.has(flag));
        return shell ? { kind: 'unknown', why: 'sudo -s/-i without a command runs a shell that reads its commands from its input' } : { kind: 'none' };
      },
    },
  ],
  [
    'doas',
    {
      transparent: false,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, { short: 'Cu' });
        if (scanned.unknown) return { kind: 'unknown', why: `an option of doas is not known before it runs (${scanned.unknown.source})` };
        const rest = argv.slice(scanned.index);
        if (rest.length > 0) return { kind: 'argv', argv: rest };
        return scanned.seen.has('-s') ? { kind: 'unknown', why: 'doas -s runs a shell that reads its commands from its input' } : { kind: 'none' };
      },
    },
  ],
  ['su', { transparent: false, inner: suLike }],
  ['runuser', { transparent: false, inner: suLike }],
  [
    'flock',
    {
      transparent: false,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, { short: 'Ewc', long: ['timeout', 'conflict-exit-code', 'command'] });
        const early = shellValue(scanned.seen.get('-c') ?? scanned.seen.get('--command'), 'flock -c');
        if (early) return early;
        if (scanned.unknown) return { kind: 'unknown', why: `an option of flock is not known before it runs (${scanned.unknown.source})` };
        const rest = argv.slice(scanned.index + 1); // after the lock file (or descriptor)
        const flag = rest[0] ? literalOf(rest[0]) : undefined;
        if (flag === '-c' || flag === '--command') return shellValue(rest[1] ?? true, 'flock -c')!;
        return rest.length > 0 ? { kind: 'argv', argv: rest } : { kind: 'none' };
      },
    },
  ],
  [
    'watch',
    {
      transparent: false,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, { short: 'nq', shortAttached: 'd', long: ['interval', 'equexit'] });
        if (scanned.unknown) return { kind: 'unknown', why: `an option of watch is not known before it runs (${scanned.unknown.source})` };
        const rest = argv.slice(scanned.index);
        if (rest.length === 0) return { kind: 'none' };
        if (scanned.seen.has('-x') || scanned.seen.has('--exec')) return { kind: 'argv', argv: rest };
        return joined(rest, 'watch'); // watch runs `sh -c` on its arguments joined
      },
    },
  ],
  [
    'script',
    {
      transparent: false,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, {
          short: 'cEIOBTmo',
          shortAttached: 't',
          long: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format', 'output-limit'],
        });
        const code = shellValue(scanned.seen.get('-c') ?? scanned.seen.get('--command'), 'script -c');
        if (code) return code;
        if (scanned.unknown) return { kind: 'unknown', why: `an option of script is not known before it runs (${scanned.unknown.source})` };
        return { kind: 'unknown', why: 'script without -c runs a shell that reads its commands from its input' };
      },
    },
  ],
  [
    'parallel',
    {
      transparent: false,
      inner: (argv) => {
        const scanned = scanOptions(argv, 1, {
          short: 'jPNnLSadEIC',
          long: [
            'jobs', 'max-args', 'max-replace-args', 'max-lines', 'sshlogin', 'arg-file', 'delimiter', 'eof', 'replace', 'joblog', 'results', 'colsep',
            'halt', 'tmpdir', 'timeout', 'retries', 'delay', 'load', 'memfree', 'block', 'header', 'env', 'workdir', 'wd', 'basefile', 'return',
            'sshdelay', 'tagstring', 'sshloginfile',
          ],
        });
        if (scanned.unknown) return { kind: 'unknown', why: `an option of parallel is not known before it runs (${scanned.unknown.source})` };
        const rest = argv.slice(scanned.index);
        const end = rest.findIndex((word) => /^:{3,4}\+?$/.test(literalOf(word) ?? ''));
        const commandWords = end < 0 ? rest : rest.slice(0, end);
        if (commandWords.length === 0) return { kind: 'unknown', why: 'parallel runs commands it reads from its input or arguments' };
        const inner = joined(commandWords, 'parallel');
        return inner.kind === 'shell' ? { ...inner, open: true, placeholders: /\{[^{}\s]*\}/g } : inner;
      },
    },
  ],
  ['coproc', { transparent: true, inner: coprocInner }],
  ['busybox', { transparent: false, inner: (argv) => after(argv, { noCommandLong: ['list', 'help', 'install'] }) }],
  ['toybox', { transparent: false, inner: (argv) => after(argv, {}) }],
  ['git', { transparent: false, inner: gitGlobalOptions }],
  ...LOOSE_WRAPPERS.map((name): [string, { transparent: boolean; inner: WrapperRule }] => [name, { transparent: false, inner: (argv) => anyCommandAfter(argv, name) }]),
]);

/** `env [options] [NAME=value…] COMMAND`; the words `-S STRING` splits into are read as env's
 * own again (`env -S "-i X=1 rm x"`). */
function envInner(argv: ShellWord[]): Inner {
  const words = argv.filter((word, i) => i === 0 || literalOf(word) !== '-');
  const scanned = scanOptions(words, 1, { short: 'uCSP', long: ['unset', 'chdir', 'split-string'], assignments: true });
  if (scanned.unknown) return { kind: 'unknown', why: `an option of env is not known before it runs (${scanned.unknown.source})` };
  const split = scanned.seen.get('-S') ?? scanned.seen.get('--split-string');
  const rest = words.slice(scanned.index);
  if (split === undefined) return rest.length > 0 ? { kind: 'argv', argv: rest } : { kind: 'none' };
  const prefix = split === true ? [] : envSplit(split);
  if (prefix === undefined) return { kind: 'unknown', why: 'env -S is given a string that is not known before it runs' };
  const all = [...prefix, ...rest];
  return all.length > 0 ? envInner([argv[0]!, ...all]) : { kind: 'none' };
}

/** `coproc [NAME] { …; }`: the grammar reads the group as words (`{`, then the command); the
 * closing `}` comes as a command of its own. */
function coprocInner(argv: ShellWord[]): Inner {
  const texts = argv.slice(1, 3).map(literalOf);
  const start = texts[0] === '{' ? 2 : texts[1] === '{' && /^[A-Za-z_]\w*$/.test(texts[0] ?? '') ? 3 : 1;
  const rest = argv.slice(start);
  return rest.length > 0 ? { kind: 'argv', argv: rest } : { kind: 'none' };
}

/** `env -S STRING`: env's own splitting (spaces; single and double quotes; backslash escapes);
 * a `$` (env expands `${VAR}`) makes the string unknown. */
function envSplit(word: ShellWord): ShellWord[] | undefined {
  const text = literalOf(word);
  if (text === undefined || text.includes('$')) return undefined;
  const words: ShellWord[] = [];
  let current: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i]!;
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current ??= '';
    } else if (ch === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      if (next === '_') {
        if (current !== undefined) words.push(textWord(current));
        current = undefined;
      } else current = (current ?? '') + (next === 'c' ? '' : next);
    } else if (/\s/.test(ch)) {
      if (current !== undefined) words.push(textWord(current));
      current = undefined;
    } else {
      current = (current ?? '') + ch;
    }
  }
  if (quote) return undefined;
  if (current !== undefined) words.push(textWord(current));
  return words;
}

/** `find … -exec CMD ARGS… ;` (and `+`, `-execdir`, `-ok`, `-okdir`): each command it runs. */
export function findCommands(argv: ShellWord[]): ShellWord[][] {
  const out: ShellWord[][] = [];
  for (let i = 1; i < argv.length; i++) {
    const lit = literalOf(argv[i]!);
    if (lit !== '-exec' && lit !== '-execdir' && lit !== '-ok' && lit !== '-okdir') continue;
    const inner: ShellWord[] = [];
    let j = i + 1;
    for (; j < argv.length; j++) {
      const word = literalOf(argv[j]!);
      if (word === ';' || (word === '+' && literalOf(argv[j - 1]!)?.endsWith('{}'))) break;
      inner.push(argv[j]!);
    }
    if (inner.length > 0) out.push(inner);
    i = j;
  }
  return out;
}

/** Replaces `placeholder` in literal words with an unknown part (xargs -I, find's `{}`). */
export function withPlaceholder(words: ShellWord[], placeholder: string): ShellWord[] {
  return words.map((word) => {
    const parts: WordPart[] = [];
    for (const part of word.parts) {
      if ('unknown' in part) {
        parts.push(part);
        continue;
      }
      const pieces = part.text.split(placeholder);
      pieces.forEach((piece, k) => {
        if (k > 0) parts.push({ unknown: placeholder });
        if (piece !== '') parts.push({ text: piece });
      });
    }
    return { source: word.source, parts };
  });
}
