/**
 * The project-memory index the model sees at the start of a session (seek-spec 5.2): one line
 * `- name: tagline` per active entry, grouped by first tag, never the content. The same entries
 * always give the same bytes (nothing here depends on the clock), so the message that carries it
 * is a stable part of the cached prompt prefix.
 */
import type { MemoryEntry } from './entry.js';
import { estimateTokens } from './tokens.js';

export const INDEX_TOKEN_CAP = 1500;
export const INDEX_HEADER = 'Project memory index — call memory_recall(name) to fetch full content for any entry below.';
const UNTAGGED_GROUP = 'general';

export interface RenderedIndex {
  /** Empty when there is nothing to list. */
  body: string;
  listed: number;
  /** Active non-stale entries left out to fit the cap. */
  omitted: number;
  tokens: number;
}

const groupOf = (entry: MemoryEntry): string => entry.tags?.[0] ?? UNTAGGED_GROUP;
const lineOf = (entry: MemoryEntry): string => `- ${entry.name}: ${entry.tagline}`;

/** Which entries are listed first when not all fit: pinned, then most recalled, then by name. */
function priority(a: MemoryEntry, b: MemoryEntry): number {
  const pinned = Number(Boolean(b.pinned)) - Number(Boolean(a.pinned));
  if (pinned !== 0) return pinned;
  if (a.recall_count !== b.recall_count) return b.recall_count - a.recall_count;
  return compare(a.name, b.name);
}

/** Code-point order: the same on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Renders the index of the non-stale entries. Over `cap` tokens, entries are taken in priority
 * order while they fit and a last line says how many were left out. Stale entries are never
 * listed; a closing line says how many exist, since memory_recall still finds them.
 */
export function renderIndex(entries: readonly MemoryEntry[], cap = INDEX_TOKEN_CAP): RenderedIndex {
  const live = entries.filter((entry) => !entry.stale);
  const staleCount = entries.length - live.length;
  if (live.length === 0 && staleCount === 0) return { body: '', listed: 0, omitted: 0, tokens: 0 };
  const staleNote = staleCount > 0 ? `\n\n(${staleCount} stale ${staleCount === 1 ? 'entry is' : 'entries are'} not listed; memory_recall with a query finds them too.)` : '';

  let chosen = live;
  let omitted = 0;
  const full = render(live) + staleNote;
  if (estimateTokens(full) > cap) {
    // Reserve room for the header, the notes and the group headings that may appear.
    let budget = cap - estimateTokens(`${INDEX_HEADER}\n\n`) - estimateTokens(staleNote) - estimateTokens(omittedNote(live.length));
    const picked: MemoryEntry[] = [];
    const groups = new Set<string>();
    for (const entry of [...live].sort(priority)) {
      const group = groupOf(entry);
      const cost = estimateTokens(`${lineOf(entry)}\n`) + (groups.has(group) ? 0 : estimateTokens(`\n### ${group}\n`));
      if (cost > budget) continue;
      budget -= cost;
      groups.add(group);
      picked.push(entry);
    }
    chosen = picked;
    omitted = live.length - picked.length;
  }
  const body = render(chosen) + (omitted > 0 ? omittedNote(omitted) : '') + staleNote;
  return { body, listed: chosen.length, omitted, tokens: estimateTokens(body) };
}

function omittedNote(count: number): string {
  return `\n... and ${count} more (truncated to fit token budget)`;
}

/** Header, then `### group` sections (alphabetical, untagged last as "general"), lines by name. */
function render(entries: readonly MemoryEntry[]): string {
  const groups = new Map<string, MemoryEntry[]>();
  for (const entry of entries) {
    const group = groupOf(entry);
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  // Untagged entries (and any tagged "general") come last, under "general".
  const names = [...groups.keys()].filter((name) => name !== UNTAGGED_GROUP).sort(compare);
  if (groups.has(UNTAGGED_GROUP)) names.push(UNTAGGED_GROUP);
  const sections = names.map((group) => {
    const lines = groups.get(group)!.sort((a, b) => compare(a.name, b.name)).map(lineOf);
    return [`### ${group}`, ...lines].join('\n');
  });
  return [INDEX_HEADER, '', sections.join('\n\n')].join('\n').trimEnd();
}
