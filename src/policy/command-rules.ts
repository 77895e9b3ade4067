/**
 * Permission rules on bash commands, judged on what the command runs (shell-commands.ts), not on
 * its text:
 *  - a **deny or ask** rule matches when any simple command the line runs matches it (wrappers'
 *    commands, `sh -c` strings and substitutions included). Programs are compared by name: bare,
 *    quoted, escaped or by any path (`/usr/bin/curl`, `./curl` and `"cu"rl` are `curl`). It errs
 *    closed: a word not known before the command runs (`$x`, `$(…)`, a glob) may be anything, so a
 *    program that is not known (`$cmd`, `$(which curl)`) matches every such rule, and so does a
 *    command line that does not parse.
 *  - an **allow** rule applies only when every simple command is allowed: by an allow rule, or as a
 *    read-only inspector, or (for the transparent wrappers: time, nice, timeout…) through the
 *    command it runs. Never when anything could not be read (`$cmd args`, `eval "$x"`, `… | sh`, a
 *    parse error), nor for a command with leading assignments the rule does not spell out
 *    (`PATH=… git status`), nor one whose output is redirected to a file. The program must be
 *    spelled as in the rule (`/tmp/x/git status` is not `git status`).
 *  - either way, a rule whose text is exactly the command line matches it (what a person approved
 *    with "always").
 *
 * Pattern syntax, on the command's words (quotes and escapes removed): `Bash(git push)` is exactly
 * that command; `Bash(git push:*)` and `Bash(git push *)` are it with any arguments or none; a `*`
 * word stands for any run of words (`git * --force`); a `*` inside a word for any characters of one
 * word (`rm *.tmp`); `\*` is a plain `*`. Words in the rule may be quoted (`'a b'` is one word).
 */
import { isReadOnlyInspector, type InspectorScope } from './inspectors.js';
import { analyzeCommand, formatSimpleCommand, literalOf, loadShellParser, programName, type SimpleCommand } from './shell-commands.js';
import type { PolicyRule } from './types.js';

const SEP = -1; // between two words
const WILD = -2; // subject: something not known before the command runs
const STAR_ANY = -3; // pattern: any symbols, separators included
const STAR_WORD = -4; // pattern: any symbols within one word

/** A rule pattern as alternatives of symbol sequences; `loose` ones compare the program by name. */
interface Compiled {
  strict: number[][];
  loose: number[][];
  exact?: string;
}

function codes(text: string, into: number[]): void {
  for (let i = 0; i < text.length; i++) into.push(text.charCodeAt(i));
}

/** Splits a rule pattern into words: whitespace separates, quotes group, `\x` is a plain x; `*` is
 * a wildcard (STAR_WORD) unless escaped. A word that is exactly `*` is `'*'` in the result. */
function patternWords(pattern: string): (number[] | '*')[] {
  const words: (number[] | '*')[] = [];
  let current: number[] | undefined;
  let quote: string | undefined;
  let bareStar = false;
  const flush = (): void => {
    if (current === undefined) return;
    words.push(bareStar && current.length === 1 && current[0] === STAR_WORD ? '*' : current);
    current = undefined;
    bareStar = false;
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < pattern.length) current!.push(pattern.charCodeAt(++i));
      else if (ch === '*') current!.push(STAR_WORD);
      else current!.push(pattern.charCodeAt(i));
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current ??= [];
    } else if (ch === '\\' && i + 1 < pattern.length) {
      (current ??= []).push(pattern.charCodeAt(++i));
    } else if (/\s/.test(ch)) {
      flush();
    } else if (ch === '*') {
      if (current === undefined) bareStar = true;
      (current ??= []).push(STAR_WORD);
    } else {
      (current ??= []).push(pattern.charCodeAt(i));
    }
  }
  flush();
  return words;
}

const compiledCache = new Map<string, Compiled>();

