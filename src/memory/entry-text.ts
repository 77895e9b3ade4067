/**
 * An entry as a text file for people to edit (`seek memory edit`, distill's "e"): YAML
 * frontmatter for the short fields, the content below it.
 *
 *   ---
 *   name: use-pnpm-workspaces
 *   tagline: The repo uses pnpm workspaces; never npm or yarn
 *   tags: [tooling]
 *   pinned: false
 *   ---
 *   We moved to pnpm in March because …
 */
import { parse, stringify } from 'yaml';
import { EntryInputError, type EntryInput } from './entry.js';

export interface EditableEntry extends EntryInput {
  pinned?: boolean;
}

export function entryToText(entry: EditableEntry): string {
  const head: Record<string, unknown> = { name: entry.name, tagline: entry.tagline };
  if (entry.tags && entry.tags.length > 0) head.tags = entry.tags;
  head.pinned = entry.pinned === true;
  return `---\n${stringify(head, { flowCollectionPadding: false }).trimEnd()}\n---\n${entry.content.trim()}\n`;
}

/** Parses an edited file. Throws EntryInputError saying what is wrong (the file is left as it was). */
export function textToEntry(text: string): EditableEntry {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text.trimStart());
  if (!match) throw new EntryInputError('the file must start with a --- frontmatter block (name, tagline, tags, pinned), then the content');
  let head: unknown;
  try {
    head = parse(match[1]!);
  } catch (error) {
    throw new EntryInputError(`the frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof head !== 'object' || head === null) throw new EntryInputError('the frontmatter must hold name and tagline');
  const fields = head as Record<string, unknown>;
  const tags = fields.tags;
  if (tags !== undefined && tags !== null && !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))) {
    throw new EntryInputError('tags must be a list of words, e.g. [tooling, ci]');
  }
  return {
    name: typeof fields.name === 'string' ? fields.name : '',
    tagline: typeof fields.tagline === 'string' ? fields.tagline : '',
    content: match[2]!.trim(),
    ...(Array.isArray(tags) && tags.length > 0 ? { tags: tags as string[] } : {}),
    ...(fields.pinned === true ? { pinned: true } : {}),
  };
}
