/**
 * Replays every recording in ../shared/wire-recordings and in test/fixtures/recordings (found ones,
 * sources in its manifest.json) through seek's real providers: the official
 * SDK talks to a loopback server that answers with the recorded bytes as the SSE body, and the
 * final message must hold what the recording says (text, reasoning, tool calls, stop reason, usage).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible.js';
import type { AssistantMessage, Message, ModelRequest, Provider, StreamEvent } from '../../src/providers/types.js';
import { collect } from '../support/scripted-server/index.js';
/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON */
import { foundCases, loadCase, RECORDINGS_DIR, recordingFiles, type ReplayCase } from './recordings.js';

const files = recordingFiles();
const found = foundCases();
const cases = [...files.map((file) => loadCase(file)), ...found.cases];
const paths = [...files, ...found.cases.map(() => '')];

let current: { status: number; body: string; contentType: string } = { status: 200, body: '', contentType: 'text/event-stream' };
/** The request bodies the loopback server received, parsed. */
let received: Record<string, unknown>[] = [];
let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      received.push(JSON.parse(raw) as Record<string, unknown>);
      res.writeHead(current.status, { 'content-type': current.contentType });
      res.end(current.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request: ModelRequest = { model: 'replay-model', system: 'sys', messages: [{ role: 'user', content: 'hi' }], tools: [] };

/** The HTTP status of a cassette interaction (`<cassette>.yaml.<n>.body`); 200 for fixtures. */
function statusOf(path: string): number {
  const match = /^(.*\.yaml)\.(\d+)\.body$/.exec(path);
  if (!match) return 200;
  const codes = [...readFileSync(match[1]!, 'utf8').matchAll(/^\s+code: (\d{3})$/gm)].map((m) => Number(m[1]));
  return codes[Number(match[2])] ?? 200;
}

function providerFor(replayCase: ReplayCase): Provider {
  if (replayCase.wire === 'anthropic') return createAnthropicProvider({ apiKey: 'test', baseUrl: url });
  // DeepSeek's row sends reasoning_content back, which the history check below looks for.
  const name = replayCase.name.includes('/deepseek/') ? 'deepseek' : 'openai-compatible';
  return createOpenAICompatibleProvider({ name, apiKey: 'test', baseUrl: url });
}

async function replay(replayCase: ReplayCase, status: number, req: ModelRequest = request): Promise<StreamEvent[]> {
  current = { status, body: replayCase.body, contentType: replayCase.httpError ? 'application/json' : 'text/event-stream' };
  received = [];
  return collect(providerFor(replayCase).stream(req));
}

/** Sends the replayed message back as history and returns the assistant turn as the next request carried it. */
async function sentBack(replayCase: ReplayCase, message: AssistantMessage): Promise<any> {
  const results: Message[] = message.toolCalls.map((call) => ({ role: 'tool', toolCallId: call.id, toolName: call.name, content: 'ok', isError: false }));
  await replay(replayCase, 200, { ...request, messages: [...request.messages, message, ...results] });
  const body = received[0] as any;
  return replayCase.wire === 'anthropic' ? body.messages[1] : body.messages[2];
}

describe('wire recordings replay', () => {
  // The recordings live beside the repository (../shared), as in CI, where a missing folder fails.
  // A bare clone elsewhere (the README's quick start) has none: that one check is skipped there.
  it.skipIf(!existsSync(RECORDINGS_DIR) && process.env.CI !== 'true')('finds the recordings (in CI a missing folder fails, never skips)', () => {
    expect(files.length, `no recordings under ${RECORDINGS_DIR}`).toBeGreaterThanOrEqual(40);
  });

  it('finds the recordings committed under test/fixtures/recordings, each with its source', () => {
    expect(found.entries.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((replayCase, i) => [replayCase.name, replayCase, paths[i]!] as const))('%s', async (_name, replayCase, path) => {
    const status = replayCase.httpError?.status ?? (path ? statusOf(path) : 200);
    const events = await replay(replayCase, status);
    const last = events.at(-1);
    if (replayCase.httpError) {
      // Classified as the recording's notes say, and the message names the status and keeps the server's words.
      if (last?.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(last)}`);
      const retryable = replayCase.httpError.kind === 'server' || replayCase.httpError.kind === 'rate_limit';
      expect(last.error).toMatchObject({ kind: replayCase.httpError.kind, status, retryable });
      expect(last.error.message).toContain(`HTTP ${status}`);
      expect(last.error.message).toContain(replayCase.httpError.message);
      return;
    }
    if (replayCase.expected.streamError) {
      if (last?.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(last)}`);
      const { type, message } = replayCase.expected.streamError;
      expect(last.error.message).toContain(message);
      if (type === 'server_error') expect(last.error).toMatchObject({ kind: 'server', retryable: true });
      return;
    }
    if (status !== 200) {
      // No recording holds an error status today; a future one is checked by the HTTP meaning of its status.
      const kind = status === 429 ? 'rate_limit' : status === 401 || status === 403 ? 'auth' : status >= 500 ? 'server' : 'bad_request';
      expect(last?.type === 'error' && last.error).toMatchObject({ kind, status });
      return;
    }
    if (last?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`);
    const { message } = last;
    const { expected } = replayCase;
    expect(events.some((event) => event.type === 'retry')).toBe(false);
    expect(message.content).toBe(expected.text);
    expect(message.reasoning ?? '').toBe(expected.reasoning);
    expect(message.toolCalls.map((call) => call.name)).toEqual(expected.toolCalls.map((call) => call.name));
    expect(message.toolCalls.map((call) => call.arguments)).toEqual(expected.toolCalls.map((call) => call.arguments));
    for (const [i, call] of expected.toolCalls.entries()) {
      if (call.id) expect(message.toolCalls[i]!.id).toBe(call.id);
    }
    expect(message.stopReason).toBe(expected.stopReason);
    if (expected.stopReason === 'refusal') expect(message.errorMessage).toMatch(/refused|content filter/);
    if (expected.usage) expect(message.usage).toMatchObject(expected.usage);

    // The next request carries the turn back as the server produced it.
    if (expected.toolCalls.length === 0 && !expected.reasoning) return;
    const assistant = await sentBack(replayCase, message);
    if (replayCase.wire === 'openai') {
      expect((assistant.tool_calls ?? []).map((call: any) => call.function.arguments)).toEqual(expected.toolCalls.map((call) => call.arguments));
      if (replayCase.name.includes('/deepseek/') && expected.reasoning) expect(assistant.reasoning_content).toBe(expected.reasoning);
      // Any other server: reasoning streamed in a field goes back with the tool-call turn, under that field.
      else if (expected.reasoningField && expected.toolCalls.length > 0) expect(assistant[expected.reasoningField]).toBe(expected.reasoning);
      else if (expected.toolCalls.length > 0) expect(assistant).not.toHaveProperty('reasoning_content');
    } else {
      const blocks = assistant.content as any[];
      const toolUses = blocks.filter((block) => block.type === 'tool_use');
      expect(toolUses.map((block) => block.id)).toEqual(expected.toolCalls.map((call) => call.id));
      expect(toolUses.map((block) => block.input)).toEqual(expected.toolCalls.map((call) => (call.arguments ? JSON.parse(call.arguments) : {})));
      if (expected.signature) expect(blocks[0]).toEqual({ type: 'thinking', thinking: expected.reasoning, signature: expected.signature });
    }
  });
});
