import type { Tool } from '../agent/types.js';
import type { SessionMemory } from '../memory/session-memory.js';
import { createMemoryAmendTool } from './memory-amend.js';
import { createMemoryArchiveTool } from './memory-archive.js';
import { createMemoryObserveTool } from './memory-observe.js';
import { createMemoryRecallTool } from './memory-recall.js';
import { createMemoryRememberTool } from './memory-remember.js';

/** The five memory tools over one session's memory, in the fixed order the model sees them. */
export function createMemoryTools(memory: SessionMemory): Tool[] {
  return [
    createMemoryObserveTool(memory),
    createMemoryRememberTool(memory),
    createMemoryRecallTool(memory),
    createMemoryAmendTool(memory),
    createMemoryArchiveTool(memory),
  ] as Tool[];
}

export const MEMORY_TOOL_NAMES: readonly string[] = ['memory_observe', 'memory_remember', 'memory_recall', 'memory_amend', 'memory_archive'];
