/**
 * Repairs of what a model sends, tried only when old_string matches nowhere as sent: read_file's
 * line-number prefixes pasted with the text, and escape sequences (`\n`, `\"`) written where the
 * file has the characters themselves. And the checks that refuse an edit outright.
 */

export interface EditStrings {
  oldString: string;
  newString: string;
}

export interface Repair extends EditStrings {
  /** What was changed, for the result. */
  note: string;
}

/** read_file's prefix: the line number right-aligned in 6 columns, then a tab. */
const LINE_NUMBER_PREFIX = /^ *(\d+)\t/;

/**
 * old_string with read_file's line-number prefixes removed, when every non-blank line has one and
 * the numbers run consecutively (a file whose lines really start with numbers and tabs matched
 * exactly before this is tried). new_string loses its prefixes only when all its lines have them.
 */
export function stripLineNumbers(strings: EditStrings): Repair | undefined {
  const oldLines = strings.oldString.split('\n');
  const numbered = oldLines.filter((line) => line.trim() !== '');
  if (numbered.length === 0 || !numbered.every((line) => LINE_NUMBER_PREFIX.test(line))) return undefined;
  const numbers = numbered.map((line) => Number(LINE_NUMBER_PREFIX.exec(line)![1]));
  if (!numbers.every((number, at) => at === 0 || number === numbers[at - 1]! + 1)) return undefined;
  const strip = (line: string): string => line.replace(LINE_NUMBER_PREFIX, '');
  const newLines = strings.newString.split('\n');
  const newNumbered = newLines.filter((line) => line.trim() !== '');
  const newHasThem = newNumbered.length > 0 && newNumbered.every((line) => LINE_NUMBER_PREFIX.test(line));
  return {
    oldString: oldLines.map(strip).join('\n'),
    newString: newHasThem ? newLines.map(strip).join('\n') : strings.newString,
    note: `read_file's line-number prefixes were removed from old_string${newHasThem ? ' and new_string' : ''}; send only the text after the tab`,
  };
}

/**
 * old_string without the blank lines it starts or ends with (a model's spacing, which the file may
 * not have there); new_string loses the same blank lines when it has them too.
 */
export function trimBlankLines(strings: EditStrings): Repair | undefined {
  const leading = /^(?:[ \t]*\n)+/.exec(strings.oldString)?.[0] ?? '';
  const trailing = /(?:\n[ \t]*)+\n?$/.exec(strings.oldString.slice(leading.length))?.[0] ?? '';
  const tail = trailing.endsWith('\n') ? '\n' : '';
  if (leading === '' && trailing.replace(/[ \t]/g, '').length <= 1) return undefined;
  const oldString = strings.oldString.slice(leading.length, strings.oldString.length - trailing.length) + tail;
  if (oldString.trim() === '') return undefined;
  let newString = strings.newString;
  if (leading !== '' && newString.startsWith(leading)) newString = newString.slice(leading.length);
  if (trailing.length > tail.length && newString.endsWith(trailing)) newString = newString.slice(0, newString.length - trailing.length) + tail;
  return { oldString, newString, note: 'blank lines at the start or end of old_string were ignored' };
}

const ESCAPES: ReadonlyArray<readonly [string, string, string]> = [
  ['\\n', '\n', 'newline'],
  ['\\t', '\t', 'tab'],
  ['\\"', '"', 'double quote'],
  ["\\'", "'", 'single quote'],
  ['\\`', '`', 'backtick'],
  ['\\$', '$', 'dollar'],
];

/**
 * old_string and new_string with the escape sequences the file does not contain turned into the
 * characters they stand for (a model that escaped its JSON twice). Sequences the file does
 * contain, such as `\n` inside a string literal, are left alone.
 */
export function unescapeStrings(strings: EditStrings, fileText: string): Repair | undefined {
  const applied = ESCAPES.filter(([sequence]) => strings.oldString.includes(sequence) && !fileText.includes(sequence));
  if (applied.length === 0) return undefined;
  const unescape = (text: string): string => {
    // One pass, so `\\n` (an escaped backslash before n) is not read as a newline.
    return text.replace(/\\(\\|n|t|"|'|`|\$)/g, (sequence: string, char: string) => {
      if (char === '\\') return fileText.includes('\\\\') ? sequence : '\\';
      const escape = applied.find(([candidate]) => candidate === sequence);
      return escape ? escape[1] : sequence;
    });
  };
  return {
    oldString: unescape(strings.oldString),
    newString: unescape(strings.newString),
    note: `escape sequences the file does not contain (${applied.map(([sequence]) => sequence).join(' ')}) were read as the characters they stand for; send text unescaped`,
  };
}

/** read_file's mark at the end of a line it cut: `… [+N chars]` (\u2026 is the ellipsis: regexes keep
 * to ASCII so dist/cli/main.cjs does, see scripts/build.mjs). */
export const CUT_MARKER = /\u2026 \[\+\d+ chars\]/;

/** What may open a placeholder line: a comment marker or a parenthesis. */
const PLACEHOLDER_OPENER = /^\s*(\/\/+|#+|--|;+|\/\*+|\*|<!--|\{\/\*|\()\s*/;
const PLACEHOLDER_CLOSER = /\s*(\*+\/\}?|-->|\))\s*$/;
const PLACEHOLDER_WORDS =
  /^(the |all )?(rest|remainder|remaining|existing|unchanged|other|same|previous|original|omitted|more|keep|code|methods|implementation)\b/;

/**
 * A line that stands for code left out: `// ...`, `# rest of code`, `/* unchanged *\/`,
 * `<!-- ... -->`, `// ... existing methods ...`, `(rest of methods ...)`. Written literally, it
 * would replace that code. A bare `...` is not one: it is code in Python and JavaScript.
 */
function isPlaceholder(line: string): boolean {
  const opener = PLACEHOLDER_OPENER.exec(line);
  if (!opener) return false;
  const body = line.slice(opener[0].length).replace(PLACEHOLDER_CLOSER, '').trim().toLowerCase();
  if (body.length > 60) return false;
  if (/^(\.{3,}|\u2026)$/.test(body)) return true;
  const words = body.replace(/^(\.{3,}|\u2026)\s*/, '').replace(/\s*(\.{3,}|\u2026)$/, '');
  const dotted = words !== body;
  return PLACEHOLDER_WORDS.test(words) && (dotted || /\b(code|unchanged|here|as before|omitted|methods?|functions?|lines?|file|implementation)\b/.test(words));
}

/**
 * A placeholder line new_string adds that old_string does not have: the model meant "keep what is
 * there", the file would get the line literally (and lose the code it stands for, when old_string
 * had more). Returns the placeholder and whether code would be lost.
 */
export function elisionPlaceholder(oldString: string, newString: string): { line: string; deletes: boolean } | undefined {
  const oldLines = new Set(oldString.split('\n').map((line) => line.trim()));
  const newLines = newString.split('\n');
  const newSet = new Set(newLines.map((line) => line.trim()));
  const placeholder = newLines.find((line) => isPlaceholder(line) && !oldLines.has(line.trim()));
  if (placeholder === undefined) return undefined;
  const deletes = [...oldLines].some((line) => line !== '' && !newSet.has(line));
  return { line: placeholder.trim(), deletes };
}
