/** Substring search over entries: name, tagline, tags and content, case-insensitive. */
import type { MemoryEntry } from './entry.js';

export interface SearchHit {
  entry: MemoryEntry;
  /** Where the query matched first, in rank order. */
  field: 'name' | 'tagline' | 'tags' | 'content';
}

const RANK: Record<SearchHit['field'], number> = { name: 0, tagline: 1, tags: 2, content: 3 };

/** Matches ranked name > tagline > tags > content, then by name. Stale entries are included. */
export function searchEntries(entries: readonly MemoryEntry[], query: string): SearchHit[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const hits: SearchHit[] = [];
  for (const entry of entries) {
    const field: SearchHit['field'] | undefined = entry.name.includes(needle)
      ? 'name'
      : entry.tagline.toLowerCase().includes(needle)
        ? 'tagline'
        : (entry.tags ?? []).some((tag) => tag.toLowerCase().includes(needle))
          ? 'tags'
          : entry.content.toLowerCase().includes(needle)
            ? 'content'
            : undefined;
    if (field) hits.push({ entry, field });
  }
  return hits.sort((a, b) => RANK[a.field] - RANK[b.field] || (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0));
}
