import type { ZodType } from 'zod';
import { zod } from '../util/zod.js';
import type { ToolSchema } from '../providers/types.js';
import type { Tool } from './types.js';

/**
 * The JSON schema the model sees for a tool: its precomputed `parameters` (built-in tools, see
 * src/tools/tool-schemas.generated.ts), else derived from its zod schema. Computed once per
 * session and reused by reference, so every request carries byte-identical tool definitions.
 */
export function toToolSchema(tool: Tool): ToolSchema {
  return { name: tool.name, description: tool.description, parameters: tool.parameters ?? jsonParameters(tool.schema) };
}

export function toToolSchemas(tools: readonly Tool[]): ToolSchema[] {
  return tools.map(toToolSchema);
}

/** A zod schema as the model sees it (also what `npm run gen:tool-schemas` writes for built-in tools). */
export function jsonParameters(schema: ZodType): Record<string, unknown> {
  const json = zod().toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  // `additionalProperties: false` (zod's strict objects) costs ~29 bytes per tool in every request
  // and guides no model: validation still rejects unknown keys, and argument-repair renames the
  // usual aliases (file_path for path).
  if (json.additionalProperties === false) delete json.additionalProperties;
  return json;
}
