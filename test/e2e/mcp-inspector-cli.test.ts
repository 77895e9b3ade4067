/**
 * `seek mcp serve` against the real MCP Inspector CLI (@modelcontextprotocol/inspector-cli, the
 * `npx @modelcontextprotocol/inspector --cli` users run): every list method the Inspector offers
 * exits 0 with the JSON shape it prints, `tools/call` of the `seek` tool brings the scripted model's
 * answer back, and a run whose write the policy refused comes back with `isError: true`.
 * The Inspector reads its own package.json relative to the current directory, so it runs from its
 * build directory, and reaches the project through `sh -c "cd <project> && exec …"`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, SEEK_BIN } from '../support/seek-process.js';

const suite = useScriptedServer();
const INSPECTOR_DIR = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build');

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The Inspector CLI with `flags` against `seek mcp serve` in `root` (asynchronous: the scripted
 * model server answers from this process). */
function inspect(root: string, home: string, flags: string[]): Promise<InspectorRun> {
  const target = ['sh', '-c', `cd '${root}' && exec '${process.execPath}' '${SEEK_BIN}' mcp serve`];
  const child = spawn(process.execPath, [join(INSPECTOR_DIR, 'index.js'), ...target, ...flags], {
    cwd: INSPECTOR_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...suite.env(home) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** What the Inspector printed, parsed (it prints the result as JSON); the run's output on failure. */
function printed(run: InspectorRun): Record<string, unknown> {
  expect(run.code, `inspector exited ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe('seek mcp serve (the MCP Inspector CLI)', () => {
  it('lists tools, resources, resource templates and prompts, each exiting 0 with its JSON shape', async () => {
    const { root, home } = makeProject();
    const tools = printed(await inspect(root, home, ['--method', 'tools/list'])) as { tools: Array<{ name: string; inputSchema: { properties: Record<string, unknown> }; outputSchema?: { type: string } }> };
    expect(tools.tools.map((tool) => tool.name)).toEqual(['seek']);
    expect(Object.keys(tools.tools[0]!.inputSchema.properties)).toContain('prompt');
    expect(tools.tools[0]!.outputSchema?.type).toBe('object');
    expect(printed(await inspect(root, home, ['--method', 'resources/list']))).toEqual({ resources: [] });
    expect(printed(await inspect(root, home, ['--method', 'resources/templates/list']))).toEqual({ resourceTemplates: [] });
    expect(printed(await inspect(root, home, ['--method', 'prompts/list']))).toEqual({ prompts: [] });
  }, 180_000);

  it('tools/call of the seek tool returns the model answer, and a refused write as isError: true', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'Hello from the scripted model.' });
    const answer = printed(await inspect(root, home, ['--method', 'tools/call', '--tool-name', 'seek', '--tool-arg', 'prompt=say hello'])) as {
      content: Array<{ type: string; text: string }>;
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
    };
    expect(answer.isError).toBeFalsy();
    expect(answer.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Hello from the scripted model.') });
    expect(answer.structuredContent).toMatchObject({ subtype: 'success', num_turns: 1, permission_denials: [] });
    expect(String(suite.server.requests.at(-1)!.body.messages.at(-1).content)).toContain('say hello');

    // The headless default refuses writes: the run ends, and its result is an error.
    suite.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }, { text: 'I could not write a.txt.' });
    const refused = printed(await inspect(root, home, ['--method', 'tools/call', '--tool-name', 'seek', '--tool-arg', 'prompt=write a.txt'])) as {
      content: Array<{ type: string; text: string }>;
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
    };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/refused 1 action\(s\)[\s\S]*write_file: /);
    expect(refused.structuredContent).toMatchObject({ permission_denials: [{ tool: 'write_file' }] });
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
  }, 180_000);
});
