import type { AgentSession } from '../../runtime/session.js';
import type { ConversationItem } from '../types.js';
import { itemsFromHistory, itemsFromTranscript } from './conversation.js';

/** A resumed session as it showed: its transcript, or (no file behind it) its history. */
export const shownItems = (session: AgentSession) => 
  session.transcript?.length ? itemsFromTranscript(session.transcript, session.cwd) : itemsFromHistory(session.history, session.cwd);

/** The width a finished item is laid out in for <Static>: wide enough that Ink never breaks the
 * long lines (code, URLs) an answer keeps whole for the scrollback (Ink allocates every cell of
 * it, so no wider than the answer's longest source line and a margin for list indents). */
export const scrollbackWidth = (item: ConversationItem, width: number) =>
  item.kind === 'assistant' ? Math.max(width, ...item.text.split('\n').map((line) => line.length * 2 + 16)) : width;
