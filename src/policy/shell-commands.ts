/**
 * What a bash command line runs, read with the bash grammar (shell-parser.ts): the simple commands
 * it is made of, each as the words the shell would pass to the program, so that permission rules
 * judge commands rather than text (command-rules.ts).
 *
 * Shell constructs followed: lists (`;`, `&&`, `||`, `&`, newlines), pipelines (`|`, `|&`),
 * subshells `( )`, groups `{ }`, `! cmd`, `if`/`elif`/`else`, `while`/`until`, `for`/`select`,
 * C-style `for (( ))`, `case`, function bodies, command substitutions `$( )` and backticks
 * (anywhere: arguments, strings, assignments, redirections, `${x:-…}` defaults, arithmetic,
 * here-documents with an unquoted delimiter, backticks inside those included), process
 * substitutions `<( )` `>( )`, `[[ ]]`/`[ ]`/`(( ))` (only the substitutions inside them), bare
 * assignments and `export`/`declare`/`local`/`readonly`/`typeset`/`unset`.
 *
 * Words are evaluated as bash would before running the program: quotes removed (`"cu"rl`,
 * `cu''rl`), backslashes (`c\url`, `\curl`), `$'…'` escapes (`$'\x63url'`), `$"…"`. What cannot be
 * known before the command runs becomes an *unknown* part: parameter expansions (`$x`, `${IFS}`),
 * command and process substitutions, arithmetic, unquoted globs (`*`, `?`, `[…]`) and brace
 * expansions (a word with `{a,b}` or `{1..3}` is unknown as a whole). Leading `NAME=value`
 * assignments and redirections are kept apart from the program's words.
 *
 * Commands that run other commands are judged themselves and for the command they run,
 * recursively (WRAPPERS below, each with its options): `command`, `builtin`, `exec`, `nohup`,
 * `time`, `nice`, `timeout`, `stdbuf`, `setsid`, `unbuffer`, `ionice`, `chrt`, `taskset`, `coproc`
 * (transparent: an allow rule for the command covers them), and `env`, `xargs`, `sudo`, `doas`,
 * `su`, `runuser`, `flock`, `watch`, `script`, `parallel`, `busybox`, `toybox`, `find -exec`/
 * `-execdir`/`-ok`/`-okdir` (not transparent). Shell code handed over as a string is parsed the
 * same way: `sh`/`bash`/`dash`/`zsh`/`ksh`/`mksh`/`ash`/`posh`/`yash` `-c`, `eval`, `trap`, `alias`
 * values, `su -c`, `flock -c`, `script -c`, `watch` and `parallel` (both run their words through a
 * shell). A shell given a script file is not looked into (neither are `source`, `make`, `npm run`
 * or other interpreters' `-c`/`-e`).
 *
 * What cannot be read is reported as a problem, and stands in the result as a command whose program
 * is unknown: a program that is an expansion or substitution (`$cmd`, `$(which curl)`,
 * `curl${IFS}x`), a shell string that is not literal (`eval "$x"`, `sh -c "$x"`), a shell reading
 * its commands from its input (`… | bash`, `bash <<EOF`, `bash -s`, `sudo -s`, `script`), `parallel`
 * with its commands in its input, an option of a wrapper that is not literal (`env $OPTS curl`),
 * commands nested deeper than MAX_DEPTH, and a command line that does not parse.
 */
import { loadShellParser, shellParserLoaded, shellParserProblem, withShellTree, type SyntaxNode } from './shell-parser.js';

/** A piece of a word: known text, or something only known when the command runs. */
export type WordPart = { text: string } | { unknown: string };

export interface ShellWord {
  /** The word as written. */
  source: string;
  parts: WordPart[];
}

export interface SimpleCommand {
  /** Leading `NAME=value` assignments (`FOO=1 curl …`), as words. */
  assignments: ShellWord[];
  /** The program and its arguments; empty for a bare assignment or redirection. */
  argv: ShellWord[];
  /** An output redirection to a file (not `/dev/null`, not another descriptor) applies to it. */
  writesFiles: boolean;
  /** What it was reached through, outermost first: `sudo`, `sh -c`, `$( )`, `xargs`. */
  via: string[];
  /** Its runner appends arguments when it runs (xargs, parallel): more words may follow. */
  openArgs: boolean;
  /** Set when its program is a wrapper (WRAPPERS) that runs another command, which is listed too.
   * `transparent`: the wrapper only changes how the command runs (time, nice, timeout…), so an
   * allow rule for the command covers it; env, sudo, xargs, find, shells and the like are not. */
  wrapper?: { name: string; transparent: boolean; runs: boolean };
  /** Set when the command stands for something that cannot be read statically (the program is
   * then unknown): why. */
  unresolved?: string;
}

