/**
 * What kind of run this process made, for the launcher's code cache (src/launch/code-cache.ts):
 * the cache is serialised again once by the first run of each kind, and by the first that ran
 * tools (anyToolRan), so it comes to hold the code of headless prompts, of the terminal UI, of
 * everything else and of the tools, whichever ran first.
 */
import { anyToolRan } from '../agent/tool-dispatch.js';

export { anyToolRan as ranTools };
export type RunKind = 'print' | 'tui' | 'other';

let kind: RunKind = 'other';

export function noteRunKind(next: RunKind): void {
  kind = next;
}

export function runKind(): RunKind {
  return kind;
}
