import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runLoop } from '../../../src/agent/loop.js';
import { unwrapProxyCall } from '../../../src/agent/tool-proxy.js';
import type { AgentEvent, BeforeToolCall, Tool } from '../../../src/agent/types.js';
import type { Message, ToolResultMessage } from '../../../src/providers/types.js';
import { ALWAYS_DECLARED, declareTools, type DeferredToolSource } from '../../../src/tools/on-demand.js';
import { fakeStream, type FakeReply } from '../../support/fake-stream.js';
import { makeCtx, tempDir } from './helpers.js';

/** A tool that answers with its name and arguments. */
function echoTool(name: string, summary?: string): Tool<{ text: string }> {
  return {
    name,
    description: `The ${name} tool. It echoes.`,
    ...(summary ? { summary } : {}),
    schema: z.object({ text: z.string() }).strict(),
    readOnly: false,
    execute: (args) => Promise.resolve({ content: `${name}: ${args.text}` }),
  };
}

const core = ALWAYS_DECLARED.map((name) => echoTool(name));
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

describe('unwrapProxyCall', () => {
  it('turns a call_tool call into the call it stands for, with the same id', () => {
    expect(unwrapProxyCall({ id: 'c1', name: 'call_tool', arguments: '{"name":"agent","arguments":{"prompt":"x"}}' })).toEqual({ id: 'c1', name: 'agent', arguments: '{"prompt":"x"}' });
    expect(unwrapProxyCall({ id: 'c2', name: 'call_tool', arguments: '{"name":"todo_write"}' })).toEqual({ id: 'c2', name: 'todo_write', arguments: '{}' });
    // Inner arguments sent as JSON text are passed on as they are.
    expect(unwrapProxyCall({ id: 'c3', name: 'call_tool', arguments: '{"name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}' })).toEqual({ id: 'c3', name: 'bash', arguments: '{"command":"ls"}' });
  });

  it('leaves other calls, and proxy calls it cannot read, unchanged', () => {
    const direct = { id: 'd', name: 'agent', arguments: '{}' };
    expect(unwrapProxyCall(direct)).toBe(direct);
    for (const text of ['not json', '[]', '{"arguments":{}}', '{"name":""}', '{"name":3}']) {
      const call = { id: 'p', name: 'call_tool', arguments: text };
      expect(unwrapProxyCall(call)).toBe(call);
    }
  });
});

