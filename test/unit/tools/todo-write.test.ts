import { describe, expect, it } from 'vitest';
import type { TodoItem } from '../../../src/agent/types.js';
import { createTodoStore, createTodoWriteTool } from '../../../src/tools/todo-write.js';
import { makeCtx, run } from './helpers.js';

describe('todo_write', () => {
  it('replaces the store, notifies subscribers and summarises progress', async () => {
    const store = createTodoStore();
    const seen: TodoItem[][] = [];
    const unsubscribe = store.subscribe((items) => seen.push(items));
    const tool = createTodoWriteTool({ store });
    const items: TodoItem[] = [
      { content: 'read the code', status: 'completed' },
      { content: 'write the fix', status: 'in_progress' },
      { content: 'run the tests', status: 'pending' },
    ];
    const result = await run(tool, { items }, makeCtx('/tmp'));
    expect(result.content).toBe('3 todos: 1 completed, 1 in progress, 1 pending\n[x] read the code\n[>] write the fix\n[ ] run the tests');
    expect(result.display).toEqual({ kind: 'todos', items });
    expect(store.get()).toEqual(items);
    expect(seen).toEqual([items]);

    unsubscribe();
    await run(tool, { items: [] }, makeCtx('/tmp'));
    expect(store.get()).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('refuses two items in progress and keeps the old list', async () => {
    const store = createTodoStore([{ content: 'keep me', status: 'pending' }]);
    const tool = createTodoWriteTool({ store });
    const result = await run(
      tool,
      { items: [{ content: 'a', status: 'in_progress' }, { content: 'b', status: 'in_progress' }] },
      makeCtx('/tmp'),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain('at most one may be');
    expect(store.get()).toEqual([{ content: 'keep me', status: 'pending' }]);
    expect(tool.readOnly).toBe(false);
    expect(tool.describe).toBeUndefined();
  });

  it('rejects unknown statuses at validation', () => {
    const tool = createTodoWriteTool();
    expect(tool.schema.safeParse({ items: [{ content: 'x', status: 'done' }] }).success).toBe(false);
  });
});
