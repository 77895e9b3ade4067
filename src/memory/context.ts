/**
 * How memory reaches the model: user-role `<context>` messages appended to the history before
 * the first prompt of a session, never the system prompt (seek-spec 5.2). Appending keeps the
 * provider's prefix cache: the system prompt and tool schemas stay byte-identical whatever the
 * memory holds, and once sent these messages are part of the history like any other.
 */
import type { Message, UserMessage } from '../providers/types.js';
import { injectedContext } from '../session/context.js';
import type { MemoryEntry } from './entry.js';
import { renderIndex, type RenderedIndex } from './index-view.js';
import { stableForInjection, type Soul } from './soul.js';
import { estimateTokens } from './tokens.js';

export const SOUL_CONTEXT_SOURCE = 'memory.soul';
export const INDEX_CONTEXT_SOURCE = 'memory.index';
const CONTEXT_PREFIX = '<context source="memory.';

export function contextMessage(source: string, body: string): UserMessage {
  return injectedContext(source, `\n${body}\n`);
}

/** Whether a message is one of memory's injected context messages (front ends hide them). */
export function isMemoryContext(message: Message): boolean {
  return message.role === 'user' && message.content.startsWith(CONTEXT_PREFIX);
}

export interface MemoryContext {
  /** Soul first, then the index; either may be absent. */
  messages: UserMessage[];
  index: RenderedIndex;
  soulTokens: number;
}

/** The context messages for a soul and a project's active entries. Same input, same bytes. */
export function buildMemoryContext(soul: Soul, entries: readonly MemoryEntry[]): MemoryContext {
  const messages: UserMessage[] = [];
  const stable = stableForInjection(soul);
  if (stable.trim()) messages.push(contextMessage(SOUL_CONTEXT_SOURCE, stable));
  const index = renderIndex(entries);
  if (index.body) messages.push(contextMessage(INDEX_CONTEXT_SOURCE, index.body));
  return { messages, index, soulTokens: stable ? estimateTokens(stable) : 0 };
}
