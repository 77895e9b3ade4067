import { createInterface } from 'node:readline';
import { createStreamJsonRenderer } from '../frontends/stream-json.js';
import { PermissionQuestions } from '../frontends/stream-json/control.js';
import { runConversation } from '../frontends/stream-json/conversation.js';
import { imagesFromBlocks } from '../frontends/stream-json/images.js';
import type { ToolImage } from '../providers/types.js';
import { openSession } from '../runtime/session.js';
import type { RootOptions } from './root-options.js';
import { closeSession } from './close-session.js';
import { sessionOptionsFrom } from './session-options.js';
import { onWriteFailure } from './standard-output.js';
import { runSlashPrompt } from './headless-slash.js';
import { localSummary } from './headless.js';
import type { AgentSession } from '../runtime/session.js';
import type { RunSummary } from '../runtime/events.js';
import { monotonicMs } from '../util/clock.js';

/** Checks the flags of a stream-json conversation; a usage error's text, or undefined. */
export function streamInputUsageError(options: RootOptions, words: string): string | undefined {
  if (!options.print) return '--input-format stream-json goes with -p: seek -p --input-format stream-json --output-format stream-json';
  if (options.outputFormat !== 'stream-json') return '--input-format stream-json needs --output-format stream-json';
  if (words !== '') return 'with --input-format stream-json the prompts come on stdin as user messages, not as arguments';
  return undefined;
}

/** `seek -p --input-format stream-json --output-format stream-json [--permission-prompt-tool stdio]`:
 * a conversation with a program over stdin and stdout (see frontends/stream-json/conversation.ts).
 * The session is saved after every turn and closed when the conversation ends, however it ends. */
export async function runStreamInput(options: RootOptions): Promise<number> {
  const renderer = createStreamJsonRenderer(process.stdout);
  const write = (line: Record<string, unknown>) => void process.stdout.write(`${JSON.stringify(line)}\n`);
  const questions = options.permissionPromptTool === 'stdio' ? new PermissionQuestions(write) : undefined;
  const session = await openSession(sessionOptionsFrom(options, { interactive: false, ...(questions ? { ask: questions.ask } : {}) }));
  // Headless runs deny what needs approval (nobody to ask); here the program is asked, as a person
  // is in ask mode. A mode from the flags or the config (auto, yolo, a deny default) is kept.
  if (questions && session.policy.preference === 'deny' && options.yolo !== true) session.policy.setPreference('ask');
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stopWatchingOutput = onWriteFailure(process.stdout, onSignal);
  session.subscribe((event) => renderer.onEvent(event));
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  try {
    return await runConversation({
      session: {
        prompt: (text, signal, images) => promptOrSlash(session, text, signal, images ?? [], (notice) => write({ type: 'notice', level: 'warn', text: notice })),
        attachImages: (blocks) => imagesFromBlocks(blocks, session.provider, session.model),
        setMode: (mode) => session.setMode(mode),
        setModel: (model) => session.setModel(model),
      },
      lines,
      write,
      finish: (summary) => renderer.finish(summary),
      ...(questions ? { questions } : {}),
      stop: stop.signal,
    });
  } finally {
    lines.close();
    process.stdin.destroy();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopWatchingOutput();
    await closeSession(session);
  }
}

/** A user message's turn, as `seek -p` runs a prompt: a built-in slash command (`/cost`, `/compact`)
 * runs here and its text is the result; one that cannot run headless is an error result; anything
 * else (custom commands included) is a turn of the session, with the message's images. A built-in
 * sends no prompt, so images with it go nowhere: `warn` says so before its result. */
async function promptOrSlash(session: AgentSession, text: string, signal: AbortSignal, images: ToolImage[], warn: (text: string) => void): Promise<RunSummary> {
  if (!text.startsWith('/')) return session.prompt(text, signal, { images });
  const started = monotonicMs();
  const before = session.tracker.cumulative();
  const slash = await runSlashPrompt(text, session, signal);
  if (slash.kind === 'prompt') return session.prompt(slash.text, signal, { images });
  if (slash.kind === 'local' && images.length > 0) {
    const word = text.split(/\s/, 1)[0];
    warn(`${word} runs here and sends no prompt: the ${images.length} image${images.length === 1 ? '' : 's'} with it ${images.length === 1 ? 'was' : 'were'} not used. Send images with a prompt or a custom command.`);
  }
  if (slash.kind === 'local') return localSummary(session, slash.text, monotonicMs() - started, before);
  return { ...localSummary(session, '', monotonicMs() - started, before), reason: 'error', errorMessage: slash.message };
}
