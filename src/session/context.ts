/**
 * Context seek adds for the model, never typed by the user: a user-role message
 * `<context source="<source>">…</context>` (memory's soul and index, a note about the worktree the
 * session works in). History keeps it like any message, so the prefix cache holds; front ends,
 * session titles, distill and dream skip it because it is not the user's words.
 */
import type { Message, UserMessage } from '../providers/types.js';

const OPENING = '<context source="';

/** `text` is taken as is (memory wraps its body in newlines; notes are one line). */
export function injectedContext(source: string, text: string): UserMessage {
  return { role: 'user', content: `${OPENING}${source}">${text}</context>` };
}

/** Also true for a bare `<context>` (older sessions wrote one without a source). */
export function isInjectedContext(message: Message): boolean {
  return message.role === 'user' && /^\s*<context[\s>]/.test(message.content);
}
