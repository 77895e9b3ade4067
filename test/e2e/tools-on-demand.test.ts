/**
 * Tools on demand, end to end (src/tools/on-demand.ts): the real seek against the scripted model.
 * The first request declares the common tools plus tool_search (the catalog) and call_tool (the
 * proxy); a tool loaded with tool_search and called through call_tool runs as itself for
 * permissions, events and children; every request extends the previous one byte for byte.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalPrompt, type RecordedRequest } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const suite = useScriptedServer();
const env = (home: string, extra: Record<string, string> = {}) => suite.env(home, extra);

interface WireTool {
  function: { name: string; description: string };
}
const declared = (request: RecordedRequest): string[] => (request.body.tools as WireTool[]).map((tool) => tool.function.name);
const catalog = (request: RecordedRequest): string => (request.body.tools as WireTool[]).find((tool) => tool.function.name === 'tool_search')!.function.description;
const isChild = (request: RecordedRequest): boolean => String(request.body.messages[0]?.content ?? '').includes('\n# Subagent\n');
const toolMessages = (request: RecordedRequest): Array<{ role: string; content: string }> =>
  (request.body.messages as Array<{ role: string; content: string }>).filter((message) => message.role === 'tool');

/** Every request after the first starts with the previous request's bytes (tools, system, messages). */
function expectPrefixExtension(requests: RecordedRequest[]): void {
  const prompts = requests.map(canonicalPrompt);
  for (let n = 1; n < prompts.length; n++) expect(prompts[n]!.startsWith(prompts[n - 1]!), `request ${n} extends request ${n - 1}`).toBe(true);
}

const CORE = ['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git'];

