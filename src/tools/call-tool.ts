import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { CALL_TOOL, TOOL_SEARCH } from '../agent/tool-proxy.js';
import type { Tool } from '../agent/types.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

// No property descriptions: this schema is in every request, and the description says it all.
export const callToolSchema = lazySchema((z) =>
  z
    .object({
      name: z.string(),
      // An open object; the meta override keeps zod's propertyNames/additionalProperties noise out.
      arguments: z.record(z.string(), z.unknown()).meta({ propertyNames: undefined, additionalProperties: undefined }).optional(),
    })
    .strict(),
);

/**
 * call_tool: the proxy through which the model calls a tool it loaded with tool_search. It is
 * declared from the first request so the declared set never changes; the dispatcher runs a call
 * of it as the call it stands for (src/agent/tool-proxy.ts), so this tool's own `execute` is
 * reached only by a call that names no tool, or names call_tool itself.
 */
export function createCallTool(): Tool<z.infer<ReturnType<typeof callToolSchema>>> {
  return {
    name: CALL_TOOL,
    description: `Call a tool loaded with ${TOOL_SEARCH}.`,
    parameters: TOOL_PARAMETERS.call_tool,
    get schema() {
      return callToolSchema();
    },
    readOnly: true,
    execute(args) {
      return Promise.resolve({ content: `${CALL_TOOL} calls another tool: give its name (from ${TOOL_SEARCH}) and its arguments, not "${args.name}".`, isError: true });
    },
  };
}
