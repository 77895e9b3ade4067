import { abortedError, idleTimeoutError, mapSdkError, streamCutError, type SdkErrorClasses } from './errors.js';
import { AttemptSignal, MessageAssembler } from './stream-support.js';
import type { ModelRequest, ProviderError, StopReason, StreamEvent, Usage } from './types.js';

/** How a wire's event stream ended: with its final event, or cut short. */
export type WireEnd = { complete: true; stopReason: StopReason; usage?: Usage } | { complete: false; detail: string };

export interface AttemptSpec<Sdk extends { errors: SdkErrorClasses }> {
  request: ModelRequest;
  signal: AbortSignal | undefined;
  idleTimeoutMs: number;
  /** "DeepSeek API", "Anthropic API": used in error messages. */
  label: string;
  baseUrl: string;
  loadSdk: () => Promise<Sdk>;
  /**
   * Sends the request and translates the wire's events into StreamEvents through `assembler`,
   * calling `attempt.touch()` for every chunk and `streaming()` once the response has started.
   * Returns how the stream ended; may throw SDK errors (mapped here).
   */
  run: (sdk: Sdk, attempt: AttemptSignal, assembler: MessageAssembler, streaming: () => void) => AsyncGenerator<StreamEvent, WireEnd>;
}

/**
 * One attempt at one model response, the part every provider shares: the abort and idle-timeout
 * signal, lazy SDK loading, deciding why a stream ended (user abort, idle timeout, cut, done),
 * mapping thrown SDK errors, and cancelling the request when the consumer stops early.
 * Keeps the provider contract: never throws, ends with exactly one `done` or `error`.
 */
export async function* streamAttempt<Sdk extends { errors: SdkErrorClasses }>(spec: AttemptSpec<Sdk>): AsyncGenerator<StreamEvent> {
  const attempt = new AttemptSignal(spec.signal, spec.idleTimeoutMs);
  const assembler = new MessageAssembler(spec.request.model);
  const errorContext = { label: spec.label, baseUrl: spec.baseUrl, streaming: false };
  const interrupted = (): ProviderError | undefined =>
    attempt.userAborted ? abortedError() : attempt.idleTimedOut ? idleTimeoutError(spec.label, spec.idleTimeoutMs) : undefined;
  let finished = false;
  let errors: SdkErrorClasses | undefined;
  try {
    if (attempt.userAborted) {
      yield assembler.failure(abortedError());
      return;
    }
    const sdk = await spec.loadSdk();
    errors = sdk.errors;
    attempt.touch();
    // The SDKs end their iteration quietly when our signal aborts them: ask why it ended.
    const end = yield* spec.run(sdk, attempt, assembler, () => (errorContext.streaming = true));
    const stopped = interrupted();
    if (stopped) {
      yield assembler.failure(stopped);
    } else if (!end.complete) {
      yield assembler.failure(streamCutError(spec.label, end.detail));
    } else {
      yield* assembler.endAllToolCalls();
      if (end.usage) yield { type: 'usage', usage: end.usage };
      yield { type: 'done', message: assembler.message(end.stopReason, end.usage) };
    }
    finished = true;
  } catch (error) {
    finished = true;
    const stopped = interrupted();
    if (stopped) yield assembler.failure(stopped);
    else if (errors) yield assembler.failure(mapSdkError(error, errors, errorContext));
    else yield assembler.failure(setupError(spec.label, error));
  } finally {
    attempt.dispose(!finished);
  }
}

function setupError(label: string, error: unknown): ProviderError {
  return {
    kind: 'malformed',
    message: `Could not set up the ${label} client: ${error instanceof Error ? error.message : String(error)}`,
    retryable: false,
  };
}
