/**
 * Reading a wrapper's command line: its options (scanOptions), the command it runs after them, and
 * what a shell runs (`sh -c CODE`, a script file, or its input). wrappers.ts lists the wrappers.
 */
import { literalOf, programName, textWord, type ShellWord } from './words.js';

/** What a wrapper runs. */
export type Inner =
  | { kind: 'none' }
  | { kind: 'argv'; argv: ShellWord[]; open?: boolean; placeholder?: string }
  | { kind: 'shell'; code: ShellWord; label?: string; open?: boolean; placeholders?: RegExp }
  | { kind: 'unknown'; why: string }
  /** Each list may be the command run (a wrapper whose options seek does not model): all are judged. */
  | { kind: 'candidates'; lists: ShellWord[][] };

export interface OptionSpec {
  /** Short options that take a value: the rest of the cluster, or the next word. */
  short?: string;
  /** Short options whose optional value can only be attached (`-i[R]`). */
  shortAttached?: string;
  /** Long options that take a value (`--x=V` or `--x V`); other long options take none, or only
   * an attached one (`--x=V`). */
  long?: readonly string[];
  /** Options after which no command runs (`command -v`, `sudo -l`). */
  noCommandShort?: string;
  noCommandLong?: readonly string[];
  /** `NAME=value` words may come before the command (env, sudo). */
  assignments?: boolean;
}

interface Scanned {
  /** Index of the first word after the options. */
  index: number;
  seen: Map<string, ShellWord | true>;
  none?: boolean;
  /** A word at an option's place is not known before the command runs. */
  unknown?: ShellWord;
}

function sliceLiteral(word: ShellWord, from: number): ShellWord {
  return textWord(literalOf(word)!.slice(from), word.source);
}

export function scanOptions(argv: ShellWord[], start: number, spec: OptionSpec): Scanned {
  const seen = new Map<string, ShellWord | true>();
  let i = start;
  while (i < argv.length) {
    const word = argv[i]!;
    const lit = literalOf(word);
    if (lit === undefined) return { index: i, seen, unknown: word };
    if (lit === '--') return { index: i + 1, seen };
    if (lit.startsWith('--')) {
      const eq = lit.indexOf('=');
      const name = eq < 0 ? lit.slice(2) : lit.slice(2, eq);
      if (spec.noCommandLong?.includes(name)) return { index: i, seen, none: true };
      if (eq >= 0) {
        seen.set(`--${name}`, sliceLiteral(word, eq + 1));
        i += 1;
      } else if (spec.long?.includes(name)) {
        seen.set(`--${name}`, argv[i + 1] ?? true);
        i += 2;
      } else {
        seen.set(`--${name}`, true);
        i += 1;
      }
      continue;
    }
    if (lit.startsWith('-') && lit.length > 1) {
      let step = 1;
      for (let j = 1; j < lit.length; j++) {
        const c = lit[j]!;
        if (spec.noCommandShort?.includes(c)) return { index: i, seen, none: true };
        if (spec.short?.includes(c)) {
          if (j + 1 < lit.length) seen.set(`-${c}`, sliceLiteral(word, j + 1));
          else {
            seen.set(`-${c}`, argv[i + 1] ?? true);
            step = 2;
          }
          break;
        }
        if (spec.shortAttached?.includes(c)) {
          seen.set(`-${c}`, j + 1 < lit.length ? sliceLiteral(word, j + 1) : true);
          break;
        }
        seen.set(`-${c}`, true);
      }
      i += step;
      continue;
    }
    if (spec.assignments && /^[^=/\s-][^=/\s]*=/.test(lit)) {
      i += 1;
      continue;
    }
    break;
  }
  return { index: i, seen };
}

/** The command after the options (and `operands` fixed operands), or none. */
export function after(argv: ShellWord[], spec: OptionSpec, operands = 0, name = literalOf(argv[0]!) ?? 'the wrapper'): Inner {
  const scanned = scanOptions(argv, 1, spec);
  if (scanned.none) return { kind: 'none' };
  if (scanned.unknown) return { kind: 'unknown', why: `an option of ${name} is not known before it runs (${scanned.unknown.source})` };
  const rest = argv.slice(scanned.index + operands);
  return rest.length > 0 ? { kind: 'argv', argv: rest } : { kind: 'none' };
}

