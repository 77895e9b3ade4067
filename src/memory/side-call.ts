/**
 * One request to the cheap ("flash") model outside the conversation: the observation check,
 * distill and dream. Same shape as compaction's summarising request: the session's stream
 * function, no tools, its own system prompt, and a usage figure the caller bills (no hidden bill).
 */
import type { AssistantMessage, ModelRequest, StreamFn, ToolSchema, Usage } from '../providers/types.js';

const NO_TOOLS: readonly ToolSchema[] = Object.freeze([]);

export interface SideCallResult {
  text: string;
  usage?: Usage;
  costUsd: number;
  model: string;
}

export class SideCallError extends Error {
  override readonly name = 'SideCallError';
}

/**
 * Sends `system` + one user message to `model` and returns the answer's text. Throws
 * SideCallError saying why (provider error, timeout, cancelled, empty answer). Reasoning is asked
 * for: these are judgement calls, and DeepSeek's flash model thinks when told to.
 */
export async function sideCall(options: {
  stream: StreamFn;
  model: string;
  system: string;
  prompt: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  what: string;
}): Promise<SideCallResult> {
  const signals = [options.signal, options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
  const request: ModelRequest = {
    model: options.model,
    system: options.system,
    messages: [{ role: 'user', content: options.prompt }],
    tools: NO_TOOLS,
    reasoning: true,
  };
  const stopped = (): SideCallError =>
    new SideCallError(options.signal?.aborted ? `${options.what} was cancelled` : `${options.what} timed out after ${Math.round((options.timeoutMs ?? 0) / 1000)} s`);
  let message: AssistantMessage | undefined;
  try {
    for await (const event of options.stream(request, signal)) {
      if (event.type === 'error') {
        if (event.error.kind === 'aborted' || signal.aborted) throw stopped();
        throw new SideCallError(`${options.what} failed: ${event.error.message}`);
      }
      if (event.type === 'done') message = event.message;
    }
  } catch (error) {
    if (error instanceof SideCallError) throw error;
    if (signal.aborted) throw stopped();
    throw new SideCallError(`${options.what} failed: ${(error as Error).message}`);
  }
  if (!message) throw new SideCallError(`${options.what} ended without an answer`);
  if (!message.content.trim()) throw new SideCallError(`${options.what}: the model returned an empty answer`);
  return { text: message.content, ...(message.usage ? { usage: message.usage } : {}), costUsd: message.costUsd ?? 0, model: message.model ?? options.model };
}
