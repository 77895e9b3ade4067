import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonParameters, toToolSchema } from '../../../src/agent/tool-schema.js';
import type { Tool } from '../../../src/agent/types.js';
import type { SessionMemory } from '../../../src/memory/session-memory.js';
import { createCallTool } from '../../../src/tools/call-tool.js';
import { createCoreTools, createEnterWorktreeTool, createExitWorktreeTool } from '../../../src/tools/index.js';
import { createMemoryTools } from '../../../src/tools/memory-tools.js';
import { createSkillTool } from '../../../src/extensions/skill-tool.js';
import { STATIC_TOOL_SCHEMAS } from '../../../src/tools/tool-schema-sources.js';
import { createToolSearchTool } from '../../../src/tools/tool-search.js';
import { createWebTools } from '../../../src/tools/web-tools.js';
import { GENERATED_FILE, generatedToolSchemas } from '../../../scripts/gen-tool-schemas.js';

const STALE = 'src/tools/tool-schemas.generated.ts is stale: run `npm run gen:tool-schemas` and commit the result';

/** Every built-in tool whose parameters no option changes (the memory tools never touch `memory`
 * until they run). */
function builtInTools(): Tool[] {
  const unusedMemory = {} as SessionMemory;
  const unused = () => Promise.reject(new Error('not run'));
  return [
    ...createCoreTools({}),
    createToolSearchTool([], []) as Tool,
    createCallTool() as Tool,
    createEnterWorktreeTool({ enter: unused }) as Tool,
    createExitWorktreeTool({ exit: unused, projectRoot: () => '/' }) as Tool,
    ...createMemoryTools(unusedMemory),
    createSkillTool({ skills: [] }) as Tool,
    ...createWebTools({ mayReachPrivate: () => false, config: {}, configFile: '/config.json', env: {} }),
  ];
}

describe('tool-schemas.generated.ts', () => {
  it('is what `npm run gen:tool-schemas` writes from the tools’ zod schemas now', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8'), STALE).toBe(generatedToolSchemas());
  });

  it('covers every built-in tool with fixed parameters, each declaring its own zod schema’s bytes', () => {
    const tools = builtInTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(STATIC_TOOL_SCHEMAS).sort());
    for (const tool of tools) {
      expect(tool.parameters, `${tool.name} declares no precomputed parameters`).toBeDefined();
      expect(JSON.stringify(toToolSchema(tool).parameters), `${tool.name}: ${STALE}`).toBe(JSON.stringify(jsonParameters(tool.schema)));
    }
  });

  it('derives the parameters from zod for a tool without precomputed ones (MCP, agent, tests)', () => {
    const tool: Tool = {
      name: 'custom',
      description: 'A tool.',
      schema: z.object({ n: z.number().int().min(0).optional() }).strict(),
      readOnly: true,
      execute: () => Promise.resolve({ content: '' }),
    };
    expect(toToolSchema(tool).parameters).toEqual({ type: 'object', properties: { n: { type: 'integer', minimum: 0, maximum: 9007199254740991 } } });
  });
});
