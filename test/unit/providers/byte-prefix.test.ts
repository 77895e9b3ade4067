import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProvider, type ProviderName } from '../../../src/providers/index.js';
import type { AssistantMessage, Message, Provider, ToolSchema } from '../../../src/providers/types.js';
import { canonicalPrompt, collect, ScriptedServer, type ScriptedReply } from '../../support/scripted-server/index.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterEach(() => server.reset());
afterAll(() => server.close());

/** Long enough that the simulated prefix cache has whole 64-token blocks to hit. */
const SYSTEM = `You are seek, a coding agent.\n${'Follow the project conventions. '.repeat(60)}`;
const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'grep', description: 'Search files', parameters: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] } },
];

const FIVE_TURNS: ScriptedReply[] = [
  { reasoning: 'Start by reading the entry point.', text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/main.ts' } }] },
  { reasoning: 'Two searches at once.', toolCalls: [{ name: 'grep', arguments: { pattern: 'TODO' } }, { name: 'grep', arguments: { pattern: 'FIXME' } }] },
  { text: 'Found two TODOs. Shall I fix them?' },
  { reasoning: 'Oops, bad JSON.', toolCalls: [{ name: 'read_file', arguments: '{"path": "src/a.ts"' }] },
  { text: 'Done: both fixed, résumé ✓.' },
];

/** Runs the five turns the way the loop would: append the answer, then tool results or a user turn. */
async function converse(provider: Provider, model: string): Promise<AssistantMessage[]> {
  const history: Message[] = [{ role: 'user', content: 'Fix the TODOs, please.' }];
  const answers: AssistantMessage[] = [];
  for (const reply of FIVE_TURNS) {
    server.enqueue(reply);
    const events = await collect(provider.stream({ model, system: SYSTEM, messages: history, tools: TOOLS }));
    const last = events.at(-1);
    if (last?.type !== 'done') throw new Error(`turn failed: ${JSON.stringify(last)}`);
    history.push(last.message);
    answers.push(last.message);
    for (const call of last.message.toolCalls) {
      history.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: `result of ${call.name}`, isError: false });
    }
    if (last.message.toolCalls.length === 0) history.push({ role: 'user', content: 'Go on.' });
  }
  return answers;
}

const CASES: { provider: ProviderName; baseUrl: () => string; model: string }[] = [
  { provider: 'deepseek', baseUrl: () => server.url, model: 'deepseek-v4-flash' },
  { provider: 'openai-compatible', baseUrl: () => server.openaiBaseUrl, model: 'qwen3-coder' },
  { provider: 'anthropic', baseUrl: () => server.anthropicBaseUrl, model: 'claude-sonnet-4-5' },
];

describe.each(CASES)('a five-turn conversation through $provider', ({ provider, baseUrl, model }) => {
  it('sends each prompt as a byte-prefix extension of the previous one, with valid structure', async () => {
    const answers = await converse(createProvider({ provider, apiKey: 'k', baseUrl: baseUrl() }), model);
    expect(server.violations).toEqual([]);
    expect(server.requests).toHaveLength(5);
    const prompts = server.requests.map(canonicalPrompt);
    for (let i = 1; i < prompts.length; i++) {
      expect(prompts[i]!.length).toBeGreaterThan(prompts[i - 1]!.length);
      expect(prompts[i]!.startsWith(prompts[i - 1]!), `request ${i + 1} does not extend request ${i}`).toBe(true);
    }
    const toolBytes = server.requests.map((r) => JSON.stringify(r.body.tools));
    expect(new Set(toolBytes).size).toBe(1);
    // The simulated provider cache hits from the second request on, and the hit grows.
    const hits = answers.map((a) => a.usage!.cacheReadTokens);
    expect(hits[0]).toBe(0);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!).toBeGreaterThanOrEqual(hits[i - 1]!);
    expect(hits[4]!).toBeGreaterThan(0);
    expect(answers[3]!.toolCalls[0]!.arguments).toBe('{"path": "src/a.ts"');
  });
});

describe('DeepSeek reasoning_content round trip', () => {
  const assistantsOf = (body: { messages: { role: string }[] }) => body.messages.filter((m) => m.role === 'assistant');

  it('sends every earlier answer back with its reasoning_content, byte for byte', async () => {
    const answers = await converse(createProvider({ provider: 'deepseek', apiKey: 'k', baseUrl: server.url }), 'deepseek-v4-pro');
    expect(answers[0]!.reasoning).toBe('Start by reading the entry point.');
    const lastBody = server.requests.at(-1)!.body;
    expect(assistantsOf(lastBody)).toEqual([
      expect.objectContaining({ reasoning_content: 'Start by reading the entry point.', content: 'Reading.' }),
      expect.objectContaining({ reasoning_content: 'Two searches at once.', content: null }),
      { role: 'assistant', content: 'Found two TODOs. Shall I fix them?' },
      expect.objectContaining({ reasoning_content: 'Oops, bad JSON.' }),
    ]);
    expect(server.violations).toEqual([]);
  });

  it('a generic OpenAI-compatible server that streamed reasoning_content gets it back with the tool-call turns only', async () => {
    await converse(createProvider({ provider: 'openai-compatible', apiKey: 'k', baseUrl: server.openaiBaseUrl }), 'local');
    const lastBody = server.requests.at(-1)!.body;
    expect(assistantsOf(lastBody).map((m) => (m as { reasoning_content?: string }).reasoning_content)).toEqual([
      'Start by reading the entry point.',
      'Two searches at once.',
      undefined,
      'Oops, bad JSON.',
    ]);
    expect(server.violations).toEqual([]);
  });

  it('a generic server whose model sent no reasoning gets no reasoning field', async () => {
    const provider = createProvider({ provider: 'openai-compatible', apiKey: 'k', baseUrl: server.openaiBaseUrl });
    const history: Message[] = [{ role: 'user', content: 'Read it.' }];
    server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }, { text: 'ok' });
    const first = (await collect(provider.stream({ model: 'local', system: SYSTEM, messages: history, tools: TOOLS }))).at(-1);
    if (first?.type !== 'done') throw new Error('turn failed');
    const call = first.message.toolCalls[0]!;
    history.push(first.message, { role: 'tool', toolCallId: call.id, toolName: call.name, content: 'x', isError: false });
    await collect(provider.stream({ model: 'local', system: SYSTEM, messages: history, tools: TOOLS }));
    expect(JSON.stringify(server.requests.at(-1)!.body)).not.toMatch(/"reasoning/);
  });
});
