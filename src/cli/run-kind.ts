/**
 * What kind of run this process made, for the launcher's code cache (src/launch/code-cache.ts):
 * the cache is serialised again once by the first run of each kind, so it comes to hold the code
 * of headless prompts, of the terminal UI and of everything else, whichever ran first.
 */
export type RunKind = 'print' | 'tui' | 'other';

let kind: RunKind = 'other';

export function noteRunKind(next: RunKind): void {
  kind = next;
}

export function runKind(): RunKind {
  return kind;
}