export function compilePattern(pattern: string): Compiled {
  const cached = compiledCache.get(pattern);
  if (cached) return cached;
  let text = pattern.trim();
  const prefix = text.endsWith(':*');
  if (prefix) text = `${text.slice(0, -2).trimEnd()} *`;
  const words = patternWords(text);
  // A `*` word may also stand for no word at all: each one is tried present and absent (up to 6).
  const starAt = words.flatMap((word, i) => (word === '*' ? [i] : []));
  const variants: (number[] | '*')[][] = [];
  const combos = starAt.length <= 6 ? 1 << starAt.length : 1;
  for (let mask = 0; mask < combos; mask++) variants.push(words.filter((_, i) => !starAt.includes(i) || starAt.length > 6 || !(mask & (1 << starAt.indexOf(i)))));
  const build = (variant: (number[] | '*')[], loose: boolean): number[] => {
    const out: number[] = [];
    variant.forEach((word, i) => {
      if (i > 0) out.push(SEP);
      if (word === '*') out.push(STAR_ANY);
      else if (loose && i === 0 && !word.includes(STAR_WORD)) {
        const slash = word.lastIndexOf('/'.charCodeAt(0));
        out.push(...(slash >= 0 ? word.slice(slash + 1) : word));
      } else out.push(...word);
    });
    return out;
  };
  const compiled: Compiled = {
    strict: variants.filter((v) => v.length > 0).map((v) => build(v, false)),
    loose: variants.filter((v) => v.length > 0).map((v) => build(v, true)),
    ...(!prefix ? { exact: text } : {}),
  };
  if (compiledCache.size > 256) compiledCache.clear();
  compiledCache.set(pattern, compiled);
  return compiled;
}

/** The symbols of a simple command: loose compares the program by name and leaves assignments
 * out; strict keeps both as written. More arguments may follow a command its runner feeds. */
function subjectOf(command: SimpleCommand, loose: boolean): number[] {
  const words = loose ? command.argv : [...command.assignments, ...command.argv];
  const out: number[] = [];
  words.forEach((word, i) => {
    if (i > 0) out.push(SEP);
    if (loose && i === 0) {
      const name = programName(word);
      if (name === undefined) out.push(WILD);
      else codes(name, out);
      return;
    }
    for (const part of word.parts) {
      if ('unknown' in part) out.push(WILD);
      else codes(part.text, out);
    }
  });
  if (command.openArgs) out.push(SEP, WILD);
  return out;
}

/** Does the pattern's language meet the subject's? In `loose` matching an unknown part of the
 * subject may be anything (deny errs closed); in strict matching only a wildcard covers it. */
function symbolsMatch(pattern: number[], subject: number[], loose: boolean): boolean {
  const m = subject.length;
  let prev = new Uint8Array(m + 1);
  prev[0] = 1;
  for (let j = 1; j <= m; j++) prev[j] = loose && subject[j - 1] === WILD && prev[j - 1] ? 1 : 0;
  for (let i = 1; i <= pattern.length; i++) {
    const p = pattern[i - 1]!;
    const cur = new Uint8Array(m + 1);
    cur[0] = p === STAR_ANY || p === STAR_WORD ? prev[0]! : 0;
    for (let j = 1; j <= m; j++) {
      const s = subject[j - 1]!;
      if (p === STAR_ANY) cur[j] = prev[j]! || cur[j - 1]!;
      else if (p === STAR_WORD) cur[j] = prev[j]! || (s !== SEP ? cur[j - 1]! : 0);
      else if (s === WILD) cur[j] = loose ? cur[j - 1]! || prev[j]! : 0;
      else cur[j] = p === s ? prev[j - 1]! : 0;
    }
    prev = cur;
  }
  return prev[m] === 1;
}

/** Symbols of a subject compared in full; a longer subject (a huge argument) ends in an unknown
 * part instead, which can only widen a deny match and narrow an allow one. */
const MAX_SUBJECT = 4096;

/** The literal first word (up to the first separator), or undefined when it holds a wildcard or
 * an unknown part. */
