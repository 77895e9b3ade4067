import { spawn } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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
 * session id, turns, tokens and cost as structured content. Cancelling the call ends the run.
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
    },
    async (args, extra) => {
      const argv = [options.seekBin, '-p', args.prompt, '--output-format', 'json', ...options.modeFlags];
      if (args.model) argv.push('--model', args.model);
      if (args.max_turns) argv.push('--max-turns', String(args.max_turns));
      if (args.resume) argv.push('--resume', args.resume);
      const run = await runChild(argv, options, extra.signal);
      let result: Record<string, unknown> | undefined;
      try {
        result = JSON.parse(run.stdout) as Record<string, unknown>;
      } catch {
        result = undefined;
      }
      if (!result) {
        return { content: [{ type: 'text', text: `seek failed (exit ${run.code}): ${run.stderr.trim() || 'no output'}` }], isError: true };
      }
      const text = typeof result.result === 'string' && result.result !== '' ? result.result : '(no answer)';
      const structured = {
        session_id: result.session_id,
        num_turns: result.num_turns,
        total_cost_usd: result.total_cost_usd,
        usage: result.usage,
        subtype: result.subtype,
      };
      return { content: [{ type: 'text', text }], structuredContent: structured, isError: result.is_error === true };
    },
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
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
