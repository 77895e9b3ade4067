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
  /**
   * Set when old_string can be repaired but what new_string means cannot be told: if the repaired
   * old_string matches, the edit is refused with this message rather than applied by a guess.
   */
  refused?: string;
}

/** read_file's prefix: the line number right-aligned in 6 columns (wider past 999999), then a tab. */
const LINE_NUMBER_PREFIX = /^( *)(\d+)\t/;

/**
 * The line number of read_file's prefix on `line`, when the line has exactly that prefix. With
 * `bare`, a prefix without its tab counts too: a blank file line is `     5\t` and a model may drop
 * the tab as trailing whitespace (allowed in old_string only, where the file confirms the match).
 */
function readFilePrefix(line: string, bare = false): number | undefined {
  const prefix = LINE_NUMBER_PREFIX.exec(bare && /^ *\d+$/.test(line) ? `${line}\t` : line);
  if (!prefix) return undefined;
  const [, spaces, digits] = prefix as unknown as [string, string, string];
  // `2\t` (a TSV row) or `  12\t` is not what read_file writes: only the exact width is a prefix.
  return spaces.length + digits.length === Math.max(6, digits.length) ? Number(digits) : undefined;
}

/** `lines` without a final empty line (the one after a trailing newline). */
function contentLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * old_string with read_file's line-number prefixes removed, when every line of it has one in
 * read_file's exact format and the numbers run consecutively (a file whose lines really start
 * with numbers and tabs matched exactly before this is tried).
 *
 * new_string is what the model means to write, so it is changed only when that is certain: every
 * line of it carries read_file's exact prefix too. A new_string with no such prefix is kept as it
 * is (a TSV row `2\tblueberry` keeps its `2\t`). One with the prefix on some lines but not all
 * cannot be read either way, and the repair is refused (the edit then fails and says why).
 */
export function stripLineNumbers(strings: EditStrings): Repair | undefined {
  const oldLines = contentLines(strings.oldString);
  const numbers = oldLines.map((line) => readFilePrefix(line, true));
  if (!numbers.every((number, at): number is number => number !== undefined && (at === 0 || number === numbers[at - 1]! + 1))) return undefined;
  const strip = (line: string): string => line.replace(LINE_NUMBER_PREFIX, '');
  // A bare prefix stands for a blank line: the whole line is the prefix.
  const stripOld = (line: string): string => (/^ *\d+$/.test(line) ? '' : strip(line));
  const newLines = contentLines(strings.newString);
  const prefixed = newLines.filter((line) => readFilePrefix(line) !== undefined).length;
  const newHasThem = strings.newString !== '' && prefixed === newLines.length;
  const tail = (text: string): string => (text.endsWith('\n') && text !== '\n' ? '\n' : '');
  const oldString = oldLines.map(stripOld).join('\n') + tail(strings.oldString);
  if (prefixed > 0 && !newHasThem) {
    return {
      oldString,
      newString: strings.newString,
      note: '',
      refused:
        "old_string carries read_file's line-number prefixes and new_string has them on some lines but not all, so what new_string means to write is unclear. " +
        'Send both without the prefixes (only the text after the tab).',
    };
  }
  return {
    oldString,
    newString: newHasThem ? newLines.map(strip).join('\n') + tail(strings.newString) : strings.newString,
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
  const collapse = !fileText.includes('\\\\');
  const unescape = (text: string, backslashes: boolean): string => {
    // One pass, so `\\n` (an escaped backslash before n) is not read as a newline.
    return text.replace(/\\(\\|n|t|"|'|`|\$)/g, (sequence: string, char: string) => {
      if (char === '\\') return backslashes ? '\\' : sequence;
      const escape = applied.find(([candidate]) => candidate === sequence);
      return escape ? escape[1] : sequence;
    });
  };
  // new_string is read the same way only where it certainly was escaped the same way: it has no
  // raw character beside the sequence standing for it (a real newline and a `\n` in one string is
  // no over-escaping, and its `\n` may be meant), and `\\` is read as one backslash only when
  // old_string's were.
  const mixed = applied.some(([sequence, char]) => strings.newString.includes(sequence) && unescapedIn(strings.newString, char));
  const oldBackslashes = collapse && strings.oldString.includes('\\\\');
  const repaired = {
    oldString: unescape(strings.oldString, collapse),
    note: `escape sequences the file does not contain (${applied.map(([sequence]) => sequence).join(' ')}) were read as the characters they stand for; send text unescaped`,
  };
  if (mixed) {
    return {
      ...repaired,
      newString: strings.newString,
      refused:
        'old_string matches once its escape sequences are read as characters, but new_string has both the sequences and the characters themselves, so what it means to write is unclear. ' +
        'Send both strings unescaped, exactly as the text is in the file.',
    };
  }
  return { ...repaired, newString: unescape(strings.newString, oldBackslashes) };
}

/** `char` appears in `text` other than as the end of a backslash escape. */
function unescapedIn(text: string, char: string): boolean {
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) if (text[at - 1] !== '\\') return true;
  return false;
}

/**
 * old_string and new_string with every run of backslashes halved: a model whose tool call was
 * escaped once too often doubles each backslash (`"done\\\\n"` where the file has `"done\\n"`),
 * and the escape repair above cannot help when the file itself has a doubled backslash somewhere. Tried only when every
 * backslash run in old_string has even length. new_string is halved only when all of its runs are
 * even too (it was doubled the same way); otherwise what it means is unclear and the repair is
 * refused if old_string then matches.
 */
export function halveBackslashes(strings: EditStrings): Repair | undefined {
  const runs = (text: string): string[] => text.match(/\\+/g) ?? [];
  const oldRuns = runs(strings.oldString);
  const even = (run: string): boolean => run.length % 2 === 0;
  if (oldRuns.length === 0 || !oldRuns.every(even)) return undefined;
  const halve = (text: string): string => text.replace(/\\+/g, (run) => run.slice(run.length / 2));
  const oldString = halve(strings.oldString);
  if (!runs(strings.newString).every(even)) {
    return {
      oldString,
      newString: strings.newString,
      note: '',
      refused:
        'old_string matches once each of its doubled backslashes is read as one, but new_string has single backslashes too, so what it means to write is unclear. ' +
        'Send both strings with the backslashes exactly as the file has them.',
    };
  }
  return { oldString, newString: halve(strings.newString), note: 'each doubled backslash was read as one (the strings were escaped once too often); send text unescaped' };
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