function firstWord(symbols: number[]): number[] | undefined {
  const end = symbols.indexOf(SEP);
  const word = end < 0 ? symbols : symbols.slice(0, end);
  return word.some((symbol) => symbol < 0) ? undefined : word;
}

/** One simple command against a pattern. */
export function simpleCommandMatches(pattern: string, command: SimpleCommand, loose: boolean): boolean {
  const compiled = compilePattern(pattern);
  let subject = subjectOf(command, loose);
  if (subject.length > MAX_SUBJECT) subject = [...subject.slice(0, MAX_SUBJECT), WILD];
  const program = firstWord(subject);
  return (loose ? compiled.loose : compiled.strict).some((alternative) => {
    // Most commands differ from a rule in the program: say so without the full comparison.
    const wanted = firstWord(alternative);
    if (program && wanted && (program.length !== wanted.length || program.some((symbol, i) => symbol !== wanted[i]))) return false;
    return symbolsMatch(alternative, subject, loose);
  });
}

function exactly(pattern: string, command: string): boolean {
  const exact = compilePattern(pattern).exact;
  return exact !== undefined && exact === command.trim();
}

/** A deny or ask rule's pattern against a command line: the first simple command it matches, or
 * undefined. */
export function denyMatch(pattern: string, command: string): SimpleCommand | 'whole' | undefined {
  if (exactly(pattern, command)) return 'whole';
  return analyzeCommand(command).commands.find((simple) => simpleCommandMatches(pattern, simple, true));
}

/** Read-only inspectors (inspectors.ts) count as allowed inside an allowed line, when every word
 * is known and nothing in the line changes directory. */
function inspectorCovers(command: SimpleCommand, scope: InspectorScope): boolean {
  if (command.assignments.length > 0 || command.openArgs || command.argv.length === 0) return false;
  const words = command.argv.map(literalOf);
  if (words.some((word) => word === undefined)) return false;
  if (words.reduce((sum, word) => sum + word!.length, 0) > 10_000) return false; // not worth the check
  const quoted = (words as string[]).map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
  return isReadOnlyInspector(quoted, scope);
}

const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

export interface Coverage {
  /** The allow rules that cover the line (the first decides how it is reported). */
  rules: PolicyRule[];
}

/**
 * The allow rules (in order of preference) under which every simple command of `command` is
 * allowed, or undefined. A rule without a pattern covers any line.
 */
export function coverCommand(command: string, allowRules: readonly PolicyRule[], scope: InspectorScope): Coverage | undefined {
  const whole = allowRules.find((rule) => rule.pattern === undefined || exactly(rule.pattern, command));
  if (whole) return { rules: [whole] };
  const analysis = analyzeCommand(command);
  if (analysis.problems.length > 0) return undefined;
  const inspectorsCount = !analysis.commands.some((simple) => CHANGES_DIRECTORY.has(simple.argv[0] ? (programName(simple.argv[0]) ?? '') : ''));
  const used: PolicyRule[] = [];
  for (const simple of analysis.commands) {
    if (simple.unresolved !== undefined || simple.writesFiles) return undefined;
    if (simple.wrapper?.transparent && simple.wrapper.runs) continue; // judged by the command it runs
    const rule = allowRules.find((candidate) => candidate.pattern !== undefined && simpleCommandMatches(candidate.pattern, simple, false));
    if (rule) {
      if (!used.includes(rule)) used.push(rule);
      continue;
    }
    if (inspectorsCount && inspectorCovers(simple, scope)) continue;
    return undefined;
  }
  return used.length > 0 ? { rules: used } : undefined;
}

/** Whether a rule judges bash commands by pattern (and so needs the grammar). */
export function judgesCommands(rule: PolicyRule): boolean {
  return rule.pattern !== undefined && (rule.tool === undefined || rule.tool === '*' || rule.tool === 'bash') && (rule.kind === undefined || rule.kind === 'bash');
}

let wanted = false;

