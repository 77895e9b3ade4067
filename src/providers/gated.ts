/**
 * A StreamFn whose every call first passes a RequestGate (see types.ts): the gate decides when
 * the request goes out and hears how it ended. Sits inside the retry wrapper, so each attempt
 * (a retry after a 429 too) is paced and reported on its own.
 */
import type { AssistantMessage, ModelRequest, ProviderError, RequestGate, StreamEvent, StreamFn } from './types.js';

export function withRequestGate(inner: StreamFn, gate: RequestGate): StreamFn {
  return async function* gated(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    let release: (failure?: ProviderError) => void;
    try {
      release = await gate.acquire(signal);
    } catch {
      yield aborted(request);
      return;
    }
    let failure: ProviderError | undefined;
    try {
      for await (const event of inner(request, signal)) {
        if (event.type === 'error') failure = event.error;
        yield event;
      }
    } finally {
      release(failure);
    }
  };
}

function aborted(request: ModelRequest): StreamEvent {
  const error: ProviderError = { kind: 'aborted', message: 'Request cancelled', retryable: false, summary: 'Request cancelled' };
  const message: AssistantMessage = { role: 'assistant', content: '', toolCalls: [], stopReason: 'aborted', model: request.model, errorMessage: error.message };
  return { type: 'error', error, message };
}
