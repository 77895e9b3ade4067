import {
  abortedError,
  idleTimeoutError,
  mapSdkError,
  notAnApiEndpointError,
  streamCutError,
  type IdleTimeoutCircumstances,
  type SdkErrorClasses,
} from './errors.js';
import { AttemptSignal, MessageAssembler } from './stream-support.js';
import type { ModelRequest, ProviderError, StopReason, StreamEvent, Usage } from './types.js';
import type { WireActivity } from './watched-fetch.js';

/** How a wire's event stream ended: with its final event, or cut short. A refusal names the wire's
 * own signal (`stop_reason "refusal"`, `finish_reason "content_filter"`) in `refusedBy`. */
export type WireEnd =
  | { complete: true; stopReason: StopReason; usage?: Usage; refusedBy?: string }
  | { complete: false; detail: string };

export interface AttemptSpec<Sdk extends { errors: SdkErrorClasses }> {
  request: ModelRequest;
  signal: AbortSignal | undefined;
  idleTimeoutMs: number;
  /** "DeepSeek API", "Anthropic API": used in error messages. */
  label: string;
  baseUrl: string;
  /** The SDK client (one may serve every attempt). */
  loadSdk: () => Promise<Sdk>;
  /**
   * Sends the request and translates the wire's events into StreamEvents through `assembler`,
   * calling `attempt.touch()` for every parsed chunk and `streaming()` once the response has started.
   * The request must report its wire activity to `attempt` (watched-fetch.ts: activityOptions with
   * attemptRoutedFetch), so that the idle watchdog counts every byte received, keep-alive comments
   * and pings included. Returns how the stream ended; may throw SDK errors (mapped here).
   */
  run: (sdk: Sdk, attempt: AttemptSignal & WireActivity, assembler: MessageAssembler, streaming: () => void) => AsyncGenerator<StreamEvent, WireEnd>;
}

/**
 * One attempt at one model response, the part every provider shares: the abort and idle-timeout
 * signal, lazy SDK loading, deciding why a stream ended (user abort, idle timeout, cut, done),
 * mapping thrown SDK errors, and cancelling the request when the consumer stops early.
 * Keeps the provider contract: never throws, ends with exactly one `done` or `error`.
 */
export async function* streamAttempt<Sdk extends { errors: SdkErrorClasses }>(spec: AttemptSpec<Sdk>): AsyncGenerator<StreamEvent> {
  const attempt = new WatchedAttempt(spec.signal, spec.idleTimeoutMs);
  const assembler = new MessageAssembler(spec.request.model);
  const errorContext = { label: spec.label, baseUrl: spec.baseUrl, streaming: false };
  const interrupted = (): ProviderError | undefined =>
    attempt.userAborted ? abortedError() : attempt.idleTimedOut ? idleTimeoutError(spec.label, spec.idleTimeoutMs, attempt.seen()) : undefined;
  let finished = false;
  let errors: SdkErrorClasses | undefined;
  try {
    if (attempt.userAborted) {
      yield assembler.failure(abortedError());
      return;
    }
    const sdk = await spec.loadSdk();
    errors = sdk.errors;
    attempt.requestSent();
    // The SDKs end their iteration quietly when our signal aborts them: ask why it ended.
    const end = yield* spec.run(sdk, attempt, assembler, () => (errorContext.streaming = true));
    const stopped = interrupted();
    if (stopped) {
      yield assembler.failure(stopped);
    } else if (attempt.htmlAnswer) {
      yield assembler.failure(notAnApiEndpointError(spec.label, spec.baseUrl, attempt.htmlAnswer));
    } else if (!end.complete) {
      yield assembler.failure(streamCutError(spec.label, end.detail));
    } else {
      for (const event of assembler.endAllToolCalls()) yield event;
      if (end.usage) yield { type: 'usage', usage: end.usage };
      const refused = end.stopReason === 'refusal' ? refusalMessage(spec.label, end.refusedBy, assembler.refusal) : undefined;
      const message = assembler.message(end.stopReason, end.usage, refused);
      // The response is whole: a consumer that stops at `done` cancels nothing (an abort here
      // would only build a DOMException and run every listener of a finished request).
      finished = true;
      yield { type: 'done', message };
    }
    finished = true;
  } catch (error) {
    finished = true;
    const stopped = interrupted();
    if (stopped) yield assembler.failure(stopped);
    else if (attempt.htmlAnswer) yield assembler.failure(notAnApiEndpointError(spec.label, spec.baseUrl, attempt.htmlAnswer));
    else if (errors) yield assembler.failure(mapSdkError(error, errors, errorContext));
    else yield assembler.failure(setupError(spec.label, error));
  } finally {
    attempt.dispose(!finished);
  }
}

