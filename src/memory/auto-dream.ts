/**
 * Automatic dreaming (off by default): with `memory.auto_dream_after_sessions` = N > 0, every Nth
 * new interactive session starts a dream in the background and writes its result to soul.md, as
 * `seek -dream --write` would. The counter lives in `~/.seek/dream-state.json`
 * `{schema_version: 1, last_dream_at?, sessions_since_dream}`; a damaged file restarts it at 0.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../config/atomic-file.js';
import { dreamStateFile } from '../config/paths.js';
import type { StreamFn } from '../providers/types.js';
import type { SideCallResult } from './side-call.js';

export interface DreamState {
  schema_version: 1;
  last_dream_at?: string;
  sessions_since_dream: number;
}

export async function readDreamState(seekHome: string): Promise<DreamState> {
  try {
    const value = JSON.parse(await readFile(dreamStateFile(seekHome), 'utf8')) as Partial<DreamState>;
    const count = typeof value.sessions_since_dream === 'number' && value.sessions_since_dream >= 0 ? Math.floor(value.sessions_since_dream) : 0;
    return { schema_version: 1, sessions_since_dream: count, ...(typeof value.last_dream_at === 'string' ? { last_dream_at: value.last_dream_at } : {}) };
  } catch {
    return { schema_version: 1, sessions_since_dream: 0 };
  }
}

export async function writeDreamState(seekHome: string, state: DreamState): Promise<void> {
  await writeFileAtomic(dreamStateFile(seekHome), `${JSON.stringify(state, null, 2)}\n`);
}

export interface AutoDreamOptions {
  seekHome: string;
  /** Sessions between dreams; 0 = off. */
  every: number;
  /** False (headless runs): the session is counted but no dream starts. */
  run: boolean;
  stream: StreamFn;
  model: string;
  signal: AbortSignal;
  now?: () => Date;
  bill(result: SideCallResult): void;
  notify(level: 'info' | 'warn', text: string): void;
}

/**
 * Counts this session and, when a dream is due, starts it without waiting for it. Returns the
 * background run wrapped (`done`; tests await it), or undefined when none started. Wrapped on
 * purpose: an async function returning a bare promise would adopt it, and the caller's `await`
 * would wait for the whole dream.
 */
export async function maybeAutoDream(options: AutoDreamOptions): Promise<{ done: Promise<void> } | undefined> {
  if (options.every <= 0) return undefined;
  const state = await readDreamState(options.seekHome);
  const count = state.sessions_since_dream + 1;
  if (count < options.every || !options.run) {
    await writeDreamState(options.seekHome, { ...state, sessions_since_dream: count });
    return undefined;
  }
  const now = options.now?.() ?? new Date();
  // Reset first: a second session starting meanwhile must not start a second dream.
  await writeDreamState(options.seekHome, { schema_version: 1, sessions_since_dream: 0, last_dream_at: now.toISOString() });
  const done = (async () => {
    try {
      // The dream machinery loads only when a dream is due (every session counts, few dream).
      const { dream, describeDream, writeDream } = await import('./dream.js');
      const preview = await dream({ seekHome: options.seekHome, stream: options.stream, model: options.model, now, signal: options.signal });
      if (preview.call) options.bill(preview.call);
      if (preview.before === preview.after) {
        options.notify('info', 'dream: your profile (soul.md) is unchanged');
        return;
      }
      await writeDream(options.seekHome, preview);
      options.notify('info', `dream: updated soul.md — ${describeDream(preview).slice(1).join('; ').trim() || 'see seek -dream'}`);
    } catch (error) {
      if (!options.signal.aborted) options.notify('warn', `dream: ${(error as Error).message}`);
    }
  })();
  return { done };
}
