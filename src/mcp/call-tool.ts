import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { z } from 'zod';
import type { Tool } from '../agent/types.js';
import type { McpManager } from './manager.js';
import { mcpErrorText } from './errors.js';
import { toToolResult } from './results.js';

// `name`, as call_tool and every other tool take it; `tool` (the original parameter) still works.
const schema = z
  .object({
    name: z.string().optional().describe('Full name from mcp_search: mcp__<server>__<tool>'),
    tool: z.string().optional().describe('Same as name (older spelling)'),
    arguments: z.record(z.string(), z.unknown()).optional().describe('Its parameters'),
  })
  .strict()
  .refine((args) => (args.name ?? args.tool) !== undefined, { message: 'name: give the tool\'s full name, mcp__<server>__<tool>' });

type Args = z.infer<typeof schema>;

/** The tool a call names (`name`, else `tool`). */
function toolOf(args: Args): string {
  return args.name ?? args.tool ?? '';
}

/** Built on the first call (Ajv is costly to load), never at start-up. */
let validator: Promise<AjvJsonSchemaValidator> | undefined;
function inputValidator(): Promise<AjvJsonSchemaValidator> {
  validator ??= import('@modelcontextprotocol/sdk/validation/ajv').then((module) => new module.AjvJsonSchemaValidator());
  return validator;
}

export interface McpToolOptions {
  /** For read-only agents (explore, plan): only tools whose server marks them readOnlyHint. */
  readOnlyOnly?: boolean;
}

/**
 * mcp_call: calls one MCP tool. For permission rules and hooks the call goes by the tool's own
 * name (`mcp__github__create_issue`, matched by rules such as `mcp__github__*`), and it is asked
 * like any action that is not a read: a server's readOnlyHint alone does not make a tool safe.
 * Arguments are checked against the tool's JSON Schema before anything reaches the server.
 */
export function createMcpCallTool(manager: McpManager, options: McpToolOptions = {}): Tool<Args> {
  return {
    name: 'mcp_call',
    description: 'Call an MCP tool by its full name with its parameters (load them with mcp_search first).',
    schema,
    readOnly: false,
    callName: (args) => toolOf(args),
    async describe(args) {
      const found = await manager.find(toolOf(args));
      const readOnlyHint = !('error' in found) && found.info.annotations?.readOnlyHint === true;
      return { kind: 'other', paths: [], summary: `${toolOf(args)} ${preview(args.arguments)}`.trim(), ...(readOnlyHint ? { readOnlyHint } : {}) };
    },
    async execute(args, ctx) {
      const found = await manager.find(toolOf(args));
      if ('error' in found) return { content: found.error, isError: true };
      if (options.readOnlyOnly && found.info.annotations?.readOnlyHint !== true) {
        return { content: `${found.name} is not marked read-only by its server; this agent may call only read-only MCP tools.`, isError: true };
      }
      const input = args.arguments ?? {};
      const check = (await inputValidator()).getValidator(found.info.inputSchema as JsonSchemaType)(input);
      if (!check.valid) {
        return { content: `Invalid arguments for ${found.name}: ${check.errorMessage}. Its parameters: ${JSON.stringify(found.info.inputSchema)}`, isError: true };
      }
      try {
        const result = await found.connection.callTool(found.info.name, input, ctx.signal, (text) => ctx.onUpdate?.(`${text}\n`));
        return toToolResult(found.server, found.info.name, result);
      } catch (error) {
        if (ctx.signal.aborted) return { content: `Interrupted: ${found.name} was cancelled.`, isError: true };
        const message = mcpErrorText(error);
        const timedOut = /timed out|timeout/i.test(message);
        return {
          content: timedOut
            ? `${found.name} did not answer within ${found.connection.callTimeoutMs} ms; the call was abandoned (set "timeout_ms" for server ${found.server} to allow longer).`
            : `${found.name} failed: ${message}`,
          isError: true,
        };
      }
    },
  };
}

function preview(args: Record<string, unknown> | undefined): string {
  if (!args || Object.keys(args).length === 0) return '';
  const text = JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