/**
 * The attempt's signal, its idle watchdog fed by raw wire activity (response head, every body
 * chunk) as well as by parsed chunks, and remembering which of those it saw so that an idle
 * timeout can say what really happened.
 */
/** OpenAI-style servers end a stream with `data: [DONE]` on a line of its own. */
const DONE_AT_END = /(^|\n)data: ?\[DONE\]\r?\n?\r?\n?$/;
/** Bytes of the wire kept to look for the marker at its end. */
const DONE_TAIL = 32;

class WatchedAttempt extends AttemptSignal implements WireActivity {
  /** The last bytes received (at most DONE_TAIL), kept without decoding: read once, at the end. */
  private wireTail: Uint8Array = new Uint8Array(0);
  private answered = false;
  private bytes = 0;
  private contentChunks = 0;
  /** Set when the server answered with a web page (not an overload page): the base URL is not an
   * API endpoint. */
  htmlAnswer: { status: number; url: string } | undefined;

  /** The request goes out: the watchdog starts. */
  requestSent(): void {
    super.touch();
  }

  /** A parsed chunk arrived (called by the provider's `run`). */
  override touch(): void {
    this.contentChunks++;
    super.touch();
  }

  responded(response: Response): void {
    this.answered = true;
    // A web page where the API should be. Overload pages (5xx, 429, 408 from a CDN in front of a
    // real API) are HTML too, but passing: those keep their usual, retried, mapping.
    const { status } = response;
    const transient = status >= 500 || status === 429 || status === 408;
    if (!transient && /\btext\/html\b/i.test(response.headers.get('content-type') ?? '')) this.htmlAnswer = { status, url: response.url };
    super.touch();
  }

  bytesReceived(count: number, chunk?: Uint8Array): void {
    this.bytes += count;
    if (chunk !== undefined && chunk.byteLength > 0) {
      // The marker may straddle chunks: a short chunk keeps the end of the one before.
      if (chunk.byteLength >= DONE_TAIL) {
        this.wireTail = chunk.subarray(chunk.byteLength - DONE_TAIL);
      } else {
        const kept = this.wireTail.subarray(Math.max(0, this.wireTail.byteLength + chunk.byteLength - DONE_TAIL));
        const tail = new Uint8Array(kept.byteLength + chunk.byteLength);
        tail.set(kept);
        tail.set(chunk, kept.byteLength);
        this.wireTail = tail;
      }
    }
    super.touch();
  }

  override get wireDone(): boolean {
    return DONE_AT_END.test(Buffer.from(this.wireTail.buffer, this.wireTail.byteOffset, this.wireTail.byteLength).toString('latin1'));
  }

  seen(): IdleTimeoutCircumstances {
    return { responded: this.answered, bytes: this.bytes, contentChunks: this.contentChunks };
  }
}

/** "Anthropic API: the model refused to answer (stop_reason "refusal")", with the model's own
 * words when it gave some. A whole response, not a failure: it is not retried. */
function refusalMessage(label: string, refusedBy: string | undefined, words: string): string {
  const filter = refusedBy?.includes('content_filter') === true;
  const what = filter ? `${label}: the provider's content filter stopped the response` : `${label}: the model refused to answer`;
  const head = refusedBy ? `${what} (${refusedBy})` : what;
  const said = words.trim();
  return said ? `${head}: ${said}` : head;
}

function setupError(label: string, error: unknown): ProviderError {
  return {
    kind: 'malformed',
    message: `Could not set up the ${label} client: ${error instanceof Error ? error.message : String(error)}`,
    retryable: false,
  };
}
