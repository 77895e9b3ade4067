import type { Writable } from 'node:stream';
import type { RunSummary, SessionEvent } from '../runtime/events.js';
import { exitCodeFor } from './result.js';
import { redact } from '../util/redact.js';

/**
 * `-p` with text output: stdout gets the final answer and nothing else, so scripts can use it.
 * stderr gets what a person needs to know: denied actions (with the --yolo hint), retries,
 * warnings and the reason a run failed. With `verbose`, tool activity goes to stderr as well.
 */
export function createTextRenderer(out: Writable, err: Writable, options: { verbose?: boolean } = {}) {
  const reported = new Set<string>();
  const note = (raw: string) => {
    const text = redact(raw);
    if (reported.has(text)) return;
    reported.add(text);
    err.write(`seek: ${text}\n`);
  };
  return {
    onEvent(event: SessionEvent): void {
      switch (event.type) {
        case 'notice':
          if (event.level === 'warn' || options.verbose) note(event.text);
          break;
        case 'retry':
          note(`${event.error.message}; retrying (attempt ${event.attempt + 1} of ${event.maxAttempts})`);
          break;
        case 'tool_start':
          if (options.verbose) err.write(`· ${event.action?.summary ?? event.toolCall.name}\n`);
          break;
        case 'tool_end':
          if (event.message.isError && /--yolo/.test(event.message.content)) note(event.message.content);
          break;
        case 'subagent_start':
          if (options.verbose) err.write(`· agent ${event.agentType} started: ${event.description} (${event.subSid})\n`);
          break;
        case 'subagent_event':
          // A child's denial needs the same hint as the parent's; its other activity only with --verbose.
          if (event.event.type === 'tool_end' && event.event.message.isError && /--yolo/.test(event.event.message.content)) {
            note(`[subagent ${event.subSid}] ${event.event.message.content}`);
          } else if (options.verbose && event.event.type === 'tool_start') {
            err.write(`  · [${event.subSid.slice(-6)}] ${event.event.action?.summary ?? event.event.toolCall.name}\n`);
          }
          break;
        case 'subagent_end':
          if (options.verbose) {
            const outcome = event.outcome;
            err.write(`· agent ${outcome.subSid} ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''} after ${outcome.turns} turns\n`);
          }
          break;
        default:
          break;
      }
    },
    finish(summary: RunSummary): number {
      if (summary.finalText) out.write(summary.finalText.endsWith('\n') ? summary.finalText : `${summary.finalText}\n`);
      if (summary.reason !== 'completed') note(summary.errorMessage ?? `the run ended: ${summary.reason}`);
      return exitCodeFor(summary);
    },
  };
}
