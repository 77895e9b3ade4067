/**
 * Text a schema has already accepted, remembered by fingerprint, so that a start with an unchanged
 * file skips validating it again. Validation builds and runs a zod schema, and loading zod is about
 * 10 ms of a headless start on a 2-core machine (bench/say-hello); fingerprinting a small file takes
 * microseconds. A user's `~/.seek/config.json` is read at every start and rarely changes.
 *
 * Contract:
 * - The memo is `<SEEK_HOME>/cache/validated.json` (startup-cache.ts), `{ "<kind>": "<fingerprint>" }`,
 *   one entry per kind of file. The fingerprint covers seek's version (a new seek, a new schema,
 *   validates again), the text's length and a 32-bit FNV-1a hash of it: it tells the user's last
 *   valid file from an edited one (it is not a defence against someone who can write SEEK_HOME,
 *   who could as well change the config itself). No cryptographic hash: node:crypto alone costs
 *   1.5 ms to load.
 * - Only valid text is remembered, and only a schema that checks without transforming (the value
 *   used is the parsed JSON itself) may use this: a remembered text is used as `JSON.parse` gives it.
 */
import { SEEK_VERSION } from '../util/version.js';
import { addToStartupCache, readStartupCache } from './startup-cache.js';

export type MemoKind = 'config';

/** seek's version, the text's length and its 32-bit FNV-1a hash (over UTF-16 code units). */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${SEEK_VERSION}:${text.length}:${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** True when `text` of this kind was validated by this version of seek before. */
export function knownValid(home: string, kind: MemoKind, text: string): boolean {
  return readStartupCache(home, 'validated.json')[kind] === fingerprint(text);
}

/** Remembers that `text` of this kind passed validation. */
export function rememberValid(home: string, kind: MemoKind, text: string): void {
  addToStartupCache(home, 'validated.json', { [kind]: fingerprint(text) });
}
