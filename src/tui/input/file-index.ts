/**
 * The project's paths for `@file` completion: listed once in the background with the shared
 * .gitignore-aware walker (src/tools/walk.ts, the same view glob and grep have), then
 * searched synchronously with fuzzysort on every keystroke.
 *
 * Directories are offered too (`src/tui/`, derived from the files under them): accepting one
 * keeps the `@` word open so the next segment can be typed.
 */
import fuzzysort from 'fuzzysort';
import path from 'node:path';
import { IgnoreRules } from '../../tools/gitignore.js';
import { walkTree } from '../../tools/walk.js';
import type { Completion } from '../types.js';

export interface FileIndexOptions {
  /** Files listed at most; the walk stops there. Default 50,000. */
  maxFiles?: number;
  /** Candidates returned by `search`; default 8 (the menu's height). */
  limit?: number;
}

export interface FileIndex {
  /** Best matches for `query` (the text after `@`) among the paths listed so far: fuzzy by
   * path, or for an empty query the shallowest, then shortest paths (the top level first).
   * Paths are relative, with `/`; directories end in `/`. */
  search(query: string): Completion[];
  /** Settles when the listing has finished (or failed: an unreadable root gives no paths). */
  readonly ready: Promise<void>;
  /** Paths indexed so far, directories included. */
  size(): number;
  /** Lists the project again (files appear as the agent writes them); resolves when done. */
  refresh(): Promise<void>;
  /** Stops a listing in progress. */
  dispose(): void;
}

export const DEFAULT_MAX_FILES = 50_000;

interface Entry {
  path: string;
  prepared: ReturnType<typeof fuzzysort.prepare>;
}

export function createFileIndex(projectRoot: string, options: FileIndexOptions = {}): FileIndex {
  const root = path.resolve(projectRoot);
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const limit = options.limit ?? 8;
  let entries: Entry[] = [];
  let shortestFirst: Entry[] | null = null;
  let abort = new AbortController();

  const list = async (signal: AbortSignal): Promise<void> => {
    const listed: Entry[] = [];
    const directories = new Set<string>();
    let published = 0;
    try {
      const rules = await IgnoreRules.forRoot(root);
      const onFile = (relPath: string): boolean => {
        for (let dir = path.posix.dirname(relPath); dir !== '.' && !directories.has(dir); dir = path.posix.dirname(dir)) {
          directories.add(dir);
          listed.push(entryFor(`${dir}/`));
        }
        listed.push(entryFor(relPath));
        if (listed.length - directories.size >= maxFiles) return false;
        // Publish progress now and then, so completion works while a large tree is walked.
        if (listed.length - published >= 2_000 && !signal.aborted) {
          published = listed.length;
          publish(listed.slice());
        }
        return true;
      };
      await walkTree(root, rules, onFile, { signal, sorted: true });
    } catch {
      // Unreadable root: keep whatever was listed.
    }
    if (!signal.aborted) publish(listed);
  };

  const publish = (next: Entry[]): void => {
    entries = next;
    shortestFirst = null;
  };

  let ready = list(abort.signal);

  return {
    get ready() {
      return ready;
    },
    size: () => entries.length,
    search(query: string): Completion[] {
      const needle = query.replace(/^\.\//, '').trim();
      if (needle === '') {
        shortestFirst ??= [...entries].sort(
          (a, b) => depth(a.path) - depth(b.path) || a.path.length - b.path.length || compare(a.path, b.path),
        );
        return shortestFirst.slice(0, limit).map(toCompletion);
      }
      return fuzzysort
        .go(needle, entries, { key: 'prepared', limit, threshold: 0 })
        .map((result) => toCompletion(result.obj));
    },
    refresh() {
      abort.abort();
      abort = new AbortController();
      ready = list(abort.signal);
      return ready;
    },
    dispose() {
      abort.abort();
    },
  };
}

function entryFor(relPath: string): Entry {
  return { path: relPath, prepared: fuzzysort.prepare(relPath) };
}

function toCompletion(entry: Entry): Completion {
  return { value: entry.path };
}

/** Directory levels below the root: 0 for `README.md` and `src/`, 1 for `src/main.ts`. */
function depth(relPath: string): number {
  let slashes = 0;
  for (let index = 0; index < relPath.length - 1; index++) if (relPath[index] === '/') slashes += 1;
  return slashes;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
