import path from 'node:path';
import { hyperlinksOn, type Line, type Segment } from '../../markdown/ansi.js';
import { fileUrl } from '../../markdown/file-links.js';
import { lineWidth, textWidth, truncateLine } from '../../markdown/width.js';

/**
 * The path in a tool row's key argument as a link to its file. A row shows the path as the tool
 * did (`read src/a.ts`, `grep foo in src`, `create notes.txt`): relative to the directory the call
 * ran in, `.` for that directory, else absolute; always at the end of the summary. The link goes
 * to the absolute path the call touched (ToolItem.paths). Only where links are on: with links off
 * the row is laid out exactly as before.
 */

export interface ShownPath {
  /** The summary's text before the path (`foo in `), possibly empty. */
  before: string;
  /** The path as the row shows it. */
  shown: string;
  /** The absolute file or directory. */
  file: string;
}

/** Whether `shown` (a tail of the summary) is how a tool showed `file`. */
function showsFile(shown: string, file: string): boolean {
  if (shown === file || shown === '.') return true;
  const tail = shown.split('/').join(path.sep);
  return file.endsWith(path.sep + tail) && !tail.startsWith('..');
}

/** The path at the end of `summary` that names one of `files`: the longest tail that starts the
 * summary or follows a space. */
export function findShownPath(summary: string, files: readonly string[] | undefined): ShownPath | undefined {
  if (files === undefined || files.length === 0 || summary === '') return undefined;
  for (let at = 0; at < summary.length; at++) {
    if (at > 0 && summary[at - 1] !== ' ') continue;
    const shown = summary.slice(at);
    if (shown === '' || shown.startsWith(' ')) continue;
    const file = files.find((candidate) => showsFile(shown, candidate));
    if (file !== undefined) return { before: summary.slice(0, at), shown, file };
  }
  return undefined;
}

/**
 * The summary's segments in `room` columns with its path linked (undefined when links are off or
 * no path is found: the caller cuts the plain summary as before). The path is kept whole: the text
 * before it is cut first (`grep a long pat… in src/a.ts`); only a path wider than the room is cut,
 * with `…`, and its link still names the whole file.
 */
export function linkedSummary(summary: string, files: readonly string[] | undefined, room: number): Line | undefined {
  if (!hyperlinksOn()) return undefined;
  const found = findShownPath(summary, files);
  if (found === undefined) return undefined;
  const link: Segment = { text: found.shown, style: { link: fileUrl(found.file) } };
  const whole: Line = found.before === '' ? [link] : [{ text: found.before }, link];
  if (lineWidth(whole) <= room) return whole;
  const left = room - textWidth(found.shown) - 1;
  const before = found.before.trimEnd();
  if (before !== '' && left >= 2) return [...truncateLine([{ text: before }], left), { text: ' ' }, link];
  return truncateLine(whole, room);
}

/** `{ fileLink }` for the headers of an edit's diff (detail views), where links are on. */
export function diffFileLink(item: { paths?: readonly string[] }): { fileLink?: string } {
  return hyperlinksOn() && item.paths?.length === 1 ? { fileLink: fileUrl(item.paths[0]!) } : {};
}