describe('declareTools', () => {
  const source: DeferredToolSource = {
    catalog: 'MCP servers fs (search by words)',
    replaces: ['mcp_call'],
    search: (query) => Promise.resolve(query.includes('read') ? 'mcp__fs__read: reads' : undefined),
    resolve: (name) => (name.startsWith('mcp__fs__') ? echoTool(name) : undefined),
  };

  it('declares the common tools, tool_search and call_tool, and lists the rest in the catalog, grouped by summary', () => {
    const tools = [...core, echoTool('todo_write', 'task plan'), echoTool('memory_recall', 'project memory'), echoTool('memory_amend', 'project memory'), echoTool('odd')];
    const set = declareTools(tools);
    expect(names(set.toolSchemas)).toEqual([...ALWAYS_DECLARED, 'tool_search', 'call_tool']);
    expect(names(set.tools)).toEqual([...ALWAYS_DECLARED, 'tool_search', 'call_tool', 'todo_write', 'memory_recall', 'memory_amend', 'odd']);
    expect(set.toolSchemas.find((tool) => tool.name === 'tool_search')!.description).toBe(
      "Load more tools' definitions (query: names or words) to call via call_tool: todo_write (task plan); memory_recall, memory_amend (project memory); odd (The odd tool).",
    );
    expect(set.resolveTool).toBeUndefined();
  });

  it('declares only the common tools when nothing else exists, and everything with all', () => {
    expect(names(declareTools(core).toolSchemas)).toEqual(ALWAYS_DECLARED);
    const all = declareTools([...core, echoTool('agent')], { all: true });
    expect(names(all.toolSchemas)).toEqual([...ALWAYS_DECLARED, 'agent']);
  });

  it('keeps the tools a source replaces callable but out of the catalog, and resolves the source\'s own names', () => {
    const set = declareTools([...core, echoTool('mcp_call')], { sources: [source] });
    const search = set.toolSchemas.find((tool) => tool.name === 'tool_search')!;
    expect(search.description).toMatch(/to call via call_tool: MCP servers fs \(search by words\)\.$/);
    expect(names(set.tools)).toContain('mcp_call');
    expect(set.resolveTool!('mcp__fs__read')!.name).toBe('mcp__fs__read');
    expect(set.resolveTool!('nope')).toBeUndefined();
  });

  it('tool_search returns full definitions by name, ranks by words, asks the sources, and says when nothing matches', async () => {
    const set = declareTools([...core, echoTool('todo_write', 'task plan'), echoTool('agent', 'subagents'), echoTool('mcp_call')], { sources: [source] });
    const search = set.tools.find((tool) => tool.name === 'tool_search')!;
    const ctx = makeCtx(tempDir());
    const byName = await search.execute({ query: 'agent' }, ctx);
    expect(byName.content).toBe(
      '{"name":"agent","description":"The agent tool. It echoes.","parameters":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}\n\nCall them with call_tool {"name", "arguments"}.',
    );
    const byWords = await search.execute({ query: 'plan read' }, ctx);
    expect(byWords.content).toMatch(/^\{"name":"todo_write".*\n\nmcp__fs__read: reads\n\nCall them/s);
    const none = await search.execute({ query: 'frobnicate' }, ctx);
    expect(none.isError).toBe(true);
    expect(none.content).toMatch(/^No tool matches "frobnicate"\. Tools: todo_write \(task plan\); agent \(subagents\); MCP servers fs/);
  });
});

describe('the loop with tools on demand', () => {
  function run(replies: FakeReply[], beforeToolCall?: BeforeToolCall) {
    const set = declareTools([...core, echoTool('agent', 'subagents')]);
    const stream = fakeStream(replies);
    const events: AgentEvent[] = [];
    const history: Message[] = [];
    const done = runLoop({
      stream,
      model: 'm',
      system: 's',
      tools: set.tools,
      toolSchemas: set.toolSchemas,
      history,
      input: { role: 'user', content: 'go' },
      maxTurns: 10,
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
      cwd: process.cwd(),
      projectRoot: process.cwd(),
      ...(beforeToolCall ? { beforeToolCall } : {}),
    });
    return { done, stream, events, history, set };
  }

  it('runs a proxied call as the real tool: events, gate and result carry its name and arguments; the history keeps the proxy call', async () => {
    const gated: string[] = [];
    const { done, stream, events, history, set } = run(
      [{ toolCalls: [{ id: 'c1', name: 'call_tool', arguments: { name: 'agent', arguments: { text: 'hi' } } }] }, { text: 'ok' }],
      ({ toolCall, tool, args }) => (gated.push(`${toolCall.name} ${tool.name} ${JSON.stringify(args)}`), Promise.resolve({ allow: true })),
    );
    await done;
    expect(gated).toEqual(['agent agent {"text":"hi"}']);
    const start = events.find((event) => event.type === 'tool_start');
    expect(start?.type === 'tool_start' && start.toolCall).toEqual({ id: 'c1', name: 'agent', arguments: '{"text":"hi"}' });
    const result = history.find((message): message is ToolResultMessage => message.role === 'tool')!;
    expect(result).toMatchObject({ toolCallId: 'c1', toolName: 'agent', content: 'agent: hi', isError: false });
    const assistant = history.find((message) => message.role === 'assistant');
    expect(assistant?.role === 'assistant' && assistant.toolCalls[0]!.name).toBe('call_tool');
    // Both requests declare the same schemas, by reference.
    expect(stream.requests[1]!.tools).toBe(set.toolSchemas);
  });

  it('refuses call_tool calling itself, and answers bad arguments with the parameters', async () => {
    const { done, history } = run([
      {
        toolCalls: [
          { id: 'a', name: 'call_tool', arguments: { name: 'call_tool', arguments: { name: 'agent' } } },
          { id: 'b', name: 'call_tool', arguments: { name: 'agent', arguments: { txt: 1 } } },
        ],
      },
      { text: 'ok' },
    ]);
    await done;
    const [self, bad] = history.filter((message): message is ToolResultMessage => message.role === 'tool');
    expect(self).toMatchObject({ isError: true, content: 'call_tool calls another tool: give its name (from tool_search) and its arguments, not "agent".' });
    expect(bad!.isError).toBe(true);
    expect(bad!.content).toMatch(/^Invalid arguments for agent: .* Its parameters: \{"type":"object","properties":\{"text":\{"type":"string"\}\},"required":\["text"\]\}$/);
  });
});
