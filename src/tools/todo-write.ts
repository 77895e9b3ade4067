import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { TodoItem, Tool, ToolResult } from '../agent/types.js';
import { createTodoStore, type TodoStore } from './todo-store.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export { createTodoStore, type TodoStore } from './todo-store.js';

export const todoWriteSchema = lazySchema((z) =>
  z
    .object({
      items: z.array(
        z
          .object({
            content: z.string().min(1),
            status: z.enum(['pending', 'in_progress', 'completed']),
          })
          .strict(),
      ),
    })
    .strict(),
);

export type TodoWriteArgs = z.infer<ReturnType<typeof todoWriteSchema>>;

export interface TodoWriteToolDeps {
  store?: TodoStore;
}

/** todo_write: replaces the session's todo list. Needs no permission, so it has no describe(). */
export function createTodoWriteTool(deps: TodoWriteToolDeps = {}): Tool<TodoWriteArgs> {
  const store = deps.store ?? createTodoStore();
  return {
    name: 'todo_write',
    summary: 'task plan',
    description: 'Replace your todo list for multi-step work. Send the full list each time; at most one item in_progress.',
    parameters: TOOL_PARAMETERS.todo_write,
    get schema() {
      return todoWriteSchema();
    },
    readOnly: false,
    execute: async (args) => writeTodos(args.items, store),
  };
}

const MARKS: Record<TodoItem['status'], string> = { completed: '[x]', in_progress: '[>]', pending: '[ ]' };

function writeTodos(items: TodoItem[], store: TodoStore): ToolResult {
  const active = items.filter((item) => item.status === 'in_progress');
  if (active.length > 1) {
    return {
      content:
        `${active.length} items are in_progress (${active.map((item) => JSON.stringify(item.content)).join(', ')}); at most one may be. ` +
        'Mark the others pending or completed and call todo_write again. The list was not changed.',
      isError: true,
    };
  }
  store.set(items);
  const current = store.get();
  if (current.length === 0) return { content: 'Todo list cleared.', display: { kind: 'todos', items: current } };
  const count = (status: TodoItem['status']): number => current.filter((item) => item.status === status).length;
  const summary =
    `${current.length} ${current.length === 1 ? 'todo' : 'todos'}: ` +
    `${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending`;
  const list = current.map((item) => `${MARKS[item.status]} ${item.content}`).join('\n');
  return { content: `${summary}\n${list}`, display: { kind: 'todos', items: current } };
}
