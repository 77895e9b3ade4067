import type { CompactIfNeeded, Compaction } from '../agent/types.js';
import type { HookRunner } from '../hooks/runner.js';
import type { Message, StreamFn } from '../providers/types.js';

export interface Compactor {
  /** The loop hook: compacts when the last response used more than the threshold of the window. */
  compactIfNeeded: CompactIfNeeded;
  /** `/compact`: compacts now, optionally focused by the user's instructions. */
  compactNow(history: readonly Message[], signal: AbortSignal, instructions?: string): Promise<Compaction>;
}

export interface CompactorOptions {
  stream: StreamFn;
  model: string;
  contextWindow: number;
  /** Share of the window that triggers automatic compaction (default 0.85). */
  threshold?: number;
  hooks?: HookRunner;
}

/** PLACEHOLDER until the compaction service lands: never compacts automatically. */
export function createCompactor(_options: CompactorOptions): Compactor {
  return {
    compactIfNeeded: async () => undefined,
    compactNow: async () => {
      throw new Error('compaction is not available yet');
    },
  };
}
