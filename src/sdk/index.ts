/**
 * `seek-agent/sdk`: drive seek from a TypeScript or JavaScript program. `query` starts this
 * package's `seek` binary with `-p --input-format stream-json --output-format stream-json` and
 * holds one conversation with it (docs/headless-and-sdk.md). Nothing else of seek is imported:
 * the SDK is a client of the process.
 */
import { Query } from './query.js';
import type { QueryOptions, UserMessage } from './types.js';

export { Query } from './query.js';
export { AbortError, NoApiKeyError, ProcessExitError, ProtocolError, SeekError } from './errors.js';
export type * from './types.js';

/** Starts seek on `prompt` (one message, or a conversation: an async iterable of user messages)
 * and returns the query: iterate it for seek's messages. */
export function query({ prompt, options }: { prompt: string | AsyncIterable<UserMessage>; options?: QueryOptions }): Query {
  return new Query(prompt, options);
}