/** A value that is shell code (`-c CODE`): the word, or unknown. */
export function shellValue(value: ShellWord | true | undefined, label: string): Inner | undefined {
  if (value === undefined) return undefined;
  if (value === true) return { kind: 'unknown', why: `${label} is given no command string` };
  return { kind: 'shell', code: value, label };
}

/** Joins words into shell code (watch, parallel, eval join their arguments with spaces). */
export function joined(words: ShellWord[], label: string): Inner {
  const texts = words.map(literalOf);
  if (texts.some((t) => t === undefined)) return { kind: 'unknown', why: `${label} is given shell code that is not known before it runs` };
  const text = texts.join(' ');
  return { kind: 'shell', code: textWord(text, words.map((word) => word.source).join(' ')), label };
}

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'posh', 'yash', 'rbash', 'ksh93', 'pdksh', 'oksh']);

/** `sh [options] [-c CODE | FILE | (stdin)]`. A script file is not looked into. */
export function shellInvocation(argv: ShellWord[]): Inner {
  const name = programName(argv[0]!) ?? 'sh';
  let codeMode = false;
  let stdinMode = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const lit = literalOf(argv[i]!);
    if (lit === undefined) return codeMode ? { kind: 'unknown', why: `${name} -c is given shell code that is not known before it runs` } : { kind: 'unknown', why: `an option of ${name} is not known before it runs (${argv[i]!.source})` };
    if (lit === '--' || lit === '-') {
      i += 1;
      break;
    }
    if (lit.startsWith('--')) {
      if (lit === '--help' || lit === '--version') return { kind: 'none' };
      if (lit === '--rcfile' || lit === '--init-file') i += 1;
      continue;
    }
    if ((lit.startsWith('-') || lit.startsWith('+')) && lit.length > 1) {
      for (const c of lit.slice(1)) {
        if (c === 'c' && lit.startsWith('-')) codeMode = true;
        if (c === 's' && lit.startsWith('-')) stdinMode = true;
        if (c === 'o' || c === 'O') i += 1;
      }
      continue;
    }
    break;
  }
  if (codeMode) {
    const code = argv[i];
    return code ? { kind: 'shell', code, label: `${name} -c` } : { kind: 'unknown', why: `${name} -c is given no command string` };
  }
  if (stdinMode || i >= argv.length || readsCodeFromInput(argv[i]!)) return { kind: 'unknown', why: `${name} reads the commands it runs from its input` };
  return { kind: 'none' }; // a script file: not looked into
}

const STDIN_FILES = /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/[^/]+\/fd\/\d+)$/;

/** A script file that is the command's input or a process substitution: its commands are unknown. */
export function readsCodeFromInput(file: ShellWord): boolean {
  const text = literalOf(file);
  if (text !== undefined) return STDIN_FILES.test(text);
  return file.parts.some((part) => 'unknown' in part && /^[<>]\(/.test(part.unknown));
}

/** Words a loose wrapper may take before the command it runs, each judged as that command's start. */
const MAX_CANDIDATES = 12;

/**
 * The command after a wrapper whose options seek does not model (`strace -e trace=open git push`:
 * is `trace=open` an option's value or the program?). Every literal word that does not look like an
 * option may start the command, so each is judged as a command: a deny or ask rule on the command
 * matches whichever it is. After `--` the rest is the command. A word not known before the command
 * runs, or more places than MAX_CANDIDATES, is unknown (it matches every deny rule).
 */
export function anyCommandAfter(argv: ShellWord[], name: string): Inner {
  const lists: ShellWord[][] = [];
  for (let i = 1; i < argv.length; i++) {
    const text = literalOf(argv[i]!);
    if (text === undefined) return { kind: 'unknown', why: `${name} is given a word not known before it runs (${argv[i]!.source})` };
    if (text === '--') {
      if (i + 1 < argv.length) lists.push(argv.slice(i + 1));
      break;
    }
    if (!text.startsWith('-')) lists.push(argv.slice(i));
    if (lists.length > MAX_CANDIDATES) return { kind: 'unknown', why: `${name}: too many words that may start the command it runs` };
  }
  return lists.length > 0 ? { kind: 'candidates', lists } : { kind: 'none' };
}
