import type { Message } from '../../providers/types.js';
import type { SessionEvent } from '../../runtime/events.js';
import type { ConversationItem } from '../types.js';
import { displayFromView } from '../../agent/tool-view.js';
import type { TranscriptEntry } from '../../runtime/session-types.js';
import { keyArgument } from './key-argument.js';
import { filesOf, savedFiles } from './tool-files.js';
import { unwrapProxyCall } from '../../agent/tool-proxy.js';
import { isInjectedContext } from '../../session/context.js';

/**
 * The conversation as the UI holds it. `committed` is append-only: those items are finished and
 * are printed once (Ink's <Static>), so long sessions cost nothing to re-render. `live` holds the
 * current turn's items that can still change (streaming text, running tools); the longest
 * finished prefix of `live` moves to `committed` after every event.
 */
export interface ConversationState {
  committed: ConversationItem[];
  live: ConversationItem[];
  running: boolean;
  /** Prompt tokens of the latest response: how full the context window is. */
  contextTokens: number;
  compactions: number;
  retry?: { attempt: number; maxAttempts: number; message: string };
  nextId: number;
  /** How the next user message shows (a paste folded, a custom command as typed); its full text
   * stays in the item for the transcript (Ctrl+O). */
  showNext?: string;
}

export const initialConversation = (): ConversationState => ({
  committed: [],
  live: [],
  running: false,
  contextTokens: 0,
  compactions: 0,
  nextId: 1,
});

