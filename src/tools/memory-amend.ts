import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool } from '../agent/types.js';
import { EntryInputError } from '../memory/entry.js';
import { amendEntry } from '../memory/operations.js';
import type { SessionMemory } from '../memory/session-memory.js';
import { errorResult, memoryAction } from './memory-args.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export const memoryAmendSchema = lazySchema((z) => z.object({ name: z.string(), append_content: z.string() }).strict());
type AmendArgs = z.infer<ReturnType<typeof memoryAmendSchema>>;

/** memory_amend: appends a timestamped section to an entry; the original text is kept. A memory
 * write, so the user is asked (as for memory_remember). */
export function createMemoryAmendTool(memory: SessionMemory): Tool<AmendArgs> {
  return {
    name: 'memory_amend',
    summary: 'project memory',
    description: "Append to an existing project-memory entry (a dated section after the original text, which is kept). The user is asked to confirm.",
    parameters: TOOL_PARAMETERS.memory_amend,
    get schema() {
      return memoryAmendSchema();
    },
    readOnly: false,
    describe: (args) => memoryAction(`amend memory "${args.name}"`, args.append_content),
    async execute(args) {
      try {
        const entry = await amendEntry(memory.store, args.name, args.append_content);
        if (!entry) return errorResult('memory_amend', `entry "${args.name}" not found`);
        return { content: `appended to "${entry.name}"` };
      } catch (error) {
        if (error instanceof EntryInputError) return errorResult('memory_amend', error.message);
        throw error;
      }
    },
  };
}