export interface CommandAnalysis {
  command: string;
  commands: SimpleCommand[];
  /** Why no allow rule may apply (empty when every command could be read). */
  problems: string[];
}

/** Shell strings inside shell strings (`sh -c "bash -c '…'"`) are followed this deep. */
const MAX_DEPTH = 8;
/** A command line is judged by at most this many simple commands; past it, it is unreadable. */
const MAX_COMMANDS = 2_000;
/** Longer command lines are not parsed (about a second per megabyte): they are unreadable. */
const MAX_LENGTH = 1_000_000;

// ---------------------------------------------------------------------------------------------
// Words

export function literalOf(word: ShellWord): string | undefined {
  let text = '';
  for (const part of word.parts) {
    if ('unknown' in part) return undefined;
    text += part.text;
  }
  return text;
}

const textWord = (text: string, source = text): ShellWord => ({ source, parts: [{ text }] });
const unknownWord = (source: string): ShellWord => ({ source, parts: [{ unknown: source }] });

/** The program a word names, compared by its last path component (`/usr/bin/curl`, `./curl` →
 * `curl`); undefined when that component is not known before the command runs. */
export function programName(word: ShellWord): string | undefined {
  let tail = '';
  for (const part of word.parts) {
    if ('unknown' in part) {
      tail = '\0'; // unknown until a later literal slash
      continue;
    }
    const slash = part.text.lastIndexOf('/');
    tail = slash >= 0 ? part.text.slice(slash + 1) : tail + part.text;
  }
  return tail.includes('\0') ? undefined : tail;
}

