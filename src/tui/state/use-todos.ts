import { useEffect, useState } from 'react';
import type { TodoItem } from '../../agent/types.js';
import type { AgentSession } from '../../runtime/session.js';

/** The session's todo list, updated whenever todo_write replaces it. */
export function useTodos(session: AgentSession): readonly TodoItem[] {
  const [items, setItems] = useState<readonly TodoItem[]>(() => session.todos.get());
  useEffect(() => {
    setItems(session.todos.get());
    return session.todos.subscribe(() => setItems(session.todos.get()));
  }, [session]);
  return items;
}