describe('tools on demand', () => {
  it('the first request is under 6,000 bytes, declares the common tools and lists the others in a catalog', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'hello' });
    const run = await runSeek(['-p', 'say hello'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const first = suite.server.requests[0]!;
    expect(Buffer.byteLength(first.raw)).toBeLessThan(6000);
    expect(declared(first)).toEqual([...CORE, 'tool_search', 'call_tool']);
    for (const name of ['agent', 'delegate_tasks', 'todo_write', 'memory_observe', 'memory_recall', 'memory_archive', 'enter_worktree', 'exit_worktree']) {
      expect(catalog(first)).toMatch(new RegExp(`\\b${name}\\b`));
    }

    // SEEK_TOOLS=all declares everything, as before: the same tools, all in the first request.
    suite.server.reset();
    suite.server.enqueue({ text: 'hello' });
    const all = await runSeek(['-p', 'say hello'], { cwd: root, env: env(home, { SEEK_TOOLS: 'all' }) });
    expect(all.code).toBe(0);
    expect(declared(suite.server.requests[0]!)).toEqual(expect.arrayContaining([...CORE, 'agent', 'delegate_tasks', 'todo_write', 'memory_recall', 'enter_worktree']));
    expect(declared(suite.server.requests[0]!)).not.toContain('call_tool');
  });

  it('loads agent from the catalog and calls it through call_tool: the child runs, and stream-json shows agent, never the proxy', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { toolCalls: [{ name: 'tool_search', arguments: { query: 'agent' } }] },
      { toolCalls: [{ name: 'call_tool', arguments: { name: 'agent', arguments: { description: 'look around', prompt: 'list the files', subagent_type: 'explore' } } }] },
      { text: 'The repository holds README.md.' }, // the child's answer
      { toolCalls: [{ name: 'call_tool', arguments: { name: 'todo_write', arguments: { items: [{ content: 'report', status: 'in_progress' }] } } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'look around', '--output-format', 'stream-json'], { cwd: root, env: env(home) });
    expect(run.code, run.stderr).toBe(0);

    // The definition came back as a tool result, with the agent tool's parameters.
    const parents = suite.server.requests.filter((request) => !isChild(request));
    const loaded = toolMessages(parents[1]!)[0]!.content;
    expect(loaded).toContain('"name":"agent"');
    expect(loaded).toContain('"subagent_type"');

    // The child ran with its own (explore) tools, reached the same way.
    const child = suite.server.requests.find(isChild)!;
    expect(child.body.messages.at(-1).content).toBe('list the files');
    expect(declared(child)).toEqual(['read_file', 'glob', 'grep', 'list_dir', 'git', 'tool_search', 'call_tool']);
    expect(toolMessages(parents[2]!).at(-1)!.content).toContain('The repository holds README.md.');

    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const started = lines.filter((line) => line.type === 'tool_start' && line.sub_sid === undefined).map((line) => line.name);
    expect(started).toEqual(['tool_search', 'agent', 'todo_write']);
    expect(lines.filter((line) => line.type === 'tool_end' && line.sub_sid === undefined).map((line) => line.name)).toEqual(['tool_search', 'agent', 'todo_write']);
    expect(lines.some((line) => line.sub_sid !== undefined)).toBe(true);
    const messages = lines.filter((line) => line.type === 'message').map((line) => line.message as { role: string; name?: string; tool_calls?: Array<{ name: string }> });
    expect(messages.flatMap((message) => message.tool_calls?.map((call) => call.name) ?? [])).toEqual(['tool_search', 'agent', 'todo_write']);
    expect(messages.filter((message) => message.role === 'tool').map((message) => message.name)).toEqual(['tool_search', 'agent', 'todo_write']);
    expect(run.stdout).not.toContain('"name":"call_tool"');

    // The parent's requests and the child's each extend their predecessor byte for byte.
    expectPrefixExtension(parents);
    expect(parents.every((request) => request.raw.includes('"name":"call_tool"'))).toBe(true);
  });

  it('a direct call to a tool that is not declared runs too (models call a definition they have seen by name)', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ name: 'todo_write', arguments: { items: [{ content: 'x', status: 'pending' }] } }] }, { text: 'ok' });
    const run = await runSeek(['-p', 'plan'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const result = toolMessages(suite.server.requests[1]!)[0]!;
    expect(result.content).not.toMatch(/Unknown tool/);
  });

  it('permission rules apply to the tool a proxied call runs: a deny rule for Bash, and plan mode', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Bash'] } }));
    suite.server.enqueue({ toolCalls: [{ name: 'call_tool', arguments: { name: 'bash', arguments: { command: 'touch made.txt' } } }] }, { text: 'ok' });
    const denied = await runSeek(['-p', 'make it', '--yolo'], { cwd: root, env: env(home) });
    expect(denied.code).toBe(0);
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
    expect(toolMessages(suite.server.requests[1]!)[0]!.content).toMatch(/Bash/);

    suite.server.reset();
    writeFileSync(join(home, 'config.json'), '{}');
    suite.server.enqueue({ toolCalls: [{ name: 'call_tool', arguments: { name: 'write_file', arguments: { path: 'plan.txt', content: 'x' } } }] }, { text: 'ok' });
    const planned = await runSeek(['-p', 'write it', '--plan'], { cwd: root, env: env(home) });
    expect(planned.code).toBe(0);
    expect(existsSync(join(root, 'plan.txt'))).toBe(false);
    expect(toolMessages(suite.server.requests[1]!)[0]!.content).toMatch(/plan/i);
  });

  it('hooks see the tool a proxied call runs: a pre_tool hook on bash denies call_tool {name: bash}', async () => {
    const { root, home } = makeProject();
    mkdirSync(join(root, '.seek'));
    writeFileSync(join(root, '.seek/hooks.toml'), `[[pre_tool]]\nname = "no-bash"\ncommand = 'echo "no bash here"; exit 3'\nmatch = { tool = "bash" }\n`);
    expect((await runSeek(['hooks', 'trust'], { cwd: root, env: { SEEK_HOME: home } })).code).toBe(0);
    suite.server.enqueue({ toolCalls: [{ name: 'call_tool', arguments: { name: 'bash', arguments: { command: 'touch hooked' } } }] }, { text: 'stopped' });
    const run = await runSeek(['-p', 'run it', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, 'hooked'))).toBe(false);
    expect(toolMessages(suite.server.requests[1]!)[0]!.content).toContain('no bash here');
  });

  it('a proxied call with wrong arguments gets the tool\'s parameters back, and an unknown name the list of tools', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { toolCalls: [{ name: 'call_tool', arguments: { name: 'todo_write', arguments: { todo: 'x' } } }, { name: 'call_tool', arguments: { name: 'frobnicate', arguments: {} } }] },
      { text: 'ok' },
    );
    const run = await runSeek(['-p', 'go'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const [invalid, unknown] = toolMessages(suite.server.requests[1]!);
    expect(invalid!.content).toMatch(/^Invalid arguments for todo_write: .*Its parameters: \{"type":"object"/s);
    expect(unknown!.content).toMatch(/^Unknown tool "frobnicate"\. Available tools: .*\bagent\b/);
  });
});
