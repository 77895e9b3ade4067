import type { Writable } from 'node:stream';
import type { RunSummary, SessionEvent } from '../runtime/events.js';
import { exitCodeFor, resultObject } from './result.js';

/** `--output-format json`: silent while running, one result object when the run ends. */
export function createJsonRenderer(out: Writable) {
  return {
    onEvent(_event: SessionEvent): void {},
    finish(summary: RunSummary): number {
      out.write(`${JSON.stringify(resultObject(summary))}\n`);
      return exitCodeFor(summary);
    },
  };
}
