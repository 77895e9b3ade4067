/**
 * Indentation shifted as a block. When old_string's lines match the file's with different leading
 * whitespace, the difference must be one consistent shift (or a consistent change of unit, as from
 * 2 spaces to tabs); new_string's lines are then moved by the same shift and written in the file's
 * style. Anything less regular is refused, because re-indenting by a guess can change what code
 * means (Python, YAML, Makefiles).
 */

/** Columns a tab counts for when comparing indentation. */
export const TAB_COLUMNS = 4;

export interface IndentPair {
  /** old_string's indentation of a line. */
  old: string;
  /** The matched file line's indentation. */
  file: string;
}

export interface BlockShift {
  /** The shift in words, for the result ("4 spaces deeper", "tabs instead of 2 spaces"). */
  description: string;
  /** True when the file's indentation equals old_string's on every line. */
  identity: boolean;
  /** new_string's indentation for a line, moved by the shift. */
  apply(indent: string): string;
}

/** An indentation's width in columns (a tab counts TAB_COLUMNS). */
export function columns(indent: string): number {
  let total = 0;
  for (const char of indent) total += char === '\t' ? TAB_COLUMNS : 1;
  return total;
}

export function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The shift that turns each pair's old indentation into its file indentation, or undefined when
 * no single shift does. `fileUnit` gives the file's indentation step (for a change of style when
 * the pairs alone cannot tell; asked only then, as reading it costs a slice per nearby line); `newIndents` are new_string's indents, for the model's own step.
 */
export function findBlockShift(pairs: IndentPair[], fileUnit: () => number, newIndents: string[]): BlockShift | undefined {
  if (pairs.length === 0 || pairs.every((pair) => pair.old === pair.file)) {
    return { description: 'none', identity: true, apply: (indent) => indent };
  }
  const base = pairs[0]!;
  const baseOld = columns(base.old);
  const baseFile = columns(base.file);
  const fileTabs = pairs.some((pair) => pair.file.includes('\t'));
  const oldTabs = pairs.some((pair) => pair.old.includes('\t'));

  // Ratio of file columns to old columns per step of indentation, from lines at other depths.
  let ratio: number | undefined;
  for (const pair of pairs) {
    const deltaOld = columns(pair.old) - baseOld;
    const deltaFile = columns(pair.file) - baseFile;
    if (deltaOld === 0) {
      if (deltaFile !== 0) return undefined;
      continue;
    }
    const candidate = deltaFile / deltaOld;
    if (candidate <= 0) return undefined;
    if (ratio === undefined) ratio = candidate;
    else if (Math.abs(ratio - candidate) > 1e-9) return undefined;
  }
  if (ratio === undefined) ratio = guessRatio(fileTabs, oldTabs, fileUnit, newIndents, baseOld);
  const step = ratio;

  const render = (width: number): string => {
    const clamped = Math.max(0, Math.round(width));
    return fileTabs ? '\t'.repeat(Math.floor(clamped / TAB_COLUMNS)) + ' '.repeat(clamped % TAB_COLUMNS) : ' '.repeat(clamped);
  };
  // Indents seen in the pairs map exactly, keeping the file's own bytes.
  const known = new Map(pairs.map((pair) => [pair.old, pair.file]));
  return {
    description: describeShift(base, fileTabs, oldTabs, step),
    identity: false,
    apply: (indent) => known.get(indent) ?? render(baseFile + (columns(indent) - baseOld) * step),
  };
}

/** With every matched line at one depth, the step comes from the styles and the units in use. */
function guessRatio(fileTabs: boolean, oldTabs: boolean, fileUnit: () => number, newIndents: string[], baseOld: number): number {
  if (fileTabs === oldTabs) return 1;
  const deltas = newIndents.map((indent) => Math.abs(columns(indent) - baseOld)).filter((delta) => delta > 0);
  const oldUnit = oldTabs ? TAB_COLUMNS : deltas.reduce((unit, delta) => gcd(unit, delta), 0) || TAB_COLUMNS;
  const fileStep = fileTabs ? TAB_COLUMNS : fileUnit();
  return fileStep / oldUnit;
}

function describeShift(base: IndentPair, fileTabs: boolean, oldTabs: boolean, ratio: number): string {
  if (fileTabs !== oldTabs) return fileTabs ? 'the file indents with tabs, not spaces' : 'the file indents with spaces, not tabs';
  if (ratio !== 1) return 'the file uses a different indentation step';
  const difference = columns(base.file) - columns(base.old);
  const unit = fileTabs ? 'tab' : 'space';
  const amount = fileTabs ? Math.abs(difference) / TAB_COLUMNS : Math.abs(difference);
  const plural = amount === 1 ? '' : 's';
  return difference > 0 ? `the file's block is ${amount} ${unit}${plural} deeper` : `the file's block is ${amount} ${unit}${plural} shallower`;
}

/** The indentation step of a file's lines around a region: the gcd of their space indents (4 by default). */
export function spaceUnitOf(lines: string[]): number {
  let unit = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    let spaces = 0;
    while (spaces < line.length && line[spaces] === ' ') spaces += 1;
    if (spaces > 0) unit = gcd(unit, spaces);
  }
  return unit >= 2 ? unit : TAB_COLUMNS;
}
