import type { Writable } from 'node:stream';
import type { RunSummary, SessionEvent } from '../runtime/events.js';
import { createJsonRenderer } from './json.js';
import { createTextRenderer } from './print.js';
import { createStreamJsonRenderer } from './stream-json.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface HeadlessRenderer {
  onEvent(event: SessionEvent): void;
  /** Writes the end of the run and returns the exit status. A slow reader may not have taken the
   * output yet: the CLI waits for stdout to drain before the process exits. */
  finish(summary: RunSummary): number;
}

/** The headless front end for `--output-format` (`seek -p`, `seek run`). */
export function createRenderer(format: OutputFormat, options: { verbose: boolean }, out: Writable = process.stdout, err: Writable = process.stderr): HeadlessRenderer {
  if (format === 'json') return createJsonRenderer(out);
  if (format === 'stream-json') return createStreamJsonRenderer(out);
  return createTextRenderer(out, err, { verbose: options.verbose });
}
