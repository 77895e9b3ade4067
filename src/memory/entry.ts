/**
 * The project-memory entry (M layer, seek-spec 5.1): one JSON object a line in
 * `projects/<pid>/memory.jsonl`, the same shape plus archive fields in `archived.jsonl`.
 * Unknown fields are kept (loose objects), so a file written by a newer seek survives a rewrite.
 */
import { lazySchema } from '../util/zod.js';

export const ENTRY_SCHEMA_VERSION = 1;

/** Names are short, lowercase and free of spaces and colons, so `- name: tagline` index lines and
 * `seek memory show NAME` are unambiguous. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
export const MAX_NAME_CHARS = 64;
export const MAX_TAGLINE_CHARS = 200;
export const MAX_CONTENT_CHARS = 16_000;
export const MAX_TAGS = 8;
export const MAX_TAG_CHARS = 32;

const timestamp = lazySchema((z) => z.string().min(1));

export const entrySchema = lazySchema((z) =>
  z.looseObject({
    schema_version: z.number().int().optional(),
    name: z.string().min(1),
    tagline: z.string(),
    content: z.string(),
    tags: z.array(z.string()).optional(),
    created_at: timestamp(),
    updated_at: timestamp().optional(),
    last_recalled_at: timestamp().optional(),
    recall_count: z.number().int().min(0).optional(),
    pinned: z.boolean().optional(),
    stale: z.boolean().optional(),
    stale_since: timestamp().optional(),
    source_session_id: z.string().optional(),
    auto_sourced: z.boolean().optional(),
    observe_count: z.number().int().min(0).optional(),
    /** The entry this one replaces (a decision record's "supersedes"). */
    supersedes: z.string().optional(),
    /** Archive only: the entry that replaced this one. */
    superseded_by: z.string().optional(),
    archived_at: timestamp().optional(),
    archived_reason: z.string().optional(),
  }),
);

/** An entry as stored. Optional fields are omitted when unset (never null). */
export interface MemoryEntry {
  schema_version: number;
  name: string;
  tagline: string;
  content: string;
  tags?: string[];
  created_at: string;
  updated_at: string;
  /** Never absent: equals created_at until the first recall. */
  last_recalled_at: string;
  recall_count: number;
  pinned?: boolean;
  stale?: boolean;
  stale_since?: string;
  source_session_id?: string;
  /** Saved by an accepted memory_observe, never confirmed by the user. */
  auto_sourced?: boolean;
  observe_count?: number;
  supersedes?: string;
  superseded_by?: string;
  [extra: string]: unknown;
}

/** An entry in `archived.jsonl`: when and why it left the active memory. */
export interface ArchivedEntry extends MemoryEntry {
  archived_at: string;
  archived_reason: string;
}

/** Validates a parsed line and fills the fields older files may lack; undefined when it is not
 * an entry (no name, wrong types). */
export function normaliseEntry(value: unknown): MemoryEntry | undefined {
  const parsed = entrySchema().safeParse(value);
  if (!parsed.success) return undefined;
  const data = parsed.data;
  const created = data.created_at;
  const entry: MemoryEntry = {
    ...data,
    schema_version: data.schema_version ?? ENTRY_SCHEMA_VERSION,
    name: data.name,
    tagline: data.tagline,
    content: data.content,
    created_at: created,
    updated_at: data.updated_at ?? created,
    last_recalled_at: data.last_recalled_at ?? created,
    recall_count: data.recall_count ?? 0,
  };
  return entry;
}

export function normaliseArchived(value: unknown): ArchivedEntry | undefined {
  const entry = normaliseEntry(value);
  if (!entry) return undefined;
  return {
    ...entry,
    archived_at: typeof entry.archived_at === 'string' ? entry.archived_at : entry.updated_at,
    archived_reason: typeof entry.archived_reason === 'string' ? entry.archived_reason : '(no reason recorded)',
  };
}

/** One line of JSONL. JSON.stringify does no HTML escaping, so `<`, `>` and `&` stay readable. */
export function serializeEntry(entry: MemoryEntry): string {
  return JSON.stringify(entry);
}

/** What a caller supplies to create or replace an entry. */
export interface EntryInput {
  name: string;
  tagline: string;
  content: string;
  tags?: string[];
  supersedes?: string;
}

/** A problem with an input, phrased for whoever sent it (the model or the user). */
export class EntryInputError extends Error {
  override readonly name = 'EntryInputError';
}

/** Canonical form of a name a person typed (`Use-PNPM ` → `use-pnpm`); validity is checked separately. */
export function canonicalName(name: string): string {
  return name.trim().toLowerCase();
}

export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'name is empty';
  if (name.length > MAX_NAME_CHARS) return `name is longer than ${MAX_NAME_CHARS} characters`;
  if (!NAME_PATTERN.test(name)) {
    return `name "${name}" must be kebab-case: lowercase letters, digits, "-", "_" or ".", starting with a letter or digit (e.g. "use-pnpm-workspaces")`;
  }
  return undefined;
}

/** Checks and tidies an input: a canonical name, one-line tagline, trimmed content, lowercase
 * unique tags. Throws EntryInputError saying what to fix. */
export function cleanInput(input: EntryInput): EntryInput {
  const name = canonicalName(input.name);
  const problem = nameProblem(name);
  if (problem) throw new EntryInputError(problem);
  const tagline = input.tagline.replace(/\s+/g, ' ').trim();
  if (!tagline) throw new EntryInputError('tagline is empty: give one specific sentence saying what the entry is about');
  if (tagline.length > MAX_TAGLINE_CHARS) throw new EntryInputError(`tagline is longer than ${MAX_TAGLINE_CHARS} characters: keep it to one sentence`);
  const content = input.content.trim();
  if (!content) throw new EntryInputError('content is empty');
  if (content.length > MAX_CONTENT_CHARS) throw new EntryInputError(`content is longer than ${MAX_CONTENT_CHARS} characters: keep the decision and its reasons, not whole files`);
  const tags = [...new Set((input.tags ?? []).map((tag) => tag.trim().toLowerCase().replace(/\s+/g, '-')).filter(Boolean))];
  if (tags.length > MAX_TAGS) throw new EntryInputError(`at most ${MAX_TAGS} tags`);
  const longTag = tags.find((tag) => tag.length > MAX_TAG_CHARS);
  if (longTag) throw new EntryInputError(`tag "${longTag}" is longer than ${MAX_TAG_CHARS} characters`);
  const cleaned: EntryInput = { name, tagline, content, ...(tags.length > 0 ? { tags } : {}) };
  if (input.supersedes !== undefined && input.supersedes.trim() !== '') {
    const supersedes = canonicalName(input.supersedes);
    if (supersedes === name) throw new EntryInputError('an entry cannot supersede itself; to change it, remember it again under the same name');
    cleaned.supersedes = supersedes;
  }
  return cleaned;
}

/** The moment an entry was last touched: created, updated or recalled (seek-spec 5.6). */
export function lastActive(entry: MemoryEntry): number {
  const known = [time(entry.created_at), time(entry.updated_at), time(entry.last_recalled_at)].filter(Number.isFinite);
  return known.length > 0 ? Math.max(...known) : Number.NaN;
}

/** Milliseconds since the epoch; NaN for an unparsable timestamp. */
export function time(value: string | undefined): number {
  return value === undefined ? Number.NaN : Date.parse(value);
}
