/**
 * Where bash and the grammar part ways, or where bash runs text the grammar shows as data: the walk
 * (walk.ts) asks these checks and makes what they report unknown (no allow rule applies; every deny
 * and ask rule matches).
 *
 *  - Blanks: bash separates words only with spaces, tabs and newlines; the grammar also takes a
 *    carriage return, a form feed or a vertical tab (and other Unicode spaces) for a blank. So
 *    `git status \r# ; rm x` is `git status` and a comment to the grammar, while bash runs `rm x`
 *    (`\r#` is a word to bash, not a comment).
 *  - Arithmetic: bash evaluates a variable's *value* as an expression wherever it does arithmetic
 *    (`$(( ))`, `$[ ]`, `(( ))`, `for (( ))`, `[[ a -eq b ]]`, array subscripts, `${x:off:len}`),
 *    and an expression `a[$(cmd)]` runs cmd: `for x in 'a[$(rm y)]'; do echo $((x)); done` runs
 *    `rm y` though `$(rm y)` is quoted. An arithmetic context that names a variable (other than
 *    bash's own numbers: `$#`, `$?`, `$$`, `$!`, RANDOM, …) is unknown.
 *  - Prompt expansion and indirection: `${x@P}` expands the value of x as a prompt, substitutions
 *    included; `${!x}` expands the variable x names, subscript included.
 */
import type { SyntaxNode } from '../shell-parser.js';

/** Variables bash sets itself to numbers: safe in arithmetic. */
const NUMERIC_SPECIALS = new Set(['#', '?', '$', '!', 'RANDOM', 'LINENO', 'SECONDS', 'PPID', 'BASHPID', 'EUID', 'UID', 'EPOCHSECONDS', 'SRANDOM']);

/** Text the grammar leaves between two tokens; bash's blanks, newlines and line continuations only. */
const BASH_GAP = /^(?:[ \t\n]|\\\n)*$/;

/** Why bash would split `source` into other words than the grammar did, or undefined. */
export function blankMismatch(root: SyntaxNode, source: string): string | undefined {
  let previous = 0;
  let found: string | undefined;
  const visit = (node: SyntaxNode, parentType: string): void => {
    if (found !== undefined) return;
    if (node.childCount === 0) {
      const gap = source.slice(previous, node.startIndex);
      // Inside quotes every character is the word's: only gaps between tokens count.
      if (parentType !== 'string' && parentType !== 'heredoc_body' && !BASH_GAP.test(gap)) found = gap;
      previous = Math.max(previous, node.endIndex);
      return;
    }
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child) visit(child, node.type);
    }
  };
  visit(root, '');
  const tail = source.slice(previous);
  if (found === undefined && !BASH_GAP.test(tail)) found = tail;
  if (found === undefined) return undefined;
  const shown = [...found].filter((ch) => !/[ \t\n\\]/.test(ch)).map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return `the command has a character the bash grammar reads as a blank but bash reads as part of a word (${[...new Set(shown)].join(', ')})`;
}

/** Leaves whose text bash expands (unquoted or double-quoted), unlike `'…'`, comments and quoted
 * here-documents. */
const EXPANDED_LEAVES = new Set(['word', 'regex', 'extglob_pattern', 'string_content']);
const UNESCAPED_SUBSTITUTION = /(^|[^\\])(\\\\)*(\$\(|`)/;

/**
 * A safety net under the walk: a leaf the grammar left as text that holds an unescaped `$(` or
 * backtick, which bash would run (inside `${…}` the walk reads such text again, see walk.ts).
 */
export function opaqueSubstitution(root: SyntaxNode): string | undefined {
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.childCount === 0) {
      if (EXPANDED_LEAVES.has(node.type) && node.parent?.type !== 'expansion' && UNESCAPED_SUBSTITUTION.test(node.text)) {
        return `the bash grammar reads \`${node.text.slice(0, 40)}\` as text, but bash runs the substitution in it`;
      }
      continue;
    }
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
  return undefined;
}

function namedDescendants(node: SyntaxNode, into: SyntaxNode[] = []): SyntaxNode[] {
  for (const child of node.namedChildren) {
    if (!child) continue;
    into.push(child);
    namedDescendants(child, into);
  }
  return into;
}

/** Whether an arithmetic expression names a variable whose value bash would evaluate. Command
 * substitutions inside are walked by the caller; they do not count here. */
function namesVariable(node: SyntaxNode): boolean {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === 'command_substitution' || current.type === 'process_substitution') continue;
    if (current.type === 'variable_name' || current.type === 'special_variable_name' || current.type === 'word') {
      if (!NUMERIC_SPECIALS.has(current.text)) return true;
      continue;
    }
    for (const child of current.namedChildren) if (child) stack.push(child);
  }
  return false;
}

const ARITHMETIC_WHY = 'bash evaluates the value of a variable as arithmetic here, and an expression like a[$(cmd)] runs cmd';

/** Why an expansion (`$(( ))`, `${…}`) may run code held in a variable's value, or undefined. */
export function expansionHazard(node: SyntaxNode): string | undefined {
  if (node.type === 'arithmetic_expansion') return namesVariable(node) ? ARITHMETIC_WHY : undefined;
  // The grammar reads `$((x))` inside `"${y:-…}"` as a command substitution; bash, as arithmetic.
  if (node.type === 'command_substitution' && /^\$\(\(/.test(node.text) && /[A-Za-z_]/.test(node.text)) return ARITHMETIC_WHY;
  if (node.type === 'subscript') {
    const index = node.childForFieldName('index');
    return index && !/^(\d+|@|\*)$/.test(index.text) ? ARITHMETIC_WHY : undefined;
  }
  if (node.type !== 'expansion') return undefined;
  const text = node.text;
  if (/@P\}$/.test(text)) return '`${x@P}` expands a variable\'s value as a prompt, command substitutions included';
  if (/^\$\{!/.test(text) && !/[@*]\}$/.test(text)) return '`${!x}` expands the variable that x names, which may hold an array subscript that runs a command';
  // `${x:offset:length}`: both are arithmetic.
  const colon = node.children.findIndex((child) => child?.type === ':');
  if (colon >= 0 && node.children.slice(colon + 1).some((child) => child?.isNamed && child.type !== 'number')) return ARITHMETIC_WHY;
  return undefined;
}

const ARITHMETIC_TEST = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/** Why a `[[ ]]`, `(( ))` or `for (( ))` evaluates a variable's value as arithmetic, or undefined. */
export function statementHazard(node: SyntaxNode): string | undefined {
  if (node.type === 'c_style_for_statement') {
    const parts = ['initializer', 'condition', 'update'].flatMap((field) => node.childrenForFieldName(field));
    return parts.some((part) => part && namesVariable(part)) ? ARITHMETIC_WHY : undefined;
  }
  if (node.type === 'compound_statement' && node.text.startsWith('((')) return namesVariable(node) ? ARITHMETIC_WHY : undefined;
  if (node.type !== 'test_command' || !node.text.startsWith('[[')) return undefined;
  for (const child of [node, ...namedDescendants(node)]) {
    if (child.type === 'binary_expression') {
      const operator = child.childForFieldName('operator')?.text;
      if (operator && ARITHMETIC_TEST.has(operator)) {
        const operands = [child.childForFieldName('left'), child.childForFieldName('right')];
        if (operands.some((operand) => operand && !/^\d+$/.test(operand.text))) return ARITHMETIC_WHY;
      }
    }
    if (child.type === 'unary_expression' && child.child(0)?.text === '-v' && /[$[`]/.test(child.text.slice(2))) return ARITHMETIC_WHY;
  }
  return undefined;
}