/** Shell-quotes a literal word for display; unknown parts keep their source. */
export function displayWord(word: ShellWord): string {
  const literal = literalOf(word);
  if (literal === undefined) return word.source;
  if (literal !== '' && /^[\w@%+=:,./-]+$/.test(literal)) return literal;
  return `'${literal.replace(/'/g, `'\\''`)}'`;
}

/** `[via → ]words`, as `seek permissions check` shows a simple command. */
export function formatSimpleCommand(command: SimpleCommand): string {
  const words = [...command.assignments, ...command.argv].map(displayWord).join(' ');
  const shown = command.unresolved !== undefined && command.argv.length <= 1 ? `${words || '?'} (unknown: ${command.unresolved})` : words;
  return command.via.length > 0 ? `${command.via.join(' → ')} → ${shown}` : shown;
}

/** A run of a word being built: quoted text is never glob or brace syntax. */
type Seg = { text: string; quoted: boolean } | { unknown: string };

function pushUnquoted(text: string, segs: Seg[]): void {
  let run = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      if (run) segs.push({ text: run, quoted: false });
      run = '';
      const next = text[++i]!;
      if (next !== '\n') segs.push({ text: next, quoted: true });
      continue;
    }
    run += ch;
  }
  if (run) segs.push({ text: run, quoted: false });
}

function pushQuoted(text: string, segs: Seg[]): void {
  if (text) segs.push({ text, quoted: true });
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a newline. */
function pushDoubleQuoted(text: string, segs: Seg[]): void {
  pushQuoted(text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch)), segs);
}

/** bash's `$'…'` escapes. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const e = body[++i]!;
    const simple: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
    if (e in simple) {
      out += simple[e];
    } else if (/[0-7]/.test(e)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const max = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const digits = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(body.slice(i + 1))?.[0];
      if (!digits) {
        out += `\\${e}`;
        continue;
      }
      const code = parseInt(digits, 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
      i += digits.length;
    } else if (e === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += `\\${e}`;
    }
  }
  return out;
}

/** Glob and brace syntax in the unquoted characters: unquoted `*`, `?` and `[…]` become unknown
 * (they expand to file names); a brace expansion makes the whole word unknown. */
function finishWord(source: string, runs: Seg[]): ShellWord {
  if (!runs.some((run) => 'quoted' in run && !run.quoted && /[*?[{]/.test(run.text))) return { source, parts: segsToParts(runs) };
  // Character by character, each knowing whether it was quoted.
  type Char = { ch: string; quoted: boolean } | { unknown: string };
  const segs: Char[] = runs.flatMap((run): Char[] => ('unknown' in run ? [run] : [...run.text].map((ch) => ({ ch, quoted: run.quoted }))));
  const unquoted = (s: Char | undefined, ch: string): boolean => s !== undefined && !('unknown' in s) && !s.quoted && s.ch === ch;
  for (let open = 0; open < segs.length; open++) {
    if (!unquoted(segs[open], '{')) continue;
    for (let close = open + 1; close < segs.length; close++) {
      if (unquoted(segs[close], '}')) {
        const inner = segs.slice(open + 1, close);
        const comma = inner.some((s) => unquoted(s, ','));
        const range = inner.some((s, k) => unquoted(s, '.') && unquoted(inner[k + 1], '.'));
        if (comma || range) return unknownWord(source);
        break;
      }
    }
  }
  const parts: WordPart[] = [];
  const addText = (ch: string): void => {
    const last = parts.at(-1);
    if (last && 'text' in last) last.text += ch;
    else parts.push({ text: ch });
  };
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if ('unknown' in seg) {
      parts.push({ unknown: seg.unknown });
    } else if (!seg.quoted && (seg.ch === '*' || seg.ch === '?')) {
      parts.push({ unknown: seg.ch });
    } else if (!seg.quoted && seg.ch === '[') {
      let close = -1;
      for (let k = i + 2; k < segs.length; k++) {
        if (unquoted(segs[k], ']')) {
          close = k;
          break;
        }
      }
      if (close < 0) addText('[');
      else {
        parts.push({ unknown: '[…]' });
        i = close;
      }
    } else {
      addText(seg.ch);
    }
  }
  return { source, parts };
}

// ---------------------------------------------------------------------------------------------
// Walking the tree

interface Walk {
  source: string;
  out: SimpleCommand[];
  problems: string[];
  via: string[];
  depth: number;
  /** An enclosing redirection writes a file. */
  writes: boolean;
}

const STATEMENTS = new Set([
  'c_style_for_statement',
  'case_statement',
  'command',
  'compound_statement',
  'declaration_command',
  'for_statement',
  'function_definition',
  'if_statement',
  'list',
  'negated_command',
  'pipeline',
  'redirected_statement',
  'subshell',
  'test_command',
  'unset_command',
  'variable_assignment',
  'variable_assignments',
  'while_statement',
  'program',
  'do_group',
  'elif_clause',
  'else_clause',
  'case_item',
  'ERROR',
]);

function children(node: SyntaxNode): { child: SyntaxNode; field: string | null }[] {
  const out: { child: SyntaxNode; field: string | null }[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (child) out.push({ child, field: node.fieldNameForChild(i) });
  }
  return out;
}

function unresolvedCommand(w: Walk, source: string, why: string): void {
  w.problems.push(why);
  w.out.push({ assignments: [], argv: [unknownWord(source)], writesFiles: w.writes, via: [...w.via], openArgs: false, unresolved: why });
}

/** Appends the word `node` stands for to `segs`; substitutions inside are walked as commands. */
function wordInto(node: SyntaxNode, w: Walk, segs: Seg[]): void {
  switch (node.type) {
    case 'word':
      pushUnquoted(node.text, segs);
      return;
    case 'raw_string':
      pushQuoted(node.text.slice(1, -1), segs);
      return;
    case 'ansi_c_string':
      pushQuoted(decodeAnsiC(node.text.slice(2, -1)), segs);
      return;
    case 'string': {
      let pos = node.startIndex + 1;
      for (const { child } of children(node)) {
        if (child.startIndex > pos) pushDoubleQuoted(w.source.slice(pos, child.startIndex), segs);
        pos = Math.max(pos, child.endIndex);
        if (child.type === '"') continue;
        if (child.type === 'string_content') pushDoubleQuoted(child.text, segs);
        else if (child.isNamed) segs.push({ unknown: unknownPart(child, w) });
        else pushQuoted(child.text, segs);
      }
      return;
    }
    case 'translated_string':
    case 'concatenation':
    case 'command_name': {
      let pos = node.startIndex;
      for (const { child } of children(node)) {
        if (child.startIndex > pos) pushUnquoted(w.source.slice(pos, child.startIndex), segs);
        pos = Math.max(pos, child.endIndex);
        if (node.type === 'translated_string' && child.type === '$') continue;
        wordInto(child, w, segs);
      }
      return;
    }
    case 'number':
    case 'variable_name':
    case 'special_variable_name':
    case 'extglob_pattern':
    case 'regex':
    case 'test_operator':
    case 'file_descriptor':
      if (node.namedChildCount === 0) {
        pushUnquoted(node.text, segs);
        return;
      }
      segs.push({ unknown: unknownPart(node, w) });
      return;
    default:
      if (!node.isNamed) {
        pushUnquoted(node.text, segs);
        return;
      }
      segs.push({ unknown: unknownPart(node, w) });
  }
}

/** An expansion or substitution: unknown text; the commands inside still run, so they are walked. */
function unknownPart(node: SyntaxNode, w: Walk): string {
  substitutionsIn(node, w);
  return node.text;
}

/** Walks the command and process substitutions anywhere below `node` (not statements beside them). */
function substitutionsIn(node: SyntaxNode, w: Walk): void {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    const label = node.type === 'process_substitution' ? `${node.text.slice(0, 1)}( )` : node.text.startsWith('`') ? '` `' : '$( )';
    const inner: Walk = { ...w, via: [...w.via, label], writes: false };
    for (const { child } of children(node)) {
      if (child.type === 'file_redirect') substitutionsIn(child, inner);
      else if (child.isNamed) statement(child, inner);
    }
    return;
  }
  if (node.type === 'heredoc_body') {
    heredocBody(node, w);
    return;
  }
  for (const { child } of children(node)) if (child.isNamed) substitutionsIn(child, w);
}

