/**
 * Memory's part in opening a session: settings, the decay pass and context capture (through
 * SessionMemory), the five tools, and the optional automatic dream. Kept out of prepare.ts so
 * the session's wiring reads as a list.
 */
import type { Tool } from '../agent/types.js';
import type { StreamFn } from '../providers/types.js';
import type { CostTracker } from '../cost/tracker.js';
import { memorySettings, type MemorySettings } from '../memory/settings.js';
import { SessionMemory } from '../memory/session-memory.js';
import { createMemoryTools } from '../tools/memory-tools.js';
import { maybeAutoDream } from '../memory/auto-dream.js';

export interface MemoryWiringOptions {
  seekHome: string;
  projectId: string;
  projectRoot: string;
  sessionId: string;
  resumed: boolean;
  interactive: boolean;
  save: boolean;
  stream: StreamFn;
  flashModel: string;
  config: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string | undefined>>;
  tracker: CostTracker;
  now?: () => Date;
  notify(level: 'info' | 'warn', text: string): void;
}

export interface MemoryWiring {
  /** Undefined when memory is off (`SEEK_MEMORY=0`, `memory.enabled: false`). */
  memory: SessionMemory | undefined;
  settings: MemorySettings;
  /** Fresh tool instances over the session's memory (the session's and each child's). */
  createTools: () => Tool[];
  notices: Array<{ level: 'info' | 'warn'; text: string }>;
  /** Stops background work (an automatic dream) when the session closes. */
  cancel: () => void;
}

export async function wireMemory(options: MemoryWiringOptions): Promise<MemoryWiring> {
  const { settings, notices: settingNotices } = memorySettings(options.config, options.env);
  const notices: Array<{ level: 'info' | 'warn'; text: string }> = settingNotices.map((text) => ({ level: 'warn' as const, text }));
  if (!settings.enabled) return { memory: undefined, settings, createTools: () => [], notices, cancel: () => undefined };
  const bill = (result: { usage?: Parameters<CostTracker['record']>[0]['usage']; costUsd: number; model: string }) => {
    if (result.usage) options.tracker.record({ usage: result.usage, costUsd: result.costUsd, model: result.model });
  };
  const opened = await SessionMemory.open({
    seekHome: options.seekHome,
    projectId: options.projectId,
    projectRoot: options.projectRoot,
    sessionId: options.sessionId,
    stream: options.stream,
    flashModel: options.flashModel,
    settings,
    save: options.save,
    ...(options.now ? { now: options.now } : {}),
    bill,
    notify: options.notify,
  });
  notices.push(...opened.notices);
  const memory = opened.memory;
  const controller = new AbortController();
  if (options.save && !options.resumed) {
    await maybeAutoDream({
      seekHome: options.seekHome,
      every: settings.autoDreamAfterSessions,
      run: options.interactive,
      stream: options.stream,
      model: options.flashModel,
      signal: controller.signal,
      bill,
      notify: options.notify,
      ...(options.now ? { now: options.now } : {}),
    }).catch((error: unknown) => notices.push({ level: 'warn', text: `dream: ${(error as Error).message}` }));
  }
  return {
    memory,
    settings,
    createTools: () => createMemoryTools(memory),
    notices,
    cancel: () => {
      controller.abort();
      memory.observer?.cancel();
    },
  };
}
