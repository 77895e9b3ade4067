import { useEffect, useReducer, type Dispatch } from 'react';
import type { AgentSession } from '../../runtime/session.js';
import type { SessionEvent } from '../../runtime/events.js';
import type { ConversationItem } from '../types.js';
import { addNotice, initialConversation, reduceConversation, type ConversationState } from './conversation.js';
import { initialSubagents, reduceSubagentEvents, type SubagentsState } from './subagents.js';

export type ConversationAction =
  | { type: 'events'; events: SessionEvent[] }
  | { type: 'reset'; items: ConversationItem[] }
  | { type: 'notice'; level: 'info' | 'warn' | 'error'; text: string }
  | { type: 'show-next'; text: string };

type SubagentsAction = { type: 'events'; events: SessionEvent[]; now: number } | { type: 'reset' };

function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  if (action.type === 'events') return action.events.reduce(reduceConversation, state);
  if (action.type === 'notice') return addNotice(state, action.level, action.text);
  if (action.type === 'show-next') return { ...state, showNext: action.text };
  return { ...initialConversation(), committed: action.items, nextId: action.items.length + 1 };
}

function subagentsReducer(state: SubagentsState, action: SubagentsAction): SubagentsState {
  if (action.type === 'events') return reduceSubagentEvents(state, action.events, action.now);
  return state.children.length === 0 && state.lastEndedAt === undefined ? state : initialSubagents();
}

/** How often batched session events reach the screen (60 updates a second at most). */
const FRAME_MS = 16;

/**
 * The conversation and the subagents of `session`, folded from its events. A new session (/clear,
 * /resume) re-subscribes and starts with no subagents. Events are applied in batches, at most one
 * UI update per frame: a model streams hundreds of deltas a second (a few children at once, even
 * more), and each React commit costs a full layout. Both states take the same batch in the same
 * tick, so an agent row is committed with its child's final numbers.
 */
export function useSessionState(session: AgentSession): {
  conversation: ConversationState;
  dispatch: Dispatch<ConversationAction>;
  subagents: SubagentsState;
} {
  const [conversation, dispatch] = useReducer(conversationReducer, undefined, initialConversation);
  const [subagents, dispatchSubagents] = useReducer(subagentsReducer, undefined, initialSubagents);

  useEffect(() => {
    dispatchSubagents({ type: 'reset' });
    let pending: SessionEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const events = pending;
      pending = [];
      dispatch({ type: 'events', events });
      dispatchSubagents({ type: 'events', events, now: Date.now() });
    };
    const unsubscribe = session.subscribe((event) => {
      pending.push(event);
      timer ??= setTimeout(flush, FRAME_MS);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
      if (pending.length > 0) flush();
    };
  }, [session]);

  return { conversation, dispatch, subagents };
}
