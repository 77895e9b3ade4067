/**
 * Context compaction: replaces a long history by one user message holding a model-written brief,
 * so the work can go on inside the model's window. The one sanctioned rewrite of history; it costs
 * one prefix-cache miss and one extra (billed) request.
 *
 * Contract with the session file: the compacted history is exactly
 * `[compactionSummaryMessage(summary)]`, the same message the session reader rebuilds on resume,
 * so a resumed session sends byte-identical requests.
 */
import type { CompactIfNeeded, Compaction } from '../agent/types.js';
import type { HookRunner } from '../hooks/runner.js';
import type { AssistantMessage, Message, ModelRequest, StreamFn, ToolSchema } from '../providers/types.js';
import { compactionSummaryMessage } from '../session/format.js';
import { unwrapProxyCall } from '../agent/tool-proxy.js';

export interface Compactor {
  /** The loop hook: compacts when the last response used more than the threshold of the window. */
  compactIfNeeded: CompactIfNeeded;
  /** `/compact`: compacts now, optionally focused by the user's instructions. Throws an Error with
   * a message for the user when the summarising request fails or there is nothing to compact. */
  compactNow(history: readonly Message[], signal: AbortSignal, instructions?: string): Promise<Compaction>;
}

export interface CompactorOptions {
  stream: StreamFn;
  model: string;
  contextWindow: number;
  /** Share of the window that triggers automatic compaction (default 0.85). SEEK_COMPACT_THRESHOLD
   * in `env`, a number in (0, 1], wins over it. */
  threshold?: number;
  hooks?: HookRunner;
  /** Where SEEK_COMPACT_THRESHOLD is read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Problems that must not stop the run (a failed automatic compaction, a bad threshold value):
   * the session shows them as notices. Never thrown. */
  onProblem?: (message: string) => void;
}

export const DEFAULT_COMPACT_THRESHOLD = 0.85;
/** Automatic compaction leaves shorter histories alone: a summary would not save anything. */
export const MIN_MESSAGES_TO_COMPACT = 4;
/** Per tool result in the transcript; the brief needs outcomes, not whole files. */
export const TOOL_RESULT_CHARS = 2_000;
export const TOOL_ARGS_CHARS = 300;
/** Share of the window the rendered conversation may take (chars / 4 estimate), leaving room for
 * the summariser's prompt and its answer. */
export const TRANSCRIPT_WINDOW_SHARE = 0.6;
const CHARS_PER_TOKEN = 4;

export const SUMMARISER_SYSTEM_PROMPT =
  'You are the context compactor of seek, a terminal coding agent. You read the transcript of a coding ' +
  'session and write a compact working brief that replaces the whole history: the agent continues the ' +
  'work from your brief alone. Be precise and factual: keep paths, names, commands and error messages ' +
  'exactly as they appear. Do not invent anything, do not call tools, do not address the user.';

const NO_TOOLS: readonly ToolSchema[] = Object.freeze([]);

type Reason = 'auto' | 'manual';

export function createCompactor(options: CompactorOptions): Compactor {
  const report = (message: string): void => options.onProblem?.(message);
  const threshold = resolveThreshold(options, report);

  async function compact(history: readonly Message[], signal: AbortSignal, reason: Reason, instructions?: string): Promise<Compaction> {
    if (history.length === 0) throw new Error('Nothing to compact: the conversation is empty.');
    await options.hooks?.preCompact({ reason, messages: history.length });
    const request: ModelRequest = {
      model: options.model,
      system: SUMMARISER_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: buildSummaryPrompt(history, options.contextWindow, instructions) }],
      tools: NO_TOOLS,
    };
    const message = await requestSummary(options.stream, request, signal);
    const summary = message.content.trim();
    await options.hooks?.postCompact({ reason, summary_chars: summary.length });
    return {
      messages: [compactionSummaryMessage(summary)],
      summary,
      replacedMessages: history.length,
      ...(message.usage ? { usage: message.usage } : {}),
      ...(message.costUsd !== undefined ? { costUsd: message.costUsd } : {}),
      model: message.model ?? options.model,
    };
  }

  return {
    compactIfNeeded: async ({ history, lastUsage, signal }) => {
      if (!lastUsage || history.length < MIN_MESSAGES_TO_COMPACT) return undefined;
      if (lastUsage.inputTokens + lastUsage.outputTokens <= threshold * options.contextWindow) return undefined;
      try {
        return await compact(history, signal, 'auto');
      } catch (error) {
        // The run goes on uncompacted; if the window really is full, the next request's error says so.
        if (!signal.aborted) report(`automatic context compaction failed, continuing without it: ${(error as Error).message}`);
        return undefined;
      }
    },
    compactNow: (history, signal, instructions) => compact(history, signal, 'manual', instructions),
  };
}

