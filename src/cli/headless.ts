import { createRenderer } from '../frontends/renderer.js';
import { openSession } from '../runtime/session.js';
import type { RootOptions } from './root.js';
import { closeSession } from './close-session.js';
import { sessionOptionsFrom } from './session-options.js';
import { onWriteFailure } from './standard-output.js';

/** `seek -p`: one prompt, run to completion, render the result in the chosen format. Actions that
 * need approval are denied (there is nobody to ask) unless --yolo. Ctrl+C cancels cleanly: the
 * transcript is closed with results for every call, and the exit status is 1. A reader that goes
 * away (stdout fails) cancels the run the same way: nobody would see the rest. */
export async function runHeadless(prompt: string, options: RootOptions): Promise<number> {
  const renderer = createRenderer(options.outputFormat, { verbose: options.verbose === true });

  const session = await openSession(sessionOptionsFrom(options, { interactive: false }));
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stopWatchingOutput = onWriteFailure(process.stdout, onSignal);
  session.subscribe((event) => renderer.onEvent(event));
  try {
    const summary = await session.prompt(prompt, controller.signal);
    return renderer.finish(summary);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopWatchingOutput();
    await closeSession(session);
  }
}
