/**
 * The walk over the bash grammar's tree (shell-parser.ts): lists, pipelines, compound commands,
 * substitutions, redirections and here-documents, down to each simple command, whose words are
 * built as words.ts says. What a simple command runs in turn (wrappers, shells) is the `expand`
 * step the walk is given (expand.ts), so the walk itself knows nothing of particular programs.
 */
import { shellParserProblem, withShellTree, type SyntaxNode } from '../shell-parser.js';
import { blankMismatch, expansionHazard, opaqueSubstitution, statementHazard } from './hazards.js';
import {
  decodeAnsiC,
  finishWord,
  literalOf,
  pushDoubleQuoted,
  pushQuoted,
  pushUnquoted,
  segsToParts,
  textWord,
  unknownWord,
  type Seg,
  type ShellWord,
  type SimpleCommand,
} from './words.js';

/** Shell strings inside shell strings (`sh -c "bash -c '…'"`) are followed this deep. */
const MAX_DEPTH = 8;
/** A command line is judged by at most this many simple commands; past it, it is unreadable. */
const MAX_COMMANDS = 2_000;

export interface Walk {
  source: string;
  out: SimpleCommand[];
  problems: string[];
  via: string[];
  depth: number;
  /** An enclosing redirection writes a file. */
  writes: boolean;
  /** Records a simple command, and what it runs when it runs other commands (expand.ts). */
  expand: (command: SimpleCommand, w: Walk) => void;
}

const STATEMENTS = new Set([
  'c_style_for_statement', 'case_statement', 'command', 'compound_statement', 'declaration_command', 'for_statement', 'function_definition',
  'if_statement', 'list', 'negated_command', 'pipeline', 'redirected_statement', 'subshell', 'test_command', 'unset_command',
  'variable_assignment', 'variable_assignments', 'while_statement', 'program', 'do_group', 'elif_clause', 'else_clause', 'case_item', 'ERROR',
]);

function children(node: SyntaxNode): { child: SyntaxNode; field: string | null }[] {
  const out: { child: SyntaxNode; field: string | null }[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (child) out.push({ child, field: node.fieldNameForChild(i) });
  }
  return out;
}

export function unresolvedCommand(w: Walk, source: string, why: string): void {
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
  const hazard = expansionHazard(node);
  if (hazard) unresolvedCommand(w, node.text, hazard);
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
  for (const { child } of children(node)) {
    if (!child.isNamed) continue;
    if (node.type === 'expansion' && child.childCount === 0 && /[$`]/.test(child.text)) opaqueWord(child.text, w);
    else substitutionsIn(child, w);
  }
}

/** The grammar leaves a pattern or value inside `${x#…}`, `${x/…/…}` or `${x:-`…`}` as plain text,
 * substitutions and all: it is read again as a word (of a `:` command, left out of the result). */
function opaqueWord(text: string, w: Walk): void {
  const first = w.out.length;
  const label = '${ }';
  analyzeInto(`: ${text}`, w, label);
  const depth = w.via.length + 1;
  w.out.splice(first, w.out.length - first, ...w.out.slice(first).filter((c) => !(c.via.length === depth && c.via.at(-1) === label && c.argv[0] && literalOf(c.argv[0]) === ':')));
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
  const hazard = statementHazard(node);
  if (hazard) unresolvedCommand(w, node.text, hazard);
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
      w.expand({ assignments: [assignmentWord(node, w)], argv: [], writesFiles: w.writes, via: [...w.via], openArgs: false }, w);
      return;
    case 'variable_assignments':
      w.expand({
        assignments: node.namedChildren.filter((c): c is SyntaxNode => c?.type === 'variable_assignment').map((c) => assignmentWord(c, w)),
        argv: [],
        writesFiles: w.writes,
        via: [...w.via],
        openArgs: false,
      }, w);
      return;
    case 'declaration_command':
    case 'unset_command': {
      const argv: ShellWord[] = [textWord(node.child(0)?.text ?? node.type)];
      for (const child of node.namedChildren) {
        if (!child) continue;
        argv.push(child.type === 'variable_assignment' ? assignmentWord(child, w) : wordOf([child], w));
      }
      w.expand({ assignments: [], argv, writesFiles: w.writes, via: [...w.via], openArgs: false }, w);
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
  w.expand({ assignments, argv, writesFiles: writes, via: [...w.via], openArgs: false }, w);
}

/** Parses `code` (a shell string found inside the command) and walks it, `label` added to `via`. */
export function analyzeInto(code: string, w: Walk, label: string): void {
  const via = [...w.via, label];
  if (w.depth >= MAX_DEPTH) {
    unresolvedCommand({ ...w, via }, code, `shell code nested more than ${MAX_DEPTH} deep`);
    return;
  }
  const inner: Walk = { ...w, source: code, via, depth: w.depth + 1 };
  const done = withShellTree(code, (root) => walkRoot(root, inner));
  if (done === undefined) unresolvedCommand(inner, code, shellParserProblem());
}

export function walkRoot(root: SyntaxNode, w: Walk): true {
  if (root.hasError) {
    const bad = firstError(root);
    const near = bad ? w.source.slice(bad.startIndex, Math.min(bad.endIndex, bad.startIndex + 40)) || w.source.slice(Math.max(0, bad.startIndex - 20), bad.startIndex + 20) : '';
    unresolvedCommand(w, w.source, `the command does not parse${near ? ` near \`${near.trim()}\`` : ''}`);
  }
  const mismatch = blankMismatch(root, w.source) ?? opaqueSubstitution(root);
  if (mismatch) unresolvedCommand(w, w.source, mismatch);
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

