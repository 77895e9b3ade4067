import type { Tool } from '../agent/types.js';
import { EntryInputError } from '../memory/entry.js';
import type { SessionMemory } from '../memory/session-memory.js';
import { entryArgsSchema, errorResult, memoryAction, type EntryArgs } from './memory-args.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

/**
 * memory_observe: proposes an entry; returns at once, and a background check by the flash model
 * saves it or not (seek-spec 5.3). No permission needed (the policy's default rule allows it):
 * nothing is saved unless the check accepts it, the user is told either way, and at most
 * `max_observations` run per session. It is described as a memory write all the same, so plan
 * mode (which writes nothing) and deny rules refuse it.
 */
export function createMemoryObserveTool(memory: SessionMemory): Tool<EntryArgs> {
  return {
    name: 'memory_observe',
    summary: 'project memory',
    description:
      'Propose a lasting project decision for project memory without asking the user; a background check keeps it only if new and durable (no duplicates, temporary facts or user preferences).',
    parameters: TOOL_PARAMETERS.memory_observe,
    get schema() {
      return entryArgsSchema();
    },
    readOnly: false,
    describe: (args) => memoryAction(`observe "${args.name}" — ${args.tagline}`, `${args.name} — ${args.tagline}\n\n${args.content}`),
    async execute(args) {
      if (!memory.observer) return errorResult('memory_observe', 'observations are off in this run (--no-save); use memory_remember if the user wants something kept.');
      try {
        const reply = await memory.observer.submit(args);
        return reply.queued ? { content: reply.text } : { content: reply.text, isError: true };
      } catch (error) {
        if (error instanceof EntryInputError) return errorResult('memory_observe', error.message);
        throw error;
      }
    },
  };
}
