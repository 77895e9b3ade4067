/**
 * `/distill` for a session: up to three project decisions proposed from its history by the flash
 * model (billed to the session like any turn), and saving the ones the user approves. The distill
 * code loads with the first /distill, not at start.
 */
import type { EntryInput } from '../memory/entry.js';
import type { DistillResult } from '../memory/distill.js';
import type { PreparedSession } from './session-types.js';

export async function distillSession(prepared: PreparedSession, signal: AbortSignal): Promise<DistillResult> {
  const { distill, DistillError } = await import('../memory/distill.js');
  const memory = prepared.memory.memory;
  if (!memory) throw new DistillError('memory is off in this session (SEEK_MEMORY=0 or memory.enabled false)');
  const result = await distill({
    stream: prepared.stream,
    model: prepared.flashModel,
    messages: prepared.history,
    existing: (await memory.store.load()).entries,
    signal,
  });
  if (result.call.usage) prepared.tracker.record({ usage: result.call.usage, costUsd: result.call.costUsd, model: result.call.model });
  return result;
}

export async function rememberDistilled(prepared: PreparedSession, candidate: EntryInput): Promise<void> {
  const memory = prepared.memory.memory;
  if (!memory) throw new (await import('../memory/distill.js')).DistillError('memory is off in this session');
  // The memory store's write path loads only when a decision is distilled, not at every start.
  const { rememberEntry } = await import('../memory/operations.js');
  await rememberEntry(memory.store, candidate, { sessionId: prepared.id });
}
