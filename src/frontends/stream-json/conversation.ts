import type { ImageContentBlock } from '../../images/attach.js';
import type { ToolImage } from '../../providers/types.js';
import type { RunSummary } from '../../runtime/events.js';
import { answerControlRequest, type ControlTarget, type PermissionQuestions, type WriteLine } from './control.js';
import { parseInputLine } from './input.js';

/** What the conversation drives: the session's turns and the control requests' targets. */
export interface ConversationSession extends Omit<ControlTarget, 'interrupt'> {
  prompt(text: string, signal: AbortSignal, images?: ToolImage[]): Promise<RunSummary>;
  /** A message's image blocks as images for the session's provider and model, or why they cannot go. */
  attachImages(blocks: readonly ImageContentBlock[]): Promise<{ images: ToolImage[] } | { error: string }>;
}

/** A user message waiting for its turn. */
interface Queued {
  text: string;
  images: ImageContentBlock[];
  lineNumber: number;
}

export interface ConversationOptions {
  session: ConversationSession;
  /** The input lines (stdin), in order; the conversation ends once they end and the turns are done. */
  lines: AsyncIterable<string>;
  write: WriteLine;
  /** Writes a turn's `result` line and returns its exit status (the stream-json renderer's finish). */
  finish(summary: RunSummary): number;
  /** `--permission-prompt-tool stdio`: the questions asked of the program. */
  questions?: PermissionQuestions;
  /** Aborted on SIGINT/SIGTERM or lost output: the turn in progress ends, queued messages are dropped. */
  stop: AbortSignal;
}

/**
 * `seek -p --input-format stream-json --output-format stream-json`: one seek process, many turns.
 * Each user message runs as a turn of the same session (so each request extends the previous one)
 * and ends with its `result` line; messages that arrive during a turn wait their turn. Control
 * requests are answered at once, during a turn too. A line that cannot be read is answered with an
 * error line and skipped, and so is a message whose images cannot go (checked when its turn comes). When stdin closes, the turn in progress and the messages already read run
 * to their end (permission questions are then answered no: nobody can answer), and the status is
 * the last turn's. Returns the exit status.
 */
export async function runConversation(options: ConversationOptions): Promise<number> {
  const { session, write, questions, stop } = options;
  const queue: Queued[] = [];
  let inputDone = false;
  let wake: (() => void) | undefined;
  let turn: AbortController | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const target: ControlTarget = {
    interrupt: () => turn?.abort(),
    setMode: (mode) => session.setMode(mode),
    setModel: (model) => session.setModel(model),
  };
  const onStop = () => {
    turn?.abort();
    queue.length = 0;
    poke();
  };
  stop.addEventListener('abort', onStop, { once: true });

  const reading = (async () => {
    let lineNumber = 0;
    try {
      for await (const line of options.lines) {
        lineNumber++;
        if (stop.aborted) break;
        handleLine(line, lineNumber);
      }
    } finally {
      inputDone = true;
      questions?.close();
      poke();
    }
  })();

  function handleLine(line: string, lineNumber: number): void {
    const parsed = parseInputLine(line);
    if (!parsed.ok) {
      write({ type: 'error', kind: 'invalid_input', line: lineNumber, message: `stdin line ${lineNumber} skipped: ${parsed.error}` });
      if (parsed.requestId !== undefined) write({ type: 'control_response', response: { subtype: 'error', request_id: parsed.requestId, error: parsed.error } });
      return;
    }
    const message = parsed.message;
    if (message.type === 'user') {
      queue.push({ text: message.text, images: message.images, lineNumber });
      poke();
    } else if (message.type === 'control_request') {
      answerControlRequest(target, message.requestId, message.subtype, message.request, write);
    } else if (message.type === 'control_response') {
      settleAnswer(message, lineNumber);
    }
  }

  function settleAnswer(message: Extract<ReturnType<typeof parseInputLine>, { ok: true }>['message'] & { type: 'control_response' }, lineNumber: number): void {
    const unknown = () => write({ type: 'error', kind: 'invalid_input', line: lineNumber, message: `stdin line ${lineNumber}: no question ${JSON.stringify(message.requestId)} is waiting for an answer` });
    if (!questions) return unknown();
    // An answer after the turn that asked was interrupted (its question was withdrawn): nothing to do.
    if (questions.wasAsked(message.requestId)) return;
    if (message.ok && message.response.behavior !== 'allow' && message.response.behavior !== 'deny') {
      write({ type: 'error', kind: 'invalid_input', line: lineNumber, message: `stdin line ${lineNumber}: a can_use_tool answer needs "behavior": "allow" or "deny"; taken as deny` });
    }
    if (!questions.settle(message.requestId, message.ok ? { ok: true, response: message.response } : { ok: false, error: message.error })) unknown();
  }

  let status = 0;
  for (;;) {
    const next = queue.shift();
    if (next === undefined) {
      if (inputDone || stop.aborted) break;
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    const attached = await session.attachImages(next.images);
    if ('error' in attached) {
      write({ type: 'error', kind: 'invalid_input', line: next.lineNumber, message: `stdin line ${next.lineNumber} skipped: ${attached.error}` });
      continue;
    }
    turn = new AbortController();
    status = options.finish(await session.prompt(next.text, turn.signal, attached.images));
    turn = undefined;
  }
  stop.removeEventListener('abort', onStop);
  if (stop.aborted) return status === 0 ? 1 : status;
  await reading;
  return status;
}
