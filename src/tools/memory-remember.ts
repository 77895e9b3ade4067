import type { Tool } from '../agent/types.js';
import { cleanInput, EntryInputError } from '../memory/entry.js';
import { rememberEntry } from '../memory/operations.js';
import type { SessionMemory } from '../memory/session-memory.js';
import { entryArgsSchema, errorResult, memoryAction, type EntryArgs } from './memory-args.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

/** memory_remember: saves an entry the user confirms (action kind `memory`: asked in ask mode,
 * allowed under --yolo, denied in plan mode and in headless runs without --yolo). */
export function createMemoryRememberTool(memory: SessionMemory): Tool<EntryArgs> {
  return {
    name: 'memory_remember',
    summary: 'project memory',
    description:
      'Save a project decision to memory (the user confirms) when asked to remember something; replaces an entry of the same name.',
    parameters: TOOL_PARAMETERS.memory_remember,
    get schema() {
      return entryArgsSchema();
    },
    readOnly: false,
    describe(args) {
      cleanInput(args); // a bad entry fails here, before the user is asked about it
      const tags = args.tags && args.tags.length > 0 ? `\ntags: ${args.tags.join(', ')}` : '';
      const supersedes = args.supersedes ? `\nsupersedes: ${args.supersedes} (archived when this is saved)` : '';
      return memoryAction(`remember "${args.name}" — ${args.tagline}`, `${args.name} — ${args.tagline}${tags}${supersedes}\n\n${args.content}`);
    },
    async execute(args) {
      try {
        const outcome = await rememberEntry(memory.store, args, { sessionId: memory.sessionId });
        const superseded = outcome.superseded ? `; "${outcome.superseded}" is archived as superseded by it` : '';
        return { content: `remembered "${outcome.entry.name}" in project memory${outcome.replaced ? ' (replacing the entry of that name)' : ''}${superseded}` };
      } catch (error) {
        if (error instanceof EntryInputError) return errorResult('memory_remember', error.message);
        throw error;
      }
    },
  };
}
