import { createRenderer } from '../frontends/renderer.js';
import { openSession } from '../runtime/session.js';
import type { RootOptions } from './root-options.js';
import { closeSession } from './close-session.js';
import { sessionOptionsFrom } from './session-options.js';
import { onWriteFailure } from './standard-output.js';
import { runSlashPrompt } from './headless-slash.js';
import { attachImageFiles } from '../images/attach-files.js';
import type { RunSummary } from '../runtime/events.js';
import type { AgentSession } from '../runtime/session.js';
import type { CostTotals } from '../cost/tracker.js';
import { monotonicMs } from '../util/clock.js';
import { promptSettled } from '../runtime/background-turns.js';

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
    const started = monotonicMs();
    const before = session.tracker.cumulative();
    const slash = prompt.startsWith('/') ? await runSlashPrompt(prompt, session, controller.signal) : { kind: 'prompt' as const, text: prompt };
    if (slash.kind === 'usage') {
      process.stderr.write(`seek: ${slash.message}\n`);
      return 2;
    }
    if (slash.kind === 'local') return renderer.finish(localSummary(session, slash.text, monotonicMs() - started, before));
    const attached = await attachImageFiles(options.image ?? [], process.cwd(), session.provider, session.model);
    if ('error' in attached) {
      process.stderr.write(`seek: ${attached.error}\n`);
      return 2;
    }
    for (const note of attached.notes) process.stderr.write(`seek: ${note}\n`);
    // The run waits for background children; their results reach the model before it answers.
    const summary = await promptSettled(session, slash.text, controller.signal, (text) => process.stderr.write(`seek: ${text}\n`), { images: attached.images });
    return renderer.finish(summary);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopWatchingOutput();
    await closeSession(session);
  }
}

/** The result of a built-in slash command run here (`/help`, `/cost`…): what it billed is what the
 * session's tracker gained since `before` (a `/compact`'s summary; nothing for the others). */
export function localSummary(session: AgentSession, text: string, durationMs: number, before: CostTotals): RunSummary {
  const after = session.tracker.cumulative();
  const usage = {
    inputTokens: after.usage.inputTokens - before.usage.inputTokens,
    outputTokens: after.usage.outputTokens - before.usage.outputTokens,
    cacheReadTokens: after.usage.cacheReadTokens - before.usage.cacheReadTokens,
    cacheWriteTokens: after.usage.cacheWriteTokens - before.usage.cacheWriteTokens,
  };
  return { sessionId: session.id, reason: 'completed', finalText: text, turns: 0, durationMs, usage, costUsd: after.costUsd - before.costUsd, costKnown: after.costKnown, subagents: [], orchestrations: [] };
}