function wordOf(nodes: SyntaxNode[], w: Walk): ShellWord {
  const segs: Seg[] = [];
  nodes.forEach((node, i) => {
    if (i > 0) pushUnquoted(w.source.slice(nodes[i - 1]!.endIndex, node.startIndex), segs); // `\<newline>`
    // `$"…"` (a translated string) arrives as `$` then the string: the `$` is not part of the value.
    if (node.type === '$' && !node.isNamed && nodes[i + 1]?.type === 'string') return;
    wordInto(node, w, segs);
  });
  const source = w.source.slice(nodes[0]!.startIndex, nodes.at(-1)!.endIndex);
  return finishWord(source, segs);
}

/** Adjacent nodes with nothing between them are one shell word (`$"…"` comes as `$` + string), and
 * so are nodes joined by a line continuation (`cu\<newline>rl`: bash removes it before reading
 * words; the grammar takes it for a blank). */
function wordsOf(nodes: SyntaxNode[], w: Walk): ShellWord[] {
  const groups: SyntaxNode[][] = [];
  for (const node of nodes) {
    const last = groups.at(-1);
    if (last && /^(\\\n)*$/.test(w.source.slice(last.at(-1)!.endIndex, node.startIndex))) last.push(node);
    else groups.push([node]);
  }
  return groups.map((group) => wordOf(group, w));
}

function assignmentWord(node: SyntaxNode, w: Walk): ShellWord {
  const segs: Seg[] = [];
  let pos = node.startIndex;
  for (const { child } of children(node)) {
    if (child.startIndex > pos) pushQuoted(w.source.slice(pos, child.startIndex), segs);
    pos = Math.max(pos, child.endIndex);
    if (child.type === 'variable_name' || child.type === '=' || child.type === '+=') pushQuoted(child.text, segs);
    else if (child.type === 'subscript') segs.push({ unknown: unknownPart(child, w) });
    else wordInto(child, w, segs);
  }
  // Globs do not expand in an assignment's value.
  return { source: node.text, parts: segsToParts(segs) };
}

function segsToParts(segs: Seg[]): WordPart[] {
  const parts: WordPart[] = [];
  for (const seg of segs) {
    const last = parts.at(-1);
    if ('unknown' in seg) parts.push({ unknown: seg.unknown });
    else if (last && 'text' in last) last.text += seg.text;
    else parts.push({ text: seg.text });
  }
  return parts;
}

