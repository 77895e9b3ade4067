import { spawn } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SEEK_VERSION } from '../util/version.js';

export interface ServeOptions {
  /** The seek launcher (bin/seek.js) each call runs. */
  seekBin: string;
  /** The project every call works in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Permission flags every call gets (`--auto`, `--yolo`); none means headless defaults (deny). */
  modeFlags: string[];
}

/**
 * `seek mcp serve`: seek as an MCP server over stdio, so other agents and editors can delegate to
 * it. One tool, `seek`: runs a prompt headless in this project (a fresh `seek -p` process each
 * call, with the permission mode `serve` was started with) and returns the answer, with the
 * session id, turns, tokens and cost as structured content (declared by an output schema).
 * Cancelling the call ends the run. A run in which seek was refused an action (the permission
 * mode, a rule, a hook) is an error result (`isError: true`) naming the refusals: the caller must
 * not take an answer about work that was never done for success. `resources/list`,
 * `resources/templates/list` and `prompts/list` answer empty lists: clients (the Inspector) list
 * them unconditionally, and -32601 made them fail.
 */
export async function serveMcp(options: ServeOptions): Promise<void> {
  const server = new McpServer({ name: 'seek', version: SEEK_VERSION });
  server.registerTool(
    'seek',
    {
      title: 'seek coding agent',
      description: `Run a task with the seek coding agent in ${options.cwd} and return its answer and cost. Permission mode: ${options.modeFlags.join(' ') || 'headless default (actions that need approval are denied)'}.`,
      inputSchema: {
        prompt: z.string().min(1).describe('The task, as you would type it to seek'),
        model: z.string().optional().describe('Model to use instead of the configured one'),
        max_turns: z.number().int().positive().optional(),
        resume: z.string().optional().describe('A session id from an earlier call, to continue it'),
      },
      outputSchema: {
        session_id: z.string().optional().describe('Pass as `resume` to continue this session'),
        num_turns: z.number().optional(),
        total_cost_usd: z.number().nullable().optional().describe('null when the model\'s prices are unknown'),
        usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number(), cache_read_input_tokens: z.number() }).partial().optional(),
        subtype: z.string().optional().describe('success, error_max_turns, error_max_budget_usd or error'),
        permission_denials: z
          .array(z.object({ tool: z.string(), reason: z.string() }))
          .describe('Actions seek was refused during the run (then isError is true)'),
      },
    },
    async (args, extra) => {
      const argv = [options.seekBin, '-p', args.prompt, '--output-format', 'stream-json', ...options.modeFlags];
      if (args.model) argv.push('--model', args.model);
      if (args.max_turns) argv.push('--max-turns', String(args.max_turns));
      if (args.resume) argv.push('--resume', args.resume);
      const run = await runChild(argv, options, extra.signal);
      const { result, denials } = readStream(run.stdout);
      if (!result) {
        return { content: [{ type: 'text', text: `seek failed (exit ${run.code}): ${run.stderr.trim() || 'no output'}` }], isError: true };
      }
      const answer = typeof result.result === 'string' && result.result !== '' ? result.result : '(no answer)';
      const structured = {
        session_id: result.session_id,
        num_turns: result.num_turns,
        total_cost_usd: result.total_cost_usd,
        usage: result.usage,
        subtype: result.subtype,
        permission_denials: denials,
      };
      const refused = denials.map((denial) => `- ${denial.tool}: ${denial.reason}`).join('\n');
      const text = denials.length > 0 ? `${answer}\n\n[seek was refused ${denials.length} action(s); serve with --auto or --yolo, or allow them with permission rules]\n${refused}` : answer;
      return { content: [{ type: 'text', text }], structuredContent: structured, isError: result.is_error === true || denials.length > 0 };
    },
  );
  // No resources or prompts of its own: empty lists rather than "method not found".
  server.server.registerCapabilities({ resources: {}, prompts: {} });
  server.server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}

/**
 * The child's stream-json output: its final result object, and the calls the gate refused
 * (`tool_end` events marked `denied`).
 */
function readStream(stdout: string): { result: Record<string, unknown> | undefined; denials: Array<{ tool: string; reason: string }> } {
  let result: Record<string, unknown> | undefined;
  const denials: Array<{ tool: string; reason: string }> = [];
  for (const line of stdout.split('\n')) {
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (event.type === 'result') result = event;
    if (event.type === 'tool_end' && event.denied === true) denials.push({ tool: String(event.name), reason: String(event.content) });
  }
  return { result, denials };
}

function runChild(argv: string[], options: ServeOptions, signal: AbortSignal): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const abort = (): void => {
      child.kill('SIGINT');
    };
    signal.addEventListener('abort', abort, { once: true });
    child.on('close', (code) => {
      signal.removeEventListener('abort', abort);
      resolve({ code: code ?? 1, stdout, stderr });
    });
    child.on('error', (error) => resolve({ code: 1, stdout, stderr: `${stderr}${error.message}` }));
  });
}