/** Results that mean the call never ran because permission was refused. */
const DENIAL = /^\[denied|is not allowed in this mode|^The user declined|^Not run: the user declined|^Plan mode/;

/** Applies one session event. Returns a new state object; item objects are replaced, not mutated. */
export function reduceConversation(state: ConversationState, event: SessionEvent): ConversationState {
  const next = { ...state, live: [...state.live] };
  const id = () => `i${next.nextId++}`;
  const currentAssistant = (): number => findLastIndex(next.live, (item) => item.kind === 'assistant' && item.streaming);

  switch (event.type) {
    case 'message':
      if (isInjectedContext(event.message)) return state; // context seek adds (memory, a vanished worktree) is for the model
      if (event.message.role === 'user') {
        const text = stripReminder(event.message.content);
        next.live.push(next.showNext !== undefined && next.showNext !== text ? { kind: 'user', id: id(), text: next.showNext, full: text } : { kind: 'user', id: id(), text });
        next.showNext = undefined;
        next.running = true;
      } else if (event.message.role === 'assistant') {
        const index = currentAssistant();
        const item = next.live[index];
        if (item?.kind === 'assistant') {
          // The final text is authoritative; the part already committed stays where it is.
          const committed = item.committedChars ?? 0;
          const text = (item.reopenedFence ?? '') + event.message.content.slice(committed);
          next.live[index] = { ...item, text, reasoning: item.continued ? '' : (event.message.reasoning ?? item.reasoning) };
        }
      }
      break;
    case 'turn_start':
      next.retry = undefined;
      next.live.push({ kind: 'assistant', id: id(), turn: event.turn, text: '', reasoning: '', streaming: true });
      break;
    case 'text_delta':
    case 'reasoning_delta': {
      const index = currentAssistant();
      const item = next.live[index];
      if (item?.kind !== 'assistant') break;
      if (event.type === 'text_delta') {
        next.live.splice(index, 1, ...splitCompletedBlocks({ ...item, text: item.text + event.text }, id));
      } else {
        next.live[index] = { ...item, reasoning: item.reasoning + event.text };
      }
      next.retry = undefined;
      break;
    }
    case 'retry': {
      // The failed attempt's partial output is void: start the turn's text again.
      const index = currentAssistant();
      const item = next.live[index];
      if (item?.kind === 'assistant') {
        if (item.committedChars) {
          next.live.splice(index, 0, { kind: 'notice', id: id(), level: 'warn', text: 'the answer above was cut off; retrying' });
        }
        next.live[next.live.indexOf(item)] = { ...item, text: '', reasoning: '', committedChars: 0, continued: false, reopenedFence: undefined };
      }
      next.retry = { attempt: event.attempt, maxAttempts: event.maxAttempts, message: event.error.message };
      break;
    }
    case 'turn_end': {
      const index = currentAssistant();
      const item = next.live[index];
      if (item?.kind === 'assistant') {
        if (!item.text.trim() && !item.reasoning.trim()) next.live.splice(index, 1);
        else next.live[index] = { ...item, streaming: false };
      }
      break;
    }
    case 'usage':
      next.contextTokens = event.usage.inputTokens + event.usage.outputTokens;
      break;
    case 'tool_start':
      next.live.push({
        kind: 'tool',
        id: event.toolCall.id,
        name: event.toolCall.name,
        summary: event.action?.summary ?? keyArgument(event.toolCall.name, event.args ?? event.toolCall.arguments),
        ...filesOf(event.action),
        status: 'running',
      });
      break;
    case 'tool_update': {
      const index = findLastIndex(next.live, (item) => item.kind === 'tool' && item.id === event.toolCallId);
      const item = next.live[index];
      if (item?.kind === 'tool') next.live[index] = { ...item, partial: tail((item.partial ?? '') + event.partial, 4000) };
      break;
    }
    case 'tool_end': {
      const index = findLastIndex(next.live, (item) => item.kind === 'tool' && item.id === event.toolCall.id);
      const item = next.live[index];
      if (item?.kind !== 'tool') break;
      const denied = event.message.isError && DENIAL.test(event.message.content);
      next.live[index] = {
        ...item,
        status: denied ? 'denied' : event.message.isError ? 'error' : 'done',
        durationMs: event.durationMs,
        output: event.message.content,
        ...(event.result.display ? { display: event.result.display } : {}),
        partial: undefined,
      };
      break;
    }
    case 'compaction':
      next.compactions += 1;
      next.contextTokens = 0;
      next.live.push({ kind: 'compaction', id: id(), reason: event.reason, replacedMessages: event.replacedMessages, summary: event.summary });
      break;
    case 'error':
      next.live.push({ kind: 'notice', id: id(), level: 'error', text: event.error.message });
      break;
    case 'notice':
      next.live.push({ kind: 'notice', id: id(), level: event.level, text: event.text });
      break;
    case 'loop_end':
      next.running = false;
      next.retry = undefined;
      finishStreaming(next.live);
      if (event.reason === 'aborted') next.live.push({ kind: 'notice', id: id(), level: 'warn', text: 'cancelled' });
      // An 'error' ending was already shown by its error event.
      else if (event.reason !== 'completed' && event.reason !== 'error') {
        next.live.push({ kind: 'notice', id: id(), level: 'error', text: event.errorMessage ?? event.reason });
      }
      break;
    default:
      return state;
  }
  return commitFinished(next);
}

/** Adds a notice outside of a run (command output, errors of commands). */
export function addNotice(state: ConversationState, level: 'info' | 'warn' | 'error', text: string): ConversationState {
  return commitFinished({ ...state, live: [...state.live, { kind: 'notice', id: `i${state.nextId}`, level, text }], nextId: state.nextId + 1 });
}

/** The items of a resumed history, all finished. */
export function itemsFromHistory(messages: readonly Message[], cwd?: string): ConversationItem[] {
  return itemsFromTranscript(messages.map((message) => ({ kind: 'message', message })), cwd);
}

/** What a compaction leaves in the history: the summary standing in for the messages it replaced. */
const SUMMARY_MESSAGE = /^<summary>\nThis session was compacted\. Summary of the earlier conversation:\n\n([\s\S]*)\n<\/summary>$/;

/**
 * The items of a saved conversation, all finished, as they showed live: tool rows with the summary,
 * duration and display recorded with their result (ToolResultMessage.view), a compaction as its
 * marker line (its summary expands in the transcript), never as a message the user typed. The
 * files a call touched come from its view, or (a session saved without them) from its arguments
 * resolved against `cwd`.
 */
export function itemsFromTranscript(entries: readonly TranscriptEntry[], cwd?: string): ConversationItem[] {
  const items: ConversationItem[] = [];
  let n = 0;
  const results = new Map<string, Message & { role: 'tool' }>();
  for (const entry of entries) if (entry.kind === 'message' && entry.message.role === 'tool') results.set(entry.message.toolCallId, entry.message);
  for (const entry of entries) {
    if (entry.kind === 'compaction') {
      items.push({ kind: 'compaction', id: `h${n++}`, reason: entry.reason ?? 'auto', replacedMessages: entry.replacedMessages ?? 0, summary: entry.summary });
      continue;
    }
    const message = entry.message;
    if (message.role === 'user' && !isInjectedContext(message)) {
      const summary = SUMMARY_MESSAGE.exec(message.content);
      if (summary) items.push({ kind: 'compaction', id: `h${n++}`, reason: 'auto', replacedMessages: 0, summary: summary[1]! });
      else items.push({ kind: 'user', id: `h${n++}`, text: stripReminder(message.content) });
    }
    if (message.role === 'assistant') {
      if (message.content.trim() || message.reasoning) {
        items.push({ kind: 'assistant', id: `h${n++}`, turn: 0, text: message.content, reasoning: message.reasoning ?? '', streaming: false });
      }
      // A call through call_tool shows as the tool it called, as it did live.
      for (const call of message.toolCalls.map(unwrapProxyCall)) {
        const result = results.get(call.id);
        const view = result?.view;
        items.push({
          kind: 'tool',
          id: call.id,
          name: call.name,
          summary: view?.title ?? keyArgument(call.name, parsedArguments(call.arguments)),
          ...savedFiles(call.name, view?.paths, parsedArguments(call.arguments), cwd),
          status: !result ? 'error' : result.isError ? (DENIAL.test(result.content) ? 'denied' : 'error') : 'done',
          ...(result ? { output: result.content } : {}),
          ...(view?.durationMs !== undefined ? { durationMs: view.durationMs } : {}),
          ...(view?.display && result ? { display: displayFromView(view.display, result.content)! } : {}),
        });
      }
    }
  }
  return items;
}

/** A call's arguments as the live row saw them: parsed (a raw JSON string would show as text). */
function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * Splits a streaming answer after its last complete Markdown block (a blank line outside a code
 * fence): the completed part becomes a finished item that is committed (printed once), and only
 * the last block stays live. Keeps every frame's layout small however long the answer grows.
 */
function splitCompletedBlocks(item: Extract<ConversationItem, { kind: 'assistant' }>, id: () => string): ConversationItem[] {
  // Offsets in `text` are offsets in the answer once the reopened fence (not in the answer) is taken off.
  const toAnswer = (offset: number) => (item.committedChars ?? 0) + offset - (item.reopenedFence?.length ?? 0);
  const boundary = lastBlockBoundary(item.text);
  if (boundary !== undefined) {
    const head = item.text.slice(0, boundary.headEnd);
    return [
      { ...item, text: head, streaming: false, committedChars: undefined },
      { ...item, id: id(), text: item.text.slice(boundary.tailStart), reasoning: '', continued: true, committedChars: toAnswer(boundary.tailStart), reopenedFence: undefined, joined: undefined },
    ];
  }
  const lineCut = longBlockCut(item.text);
  if (lineCut !== undefined) {
    return [
      { ...item, text: item.text.slice(0, lineCut), streaming: false, committedChars: undefined },
      { ...item, id: id(), text: item.text.slice(lineCut + 1), reasoning: '', continued: true, committedChars: toAnswer(lineCut + 1), reopenedFence: undefined, joined: true },
    ];
  }
  const cut = longFenceCut(item.text);
  if (cut === undefined) return [item];
  return [
    { ...item, text: `${item.text.slice(0, cut.at)}\n${cut.closer}`, streaming: false, committedChars: undefined },
    { ...item, id: id(), text: `${cut.opener}\n${item.text.slice(cut.at + 1)}`, reasoning: '', continued: true, committedChars: toAnswer(cut.at + 1), reopenedFence: `${cut.opener}\n`, joined: undefined },
  ];
}

/** Lines that only a whole block renders right: fences, tables, quotes, HTML, setext underlines,
 * indented code. A block with any of them is never cut between lines. */
const WHOLE_BLOCK_LINE = /^(\s{0,3}(`{3,}|~{3,}|\||>|<)|\s*(=+|-+)\s*$| {4}|\t)/;
const LIST_ITEM = /^([-*+]|\d{1,9}[.)])\s/;

/**
 * Where to cut the last block of a streaming answer that has more than LIVE_FENCE_LINES complete
 * lines and is a plain paragraph or a top-level list: before its last complete line (the newline
 * before it), which must start a list item in a list, or be plain text in a paragraph. The part
 * before is committed; markdown renders the two parts as one (a list may continue at any number).
 */
function longBlockCut(text: string): number | undefined {
  const lines = text.split('\n');
  // Inside an open fence, blank lines do not end blocks (longFenceCut handles that case).
  if (lines.slice(0, -1).filter((line) => /^\s{0,3}(`{3,}|~{3,})/.test(line)).length % 2 === 1) return undefined;
  let start = 0;
  for (let index = 0; index < lines.length - 1; index++) if (lines[index]!.trim() === '') start = index + 1;
  const block = lines.slice(start, -1);
  if (block.length <= LIVE_FENCE_LINES || block.some((line) => WHOLE_BLOCK_LINE.test(line))) return undefined;
  const last = block.at(-1)!;
  const isList = block.some((line) => LIST_ITEM.test(line));
  if (isList ? !LIST_ITEM.test(last) : LIST_ITEM.test(last) || /^[\s#]/.test(last)) return undefined;
  return text.lastIndexOf('\n', text.lastIndexOf('\n') - 1);
}

/** Complete lines of an open code fence that stay live; more are committed (closed here, reopened
 * in the next item), so a long block does not grow the live area while it streams. */
export const LIVE_FENCE_LINES = 8;

/** Where to cut an open code fence that has more than LIVE_FENCE_LINES complete lines: before its
 * last complete line (`at` is the newline ending the line before). The fence's opener and closer
 * come with it. */
function longFenceCut(text: string): { at: number; opener: string; closer: string } | undefined {
  const lines = text.split('\n');
  let fence: { opener: string; closer: string; index: number } | undefined;
  for (let index = 0; index < lines.length - 1; index++) {
    const line = lines[index]!;
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker === undefined) continue;
    if (fence === undefined) fence = { opener: line.trim(), closer: marker, index };
    else if (line.trim().startsWith(fence.closer) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
  }
  if (fence === undefined || lines.length - 1 - (fence.index + 1) <= LIVE_FENCE_LINES) return undefined;
  // A fence indented inside a list item would lose its place if reopened at the top level.
  if (!/^[`~]/.test(lines[fence.index]!)) return undefined;
  // The last complete line stays live with the partial one: a fence that closes right after the
  // cut still leaves code in the reopened part.
  return { at: text.lastIndexOf('\n', text.lastIndexOf('\n') - 1), opener: fence.opener, closer: fence.closer };
}

/** The last blank line outside a code fence that has more text after it. */
function lastBlockBoundary(text: string): { headEnd: number; tailStart: number } | undefined {
  let inFence = false;
  let offset = 0;
  let found: { headEnd: number; tailStart: number } | undefined;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length - 1; index++) {
    const line = lines[index]!;
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    const lineEnd = offset + line.length;
    if (!inFence && line.trim() === '' && index > 0 && lines[index - 1]!.trim() !== '') {
      const rest = text.slice(lineEnd + 1);
      const tailStart = lineEnd + 1 + (rest.length - rest.trimStart().length);
      if (tailStart < text.length) found = { headEnd: offset - 1, tailStart };
    }
    offset = lineEnd + 1;
  }
  return found;
}

function isFinished(item: ConversationItem): boolean {
  if (item.kind === 'assistant') return !item.streaming;
  if (item.kind === 'tool') return item.status !== 'running';
  return true;
}

function commitFinished(state: ConversationState): ConversationState {
  let count = 0;
  while (count < state.live.length && isFinished(state.live[count]!)) count += 1;
  if (count === 0) return state;
  return { ...state, committed: [...state.committed, ...state.live.slice(0, count)], live: state.live.slice(count) };
}

/** Ends a run's unfinished items: streaming answers stop (empty ones go), running tools are
 * marked interrupted. */
function finishStreaming(items: ConversationItem[]): void {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.kind === 'assistant' && item.streaming) {
      if (!item.text.trim() && !item.reasoning.trim()) items.splice(index, 1);
      else items[index] = { ...item, streaming: false };
    }
    if (item.kind === 'tool' && item.status === 'running') items[index] = { ...item, status: 'error', output: 'interrupted' };
  }
}

/** The plan-mode reminder appended to user messages is for the model, not the screen. */
function stripReminder(text: string): string {
  const at = text.indexOf('\n\n<system-reminder>');
  return at === -1 ? text : text.slice(0, at);
}

function tail(text: string, max: number): string {
  return text.length > max ? text.slice(text.length - max) : text;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (predicate(items[index]!)) return index;
  return -1;
}