const READ_OPERATORS = new Set(['<', '<&', '<<<', '<<', '<<-']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** Walks a redirection; true when it writes a file. */
function redirect(node: SyntaxNode, w: Walk): boolean {
  if (node.type === 'herestring_redirect') {
    substitutionsIn(node, w);
    return false;
  }
  if (node.type === 'heredoc_redirect') {
    let writes = false;
    for (const { child, field } of children(node)) {
      if (child.type === 'heredoc_body') heredocBody(child, w, node);
      else if (child.type === 'file_redirect' || child.type === 'herestring_redirect') writes = redirect(child, w) || writes;
      else if (field === 'argument') substitutionsIn(child, w);
      else if (STATEMENTS.has(child.type)) statement(child, { ...w, writes: false });
    }
    return writes;
  }
  if (node.type !== 'file_redirect') {
    substitutionsIn(node, w);
    return false;
  }
  const operator = children(node).find(({ child }) => !child.isNamed)?.child.text ?? '>';
  const destinationNodes = node.childrenForFieldName('destination');
  const destination = destinationNodes.length > 0 ? wordOf(destinationNodes, w) : undefined;
  if (READ_OPERATORS.has(operator)) return false;
  const target = destination ? literalOf(destination) : undefined;
  if ((operator === '>&' || operator === '<&') && target !== undefined && /^(\d+|-)$/.test(target)) return false;
  return target === undefined || !HARMLESS_TARGETS.has(target);
}

/** A here-document's body: with an unquoted delimiter, its substitutions run (backticks too, which
 * the grammar leaves in the text). */
function heredocBody(node: SyntaxNode, w: Walk, redirectNode?: SyntaxNode): void {
  const start = redirectNode ? children(redirectNode).find(({ child }) => child.type === 'heredoc_start')?.child.text : undefined;
  if (start !== undefined && /['"\\]/.test(start)) return; // quoted delimiter: the body is literal
  // The grammar parses `$x` and `$( )` in the body but leaves backticks in the text: read those
  // from the text, with what the grammar parsed standing in as an unknown expansion.
  let text = '';
  let pos = node.startIndex;
  for (const { child } of children(node)) {
    text += w.source.slice(pos, child.startIndex);
    pos = Math.max(pos, child.endIndex);
    if (child.type === 'heredoc_content' || !child.isNamed) text += child.text;
    else {
      substitutionsIn(child, w);
      text += '"$SEEK_UNKNOWN"';
    }
  }
  text += w.source.slice(pos, node.endIndex);
  backticksIn(text, w);
}

function backticksIn(text: string, w: Walk): void {
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i += 1;
      continue;
    }
    if (ch === '$' && text[i + 1] === '(' && open < 0) {
      unresolvedCommand(w, text.trim(), 'a here-document holds a command substitution seek cannot read');
      return;
    }
    if (ch !== '`') continue;
    if (open < 0) open = i;
    else {
      analyzeInto(text.slice(open + 1, i).replace(/\\([$`\\])/g, '$1'), w, '` `');
      open = -1;
    }
  }
  if (open >= 0) unresolvedCommand(w, text.trim(), 'a here-document holds an unterminated backtick');
}

function statement(node: SyntaxNode, w: Walk): void {
  if (w.out.length > MAX_COMMANDS) return;
  switch (node.type) {
    case 'command':
      simpleCommand(node, w);
      return;
    case 'redirected_statement': {
      let writes = false;
      let body: SyntaxNode | undefined;
      for (const { child, field } of children(node)) {
        if (field === 'body') body = child;
        else if (child.type.endsWith('_redirect')) writes = redirect(child, w) || writes;
        else if (child.isNamed) statement(child, w);
      }
      if (body) statement(body, { ...w, writes: w.writes || writes });
      else w.out.push({ assignments: [], argv: [], writesFiles: w.writes || writes, via: [...w.via], openArgs: false });
      return;
    }
    case 'variable_assignment':
      w.out.push({ assignments: [assignmentWord(node, w)], argv: [], writesFiles: w.writes, via: [...w.via], openArgs: false });
      return;
    case 'variable_assignments':
      w.out.push({
        assignments: node.namedChildren.filter((c): c is SyntaxNode => c?.type === 'variable_assignment').map((c) => assignmentWord(c, w)),
        argv: [],
        writesFiles: w.writes,
        via: [...w.via],
        openArgs: false,
      });
      return;
    case 'declaration_command':
    case 'unset_command': {
      const argv: ShellWord[] = [textWord(node.child(0)?.text ?? node.type)];
      for (const child of node.namedChildren) {
        if (!child) continue;
        argv.push(child.type === 'variable_assignment' ? assignmentWord(child, w) : wordOf([child], w));
      }
      w.out.push({ assignments: [], argv, writesFiles: w.writes, via: [...w.via], openArgs: false });
      return;
    }
    case 'test_command':
      substitutionsIn(node, w);
      return;
    case 'comment':
      return;
    default:
      for (const { child, field } of children(node)) {
        if (!child.isNamed) continue;
        // `for ((i = 0; …))`: arithmetic, not commands.
        if (field === 'initializer' || field === 'condition' && node.type === 'c_style_for_statement' || field === 'update') substitutionsIn(child, w);
        else if (STATEMENTS.has(child.type) || child.type === 'comment') statement(child, w);
        else if (child.type.endsWith('_redirect')) redirect(child, w);
        else substitutionsIn(child, w);
      }
  }
}

function simpleCommand(node: SyntaxNode, w: Walk): void {
  const assignments: ShellWord[] = [];
  const wordNodes: SyntaxNode[] = [];
  let writes = w.writes;
  for (const { child, field } of children(node)) {
    if (field === 'name' || field === 'argument') wordNodes.push(child);
    else if (field === 'redirect' || child.type.endsWith('_redirect')) writes = redirect(child, w) || writes;
    else if (child.type === 'variable_assignment') assignments.push(assignmentWord(child, w));
    else if (child.isNamed && STATEMENTS.has(child.type)) statement(child, w);
    else if (child.isNamed) substitutionsIn(child, w);
  }
  const argv = wordNodes.length > 0 ? wordsOf(wordNodes, w) : [];
  expand({ assignments, argv, writesFiles: writes, via: [...w.via], openArgs: false }, w);
}

// ---------------------------------------------------------------------------------------------
// Wrappers: programs that run another command

/** What a wrapper runs. */
type Inner =
  | { kind: 'none' }
  | { kind: 'argv'; argv: ShellWord[]; open?: boolean; placeholder?: string }
  | { kind: 'shell'; code: ShellWord; label?: string; open?: boolean; placeholders?: RegExp }
  | { kind: 'unknown'; why: string };

interface OptionSpec {
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

function scanOptions(argv: ShellWord[], start: number, spec: OptionSpec): Scanned {
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
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(lit)) {
      i += 1;
      continue;
    }
    break;
  }
  return { index: i, seen };
}

/** The command after the options (and `operands` fixed operands), or none. */
function after(argv: ShellWord[], spec: OptionSpec, operands = 0, name = literalOf(argv[0]!) ?? 'the wrapper'): Inner {
  const scanned = scanOptions(argv, 1, spec);
  if (scanned.none) return { kind: 'none' };
  if (scanned.unknown) return { kind: 'unknown', why: `an option of ${name} is not known before it runs (${scanned.unknown.source})` };
  const rest = argv.slice(scanned.index + operands);
  return rest.length > 0 ? { kind: 'argv', argv: rest } : { kind: 'none' };
}

/** A value that is shell code (`-c CODE`): the word, or unknown. */
function shellValue(value: ShellWord | true | undefined, label: string): Inner | undefined {
  if (value === undefined) return undefined;
  if (value === true) return { kind: 'unknown', why: `${label} is given no command string` };
  return { kind: 'shell', code: value, label };
}

/** Joins words into shell code (watch, parallel, eval join their arguments with spaces). */
function joined(words: ShellWord[], label: string): Inner {
  const texts = words.map(literalOf);
  if (texts.some((t) => t === undefined)) return { kind: 'unknown', why: `${label} is given shell code that is not known before it runs` };
  const text = texts.join(' ');
  return { kind: 'shell', code: textWord(text, words.map((word) => word.source).join(' ')), label };
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'posh', 'yash', 'rbash', 'ksh93', 'pdksh', 'oksh']);

/** `sh [options] [-c CODE | FILE | (stdin)]`. A script file is not looked into. */
function shellInvocation(argv: ShellWord[]): Inner {
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
  if (stdinMode || i >= argv.length) return { kind: 'unknown', why: `${name} reads the commands it runs from its input` };
  return { kind: 'none' }; // a script file: not looked into
}

type WrapperRule = (argv: ShellWord[]) => Inner;

/** `su`/`runuser`: `-c CODE`, else a login shell reading its input. */
const suLike: WrapperRule = (argv) => {
  const scanned = scanOptions(argv, 1, { short: 'cgGsw', long: ['command', 'session-command', 'group', 'supp-group', 'shell', 'whitelist-environment'] });
  const code = shellValue(scanned.seen.get('-c') ?? scanned.seen.get('--command') ?? scanned.seen.get('--session-command'), `${literalOf(argv[0]!)} -c`);
  if (code) return code;
  if (scanned.unknown) return { kind: 'unknown', why: `an option of su is not known before it runs (${scanned.unknown.source})` };
  return { kind: 'unknown', why: 'su without -c runs a shell that reads its commands from its input' };
};

/**
 * The wrappers seek looks through, each with its options (GNU coreutils, util-linux, sudo, GNU
 * findutils and parallel, bash builtins). `transparent` ones only change how a command runs, so an
 * allow rule for the command covers them.
 */
const WRAPPERS: ReadonlyMap<string, { transparent: boolean; inner: WrapperRule }> = new Map<string, { transparent: boolean; inner: WrapperRule }>([
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
  [
    'env',
    {
      transparent: false,
      inner: (argv) => {
        const words = argv.filter((word, i) => i === 0 || literalOf(word) !== '-');
        const scanned = scanOptions(words, 1, { short: 'uCSP', long: ['unset', 'chdir', 'split-string'], assignments: true });
        if (scanned.unknown) return { kind: 'unknown', why: `an option of env is not known before it runs (${scanned.unknown.source})` };
        const split = scanned.seen.get('-S') ?? scanned.seen.get('--split-string');
        const rest = words.slice(scanned.index);
        if (split === undefined) return rest.length > 0 ? { kind: 'argv', argv: rest } : { kind: 'none' };
        const prefix = split === true ? [] : envSplit(split);
        if (prefix === undefined) return { kind: 'unknown', why: 'env -S is given a string that is not known before it runs' };
        const all = [...prefix, ...rest];
        return all.length > 0 ? { kind: 'argv', argv: all } : { kind: 'none' };
      },
    },
  ],
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
  ['coproc', { transparent: true, inner: (argv) => after(argv, {}) }],
  ['busybox', { transparent: false, inner: (argv) => after(argv, { noCommandLong: ['list', 'help', 'install'] }) }],
  ['toybox', { transparent: false, inner: (argv) => after(argv, {}) }],
]);

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
function findCommands(argv: ShellWord[]): ShellWord[][] {
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
function withPlaceholder(words: ShellWord[], placeholder: string): ShellWord[] {
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

/** Records `command`, then what it runs when its program is a wrapper or a shell. */
function expand(command: SimpleCommand, w: Walk): void {
  w.out.push(command);
  const program = command.argv[0];
  if (!program) return;
  const name = programName(program);
  if (name === undefined) {
    const why = `the program is not known before the command runs (${program.source})`;
    command.unresolved = why;
    w.problems.push(why);
    return;
  }
  let inner: Inner | undefined;
  const label = name;
  const wrapper = WRAPPERS.get(name);
  if (wrapper) {
    inner = wrapper.inner(command.argv);
    command.wrapper = { name, transparent: wrapper.transparent, runs: false };
  } else if (SHELLS.has(name)) {
    inner = shellInvocation(command.argv);
    command.wrapper = { name, transparent: false, runs: false };
  } else if (name === 'eval') {
    const args = command.argv.slice(1).filter((word, i) => i > 0 || literalOf(word) !== '--');
    inner = args.length > 0 ? joined(args, 'eval') : { kind: 'none' };
    command.wrapper = { name, transparent: false, runs: false };
  } else if (name === 'trap') {
    const args = command.argv.slice(1);
    const first = args[0] ? literalOf(args[0]) : undefined;
    const actionAt = first === '--' ? 1 : 0;
    if (first !== undefined && first.startsWith('-') && first !== '--' && first !== '-') inner = { kind: 'none' }; // -p, -l
    else if (args.length - actionAt >= 2) {
      const action = args[actionAt]!;
      const text = literalOf(action);
      inner = text === '' || text === '-' ? { kind: 'none' } : text === undefined ? { kind: 'unknown', why: 'trap is given shell code that is not known before it runs' } : { kind: 'shell', code: action, label: 'trap' };
    }
    command.wrapper = { name, transparent: false, runs: false };
  } else if (name === 'alias') {
    command.wrapper = { name, transparent: false, runs: false };
    for (const word of command.argv.slice(1)) {
      const text = literalOf(word);
      if (text === undefined) {
        addInner(command, { kind: 'unknown', why: 'an alias is given a value that is not known before it runs' }, 'alias', w);
        continue;
      }
      const eq = text.indexOf('=');
      if (eq > 0) addInner(command, { kind: 'shell', code: textWord(text.slice(eq + 1), word.source), label: 'alias' }, 'alias', w);
    }
    return;
  } else if (name === 'find') {
    for (const found of findCommands(command.argv)) addInner(command, { kind: 'argv', argv: found, placeholder: '{}' }, 'find -exec', w);
    return;
  }
  if (inner) addInner(command, inner, label, w);
}

function addInner(outer: SimpleCommand, inner: Inner, label: string, w: Walk): void {
  const via = [...outer.via, label];
  if (inner.kind !== 'none' && outer.wrapper) outer.wrapper.runs = true;
  switch (inner.kind) {
    case 'none':
      return;
    case 'unknown': {
      const why = inner.why;
      w.problems.push(why);
      w.out.push({ assignments: [], argv: [unknownWord('…')], writesFiles: outer.writesFiles, via, openArgs: false, unresolved: why });
      return;
    }
    case 'argv': {
      const argv = inner.placeholder ? withPlaceholder(inner.argv, inner.placeholder) : inner.argv;
      expand({ assignments: [], argv, writesFiles: outer.writesFiles, via, openArgs: outer.openArgs || inner.open === true }, { ...w, via });
      return;
    }
    case 'shell': {
      let text = literalOf(inner.code);
      if (text === undefined) {
        const why = `${inner.label ?? label} is given shell code that is not known before it runs`;
        w.problems.push(why);
        w.out.push({ assignments: [], argv: [unknownWord(inner.code.source)], writesFiles: outer.writesFiles, via, openArgs: false, unresolved: why });
        return;
      }
      if (inner.placeholders) text = text.replace(inner.placeholders, '"$SEEK_UNKNOWN_ARGUMENT"');
      const first = w.out.length;
      analyzeInto(text, { ...w, via: [...outer.via], writes: outer.writesFiles }, inner.label ?? label);
      if (inner.open || outer.openArgs) for (const added of w.out.slice(first)) added.openArgs = true;
      return;
    }
  }
}

/** Parses `code` (a shell string found inside the command) and walks it, `label` added to `via`. */
function analyzeInto(code: string, w: Walk, label: string): void {
  const via = [...w.via, label];
  if (w.depth >= MAX_DEPTH) {
    unresolvedCommand({ ...w, via }, code, `shell code nested more than ${MAX_DEPTH} deep`);
    return;
  }
  const inner: Walk = { ...w, source: code, via, depth: w.depth + 1 };
  const done = withShellTree(code, (root) => walkRoot(root, inner));
  if (done === undefined) unresolvedCommand(inner, code, shellParserProblem());
}

function walkRoot(root: SyntaxNode, w: Walk): true {
  if (root.hasError) {
    const bad = firstError(root);
    const near = bad ? w.source.slice(bad.startIndex, Math.min(bad.endIndex, bad.startIndex + 40)) || w.source.slice(Math.max(0, bad.startIndex - 20), bad.startIndex + 20) : '';
    unresolvedCommand(w, w.source, `the command does not parse${near ? ` near \`${near.trim()}\`` : ''}`);
  }
  statement(root, w);
  if (w.out.length > MAX_COMMANDS) unresolvedCommand(w, '…', `more than ${MAX_COMMANDS} simple commands`);
  return true;
}

function firstError(node: SyntaxNode): SyntaxNode | undefined {
  if (node.isError || node.isMissing) return node;
  for (const { child } of children(node)) {
    if (child.hasError || child.isMissing) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Entry points

const cache = new Map<string, CommandAnalysis>();
const CACHE_SIZE = 128;

/**
 * The simple commands `command` runs. Synchronous: the grammar must have been loaded
 * (`loadShellParser`); when it is not, the whole command is one unreadable command.
 */
export function analyzeCommand(command: string): CommandAnalysis {
  const cached = cache.get(command);
  if (cached) return cached;
  const w: Walk = { source: command, out: [], problems: [], via: [], depth: 0, writes: false };
  if (command.length > MAX_LENGTH) {
    unresolvedCommand(w, '…', `the command is longer than ${MAX_LENGTH} characters`);
    return { command, commands: w.out, problems: w.problems };
  }
  if (!shellParserLoaded() || withShellTree(command, (root) => walkRoot(root, w)) === undefined) {
    const analysis: CommandAnalysis = { command, commands: [], problems: [] };
    unresolvedCommand({ ...w, out: analysis.commands, problems: analysis.problems }, command, shellParserProblem());
    return analysis; // not cached: the grammar may load later
  }
  const analysis: CommandAnalysis = { command, commands: w.out, problems: [...new Set(w.problems)] };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(command, analysis);
  return analysis;
}

export { loadShellParser };
