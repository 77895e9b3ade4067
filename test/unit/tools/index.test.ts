import { describe, expect, it } from 'vitest';
import { toToolSchemas } from '../../../src/agent/tool-schema.js';
import { createCoreTools, createTodoStore, READ_ONLY_TOOL_NAMES } from '../../../src/tools/index.js';
import { makeCtx, tempDir } from './helpers.js';

/** The system prompt and the tools must fit in 8 KB together; the tools get 4.5 KB of it. */
const TOOL_SCHEMA_BUDGET_BYTES = 4.5 * 1024;

describe('createCoreTools', () => {
  it('returns the nine core tools in the fixed order', () => {
    expect(createCoreTools({}).map((tool) => tool.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'bash',
      'glob',
      'grep',
      'list_dir',
      'git',
      'todo_write',
    ]);
  });

  it('marks exactly the read-only tools as readOnly', () => {
    const readOnly = createCoreTools({}).filter((tool) => tool.readOnly).map((tool) => tool.name);
    expect(readOnly).toEqual([...READ_ONLY_TOOL_NAMES]);
  });

  it(`keeps the schemas the model sees under ${TOOL_SCHEMA_BUDGET_BYTES} bytes`, () => {
    const json = JSON.stringify(toToolSchemas(createCoreTools({})));
    const bytes = Buffer.byteLength(json);
    console.log(`core tool schemas: ${bytes} bytes`);
    expect(bytes).toBeLessThan(TOOL_SCHEMA_BUDGET_BYTES);
    expect(json).not.toContain('9007199254740991');
  });

  it('uses the given todo store', async () => {
    const todoStore = createTodoStore();
    const todo = createCoreTools({ todoStore }).find((tool) => tool.name === 'todo_write')!;
    await todo.execute({ items: [{ content: 'x', status: 'pending' }] }, makeCtx(tempDir()));
    expect(todoStore.get()).toEqual([{ content: 'x', status: 'pending' }]);
  });

  it('gives every tool with describe() absolute paths', async () => {
    const cwd = tempDir();
    const samples: Record<string, unknown> = {
      read_file: { path: 'a' },
      write_file: { path: 'a', content: '' },
      edit_file: { path: 'a', old_string: 'x', new_string: 'y' },
      bash: { command: 'true' },
      glob: { pattern: '*' },
      grep: { pattern: 'x' },
      list_dir: {},
      git: { subcommand: 'status' },
    };
    for (const tool of createCoreTools({})) {
      if (!tool.describe) continue;
      const request = await tool.describe(tool.schema.parse(samples[tool.name]), makeCtx(cwd));
      for (const p of request.paths) expect(p.startsWith('/')).toBe(true);
    }
  });
});
