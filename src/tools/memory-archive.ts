import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool } from '../agent/types.js';
import { EntryInputError } from '../memory/entry.js';
import { archiveEntry } from '../memory/operations.js';
import type { SessionMemory } from '../memory/session-memory.js';
import { errorResult, memoryAction } from './memory-args.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const memoryArchiveSchema = lazySchema((z) => z.object({ name: z.string(), reason: z.string() }).strict());
type ArchiveArgs = z.infer<ReturnType<typeof memoryArchiveSchema>>;

/** memory_archive: moves an entry to `archived.jsonl` with the reason (restorable with
 * `seek memory restore`). A memory write, so the user is asked. */
export function createMemoryArchiveTool(memory: SessionMemory): Tool<ArchiveArgs> {
  return {
    name: 'memory_archive',
    summary: 'project memory',
    description: 'Archive a project-memory entry that no longer applies; it leaves the index and is kept in the archive with your reason. The user is asked to confirm.',
    parameters: TOOL_PARAMETERS.memory_archive,
    get schema() {
      return memoryArchiveSchema();
    },
    readOnly: false,
    describe: (args) => memoryAction(`archive memory "${args.name}"`, `reason: ${args.reason}`),
    async execute(args) {
      try {
        const archived = await archiveEntry(memory.store, args.name, args.reason);
        if (!archived) return errorResult('memory_archive', `entry "${args.name}" not found`);
        return { content: `archived "${archived.name}" (reason: ${archived.archived_reason})` };
      } catch (error) {
        if (error instanceof EntryInputError) return errorResult('memory_archive', error.message);
        throw error;
      }
    },
  };
}
