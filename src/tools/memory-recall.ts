import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool } from '../agent/types.js';
import type { ArchivedEntry, MemoryEntry } from '../memory/entry.js';
import { recallEntry } from '../memory/operations.js';
import { searchEntries } from '../memory/search.js';
import type { SessionMemory } from '../memory/session-memory.js';
import { errorResult } from './memory-args.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const memoryRecallSchema = lazySchema((z) =>
  z
    .object({
      name: z.string().optional().describe('an entry name from the memory index: returns its full content'),
      query: z.string().optional().describe('words to search for in names, taglines, tags and content'),
    })
    .strict(),
);
type RecallArgs = z.infer<ReturnType<typeof memoryRecallSchema>>;

const MAX_QUERY_HITS = 20;

/**
 * memory_recall: by name, the entry's full JSON (its recall count goes up, which keeps it from
 * decaying); an archived entry says why it left and, when superseded, shows its successor. By
 * query, matching entries' names and taglines, stale ones included (marked). Needs no permission.
 */
export function createMemoryRecallTool(memory: SessionMemory): Tool<RecallArgs> {
  return {
    name: 'memory_recall',
    summary: 'project memory',
    description: 'Read project memory. name: the full entry (names are listed in the memory index). query: entries whose name, tagline, tags or content contain it. Give exactly one.',
    parameters: TOOL_PARAMETERS.memory_recall,
    get schema() {
      return memoryRecallSchema();
    },
    readOnly: true,
    async execute(args) {
      const name = args.name?.trim();
      const query = args.query?.trim();
      if (Boolean(name) === Boolean(query)) return errorResult('memory_recall', 'give exactly one of name or query');
      if (query) return { content: await byQuery(memory, query) };
      return { content: await byName(memory, name!) };
    },
  };
}

async function byName(memory: SessionMemory, name: string): Promise<string> {
  const outcome = await recallEntry(memory.store, name, { bump: memory.save });
  if (outcome.kind === 'active') return json(outcome.entry);
  if (outcome.kind === 'missing') {
    const similar = searchEntries((await memory.store.load()).entries, name.split(/[-_.\s]+/)[0] ?? name).slice(0, 3);
    const hint = similar.length > 0 ? `; similar names: ${similar.map((hit) => hit.entry.name).join(', ')}` : '';
    return `memory: no entry named "${outcome.name}"${hint}`;
  }
  const entry = outcome.entry;
  const when = entry.archived_at.slice(0, 10);
  if (entry.superseded_by) {
    if (outcome.successor) {
      return `memory: "${entry.name}" was superseded by "${outcome.successor.name}" (archived ${when}). The current entry:\n${json(outcome.successor)}`;
    }
    return `memory: "${entry.name}" was superseded by "${entry.superseded_by}", which is no longer active either. The archived entry:\n${json(entry)}`;
  }
  return `memory: "${entry.name}" is archived (${when}, reason: ${entry.archived_reason}); it no longer applies unless the user restores it (seek memory restore ${entry.name}). The archived entry:\n${json(entry)}`;
}

async function byQuery(memory: SessionMemory, query: string): Promise<string> {
  const hits = searchEntries((await memory.store.load()).entries, query);
  if (hits.length === 0) return `memory: no entries matching "${query}"`;
  const lines = [`memory: ${hits.length} ${hits.length === 1 ? 'entry' : 'entries'} matching "${query}":`];
  for (const { entry } of hits.slice(0, MAX_QUERY_HITS)) {
    lines.push(`  ${entry.name}: ${entry.tagline}${entry.stale ? ' [stale]' : ''}`);
    if (entry.tags && entry.tags.length > 0) lines.push(`    tags: [${entry.tags.join(', ')}]`);
  }
  if (hits.length > MAX_QUERY_HITS) lines.push(`  … and ${hits.length - MAX_QUERY_HITS} more; narrow the query`);
  return lines.join('\n');
}

function json(entry: MemoryEntry | ArchivedEntry): string {
  return JSON.stringify(entry, null, 2);
}