/** SEEK_COMPACT_THRESHOLD, else the option, else 0.85. A value outside (0, 1] is reported and ignored. */
function resolveThreshold(options: CompactorOptions, report: (message: string) => void): number {
  const raw = (options.env ?? process.env)['SEEK_COMPACT_THRESHOLD'];
  if (raw !== undefined && raw.trim() !== '') {
    const value = Number(raw);
    if (Number.isFinite(value) && value > 0 && value <= 1) return value;
    report(`SEEK_COMPACT_THRESHOLD=${raw} is not a number in (0, 1]; using ${options.threshold ?? DEFAULT_COMPACT_THRESHOLD}`);
  }
  return options.threshold ?? DEFAULT_COMPACT_THRESHOLD;
}

/** Runs the summarising request; throws an Error saying why when it yields no usable summary. */
async function requestSummary(stream: StreamFn, request: ModelRequest, signal: AbortSignal): Promise<AssistantMessage> {
  let message: AssistantMessage | undefined;
  try {
    for await (const event of stream(request, signal)) {
      if (event.type === 'error') {
        throw new Error(event.error.kind === 'aborted' ? 'compaction was cancelled' : `the summarising request failed: ${event.error.message}`);
      }
      if (event.type === 'done') message = event.message;
    }
  } catch (error) {
    if (signal.aborted) throw new Error('compaction was cancelled');
    throw error instanceof Error ? error : new Error(String(error));
  }
  if (!message) throw new Error('the summarising request ended without an answer');
  if (!message.content.trim()) throw new Error('the model returned an empty summary');
  return message;
}

/** The summariser's one user message: the conversation as text, then what the brief must hold. */
export function buildSummaryPrompt(history: readonly Message[], contextWindow: number, instructions?: string): string {
  const budget = Math.floor(contextWindow * TRANSCRIPT_WINDOW_SHARE * CHARS_PER_TOKEN);
  const { text, omitted } = renderTranscript(history, budget);
  const focus = instructions?.trim();
  return [
    'Here is the conversation so far between the user and you, a coding agent working in their repository:',
    '',
    '<conversation>',
    text,
    '</conversation>',
    '',
    'Write a compact brief that lets you continue this work with no other context: this brief will replace the whole conversation. Include:',
    "- the user's goals and their current request (verbatim where short);",
    '- decisions made, and why;',
    '- files read and files changed (paths);',
    '- commands run and their outcomes;',
    '- errors or problems still open;',
    '- the exact next step.',
    'At most about 600 words. No preamble.',
    ...(omitted > 0 ? [`Earlier parts of the conversation (${omitted} messages) were omitted to fit the context window; say so in the brief.`] : []),
    ...(focus ? ['', `Additional instructions from the user for this summary: ${focus}`] : []),
  ].join('\n');
}

/**
 * Renders a history as plain text. When it is longer than `budget` characters, keeps the first user
 * message (the original task) and the most recent messages that fit, with a note where the
 * omitted ones were. `omitted` counts the messages left out.
 */
export function renderTranscript(history: readonly Message[], budget: number): { text: string; omitted: number } {
  const blocks = history.map(renderMessage);
  const total = blocks.reduce((n, block) => n + block.length + 2, 0);
  if (total <= budget) return { text: blocks.join('\n\n'), omitted: 0 };

  const firstUser = history.findIndex((message) => message.role === 'user');
  // The task itself may be huge (a piped diff): it gets at most a quarter of the budget.
  const head = firstUser >= 0 ? clipEnd(blocks[firstUser] ?? '', Math.floor(budget / 4)) : '';
  let room = budget - head.length - 200; // 200: the omission note
  const tail: string[] = [];
  for (let i = blocks.length - 1; i > firstUser; i--) {
    const block = blocks[i] ?? '';
    if (block.length + 2 > room) {
      // Nothing recent fits whole: keep the end of the newest message rather than nothing.
      if (tail.length === 0 && room > 0) tail.unshift(`…${block.slice(block.length - room + 1)}`);
      break;
    }
    tail.unshift(block);
    room -= block.length + 2;
  }
  const omitted = blocks.length - tail.length - (firstUser >= 0 ? 1 : 0);
  const note = `[… ${omitted} earlier message${omitted === 1 ? '' : 's'} omitted to fit the context window …]`;
  return { text: [...(head ? [head] : []), note, ...tail].join('\n\n'), omitted };
}

function renderMessage(message: Message): string {
  if (message.role === 'user') return `[user]\n${message.content}`;
  if (message.role === 'tool') {
    const label = `[tool result: ${message.toolName}${message.isError ? ', error' : ''}]`;
    return `${label}\n${clipEnd(message.content, TOOL_RESULT_CHARS)}`;
  }
  const lines = ['[assistant]'];
  if (message.content.trim()) lines.push(message.content);
  for (const call of message.toolCalls.map(unwrapProxyCall)) lines.push(`[called ${call.name}(${clipEnd(call.arguments, TOOL_ARGS_CHARS)})]`);
  return lines.join('\n');
}

/** The first `max` characters of `text`, with a marker saying how much was cut. */
function clipEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more chars cut]`;
}
