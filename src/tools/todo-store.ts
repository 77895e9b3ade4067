import type { TodoItem } from '../agent/types.js';

/**
 * The session's todo list, owned outside the tool so front ends can show it and a resumed session
 * can restore it. `todo_write` replaces the whole list; listeners hear about every replacement.
 */
export interface TodoStore {
  /** A copy of the current list. */
  get(): TodoItem[];
  /** Replaces the list and notifies listeners. */
  set(items: readonly TodoItem[]): void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: (items: TodoItem[]) => void): () => void;
}

export function createTodoStore(initial: readonly TodoItem[] = []): TodoStore {
  let items: TodoItem[] = initial.map((item) => ({ ...item }));
  const listeners = new Set<(items: TodoItem[]) => void>();
  const snapshot = (): TodoItem[] => items.map((item) => ({ ...item }));
  return {
    get: snapshot,
    set(next) {
      items = next.map((item) => ({ content: item.content, status: item.status }));
      for (const listener of [...listeners]) listener(snapshot());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
