/**
 * A `fetch` that reports raw wire activity. Reading SSE drops what carries no event
 * (`: keep-alive` comments, Anthropic `ping` events), so a watchdog fed only by parsed chunks
 * would call a request that the server keeps alive "idle". Handing the SDK client this fetch lets
 * the watchdog see every byte that arrives instead.
 */

import { TransportResponse } from './web-shims.js';

/** Told about each response that starts and each body chunk that arrives, for one attempt. */
export interface WireActivity {
  /** The response head arrived (its body is still to come). */
  responded(response: Response): void;
  /** `chunk` is the raw bytes (read only; they go on to the SDK unchanged). */
  bytesReceived(count: number, chunk?: Uint8Array): void;
}

/** `base` wrapped so that `activity` hears of the response head and every body chunk. The
 * response keeps its status, headers and URL; only its body is passed through a counter. */
export function watchedFetch(base: typeof fetch, activity: WireActivity): typeof fetch {
  // seek's own transport reports from the socket itself (http-transport.ts HttpFetch).
  const observable = (base as Partial<{ observed(activity: WireActivity): typeof fetch }>).observed;
  if (typeof observable === 'function') return observable.call(base, activity);
  return async (input, init) => {
    const response = await base(input, init);
    activity.responded(response);
    if (!response.body) return response;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        activity.bytesReceived(chunk.byteLength, chunk);
        controller.enqueue(chunk);
      },
    });
    // A TransportResponse, not the platform's Response, which would load undici (web-shims.ts).
    const watched = new TransportResponse(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      url: response.url,
    });
    return watched as unknown as Response;
  };
}

/** Where a request carries the attempt it belongs to: a symbol key of its RequestInit. Both SDKs
 * pass a request's `fetchOptions` on to their fetch (copied by spreads, which keep symbol keys). */
const ACTIVITY = Symbol('seek.wire-activity');

/** The `fetchOptions` that tie one SDK request to its attempt (see attemptRoutedFetch). */
export function activityOptions(activity: WireActivity): Record<never, never> {
  return { [ACTIVITY]: activity };
}

/**
 * One fetch for an SDK client that serves every attempt: each request is watched for the attempt
 * it carries (activityOptions), so a provider keeps one client instead of building one (with all
 * of its API resources) per model request. A request that carries none fails: an idle watchdog that
 * silently heard nothing would be worse.
 */
export function attemptRoutedFetch(base: typeof fetch): typeof fetch {
  return (input, init) => {
    const activity = (init as Record<symbol, WireActivity | undefined> | undefined)?.[ACTIVITY];
    if (activity === undefined) return Promise.reject(new Error('internal: a model request that carries no attempt (src/providers/watched-fetch.ts)'));
    return watchedFetch(base, activity)(input, init);
  };
}