/** Called with every policy's rules: once any rule judges commands, `commandRulesReady` loads the
 * grammar (at the first command, not at start-up). */
export function noteRules(rules: readonly PolicyRule[]): void {
  if (!wanted && rules.some(judgesCommands)) wanted = true;
}

/**
 * Resolves once a command can be judged by the rules this process has: at once when no rule
 * judges commands, else when the grammar has loaded (or failed to: then every command is
 * unreadable, so deny and ask rules match it and allow rules do not). Called by the tool gate
 * (tool-gate.ts) for a bash action, before the policy decides.
 */
export async function commandRulesReady(): Promise<void> {
  if (!wanted) return;
  try {
    await loadShellParser();
  } catch {
    // judged as unreadable (fail closed)
  }
}

function where(rule: PolicyRule): string {
  return rule.origin?.file ? `from ${rule.origin.file}` : `(${rule.source})`;
}

function ruleText(rule: PolicyRule): string {
  return rule.origin?.text ?? `bash(${rule.pattern ?? ''})`;
}

/**
 * How the rules see a command line, for `seek permissions check`: its simple commands, what could
 * not be read, which deny and ask rules match which simple command, and what allows each one.
 */
export function explainCommand(command: string, rules: readonly PolicyRule[], scope: InspectorScope): string[] {
  const analysis = analyzeCommand(command);
  const lines = [`simple commands: ${analysis.commands.map((simple) => `[${formatSimpleCommand(simple)}]`).join(' ') || '(none)'}`];
  if (analysis.problems.length > 0) lines.push(`cannot be read: ${analysis.problems.join('; ')} (so no allow rule applies, and deny and ask rules count it as a match)`);
  const commandRules = rules.filter((rule) => judgesCommands(rule) || (rule.pattern === undefined && (rule.tool === 'bash' || rule.kind === 'bash')));
  for (const rule of commandRules.filter((r) => r.decision !== 'allow')) {
    if (rule.pattern === undefined) {
      lines.push(`${rule.decision} rule ${ruleText(rule)} ${where(rule)} matches every command`);
      continue;
    }
    const hit = denyMatch(rule.pattern, command);
    if (hit === 'whole') lines.push(`${rule.decision} rule ${ruleText(rule)} ${where(rule)} matches the whole line`);
    else if (hit) lines.push(`${rule.decision} rule ${ruleText(rule)} ${where(rule)} matches \`${formatSimpleCommand(hit)}\``);
  }
  const allows = commandRules.filter((r) => r.decision === 'allow');
  if (allows.length === 0) return lines;
  const whole = allows.find((rule) => rule.pattern === undefined || compilePattern(rule.pattern).exact === command.trim());
  if (whole) {
    lines.push(`allow rule ${ruleText(whole)} ${where(whole)} covers the whole line`);
    return lines;
  }
  const inspectorsCount = !analysis.commands.some((simple) => CHANGES_DIRECTORY.has(simple.argv[0] ? (programName(simple.argv[0]) ?? '') : ''));
  for (const simple of analysis.commands) {
    const shown = `\`${formatSimpleCommand(simple)}\``;
    if (simple.unresolved !== undefined) lines.push(`${shown}: not allowed by any rule (cannot be read)`);
    else if (simple.writesFiles) lines.push(`${shown}: not allowed by any rule (its output goes to a file)`);
    else if (simple.wrapper?.transparent && simple.wrapper.runs) lines.push(`${shown}: judged by the command it runs`);
    else {
      const rule = allows.find((candidate) => candidate.pattern !== undefined && simpleCommandMatches(candidate.pattern, simple, false));
      if (rule) lines.push(`${shown}: allowed by ${ruleText(rule)} ${where(rule)}`);
      else if (inspectorsCount && inspectorCovers(simple, scope)) lines.push(`${shown}: a read-only inspector`);
      else lines.push(`${shown}: no allow rule matches`);
    }
  }
  return lines;
}
