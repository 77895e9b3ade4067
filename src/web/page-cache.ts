import type { PageText } from './page-text.js';

/** A fetched page as the model reads it, kept a while so that paging through it (offset) does not
 * download and convert it again. */
export interface CachedPage extends PageText {
  /** Where the text came from, after same-host redirects. */
  url: string;
  status: number;
  bytes: Buffer;
  /** The download stopped at the size cap. */
  cut: boolean;
  at: number;
}

const TTL_MS = 15 * 60_000;
const MAX_BYTES = 64 * 1024 * 1024;

/** Pages by requested URL, newest last; at most 64 MiB of text, each for 15 minutes. */
export class PageCache {
  readonly #pages = new Map<string, CachedPage>();

  get(url: string, now = Date.now()): CachedPage | undefined {
    const page = this.#pages.get(url);
    if (!page) return undefined;
    if (now - page.at > TTL_MS) {
      this.#pages.delete(url);
      return undefined;
    }
    return page;
  }

  set(url: string, page: CachedPage): void {
    this.#pages.delete(url);
    this.#pages.set(url, page);
    let total = [...this.#pages.values()].reduce((sum, p) => sum + p.bytes.length, 0);
    for (const [key, old] of this.#pages) {
      if (total <= MAX_BYTES || this.#pages.size === 1) break;
      this.#pages.delete(key);
      total -= old.bytes.length;
    }
  }
}

/** `bytes[offset, offset + max)` as text, both ends moved back to a character boundary. */
export function pageSlice(bytes: Buffer, offset: number, max: number): { text: string; start: number; end: number } {
  const boundary = (at: number): number => {
    let n = Math.min(at, bytes.length);
    while (n > 0 && n < bytes.length && (bytes[n]! & 0xc0) === 0x80) n--;
    return n;
  };
  const start = boundary(offset);
  const end = Math.max(start, boundary(start + max));
  return { text: bytes.subarray(start, end).toString('utf8'), start, end };
}
