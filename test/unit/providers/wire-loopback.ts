/**
 * A loopback HTTP server whose every response is written by the test: for the wire behaviours the
 * scripted server does not script (keep-alive comments, pings, silence, HTML, bare error statuses).
 * Serves both wires: POST /chat/completions (OpenAI style) and POST /v1/messages (Anthropic).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type WireHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export class WireLoopback {
  /** Bodies of the requests received, in order. */
  readonly requests: string[] = [];
  private handler: WireHandler = (_req, res) => res.writeHead(500).end();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WireLoopback> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const loopback = new WireLoopback(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        loopback.requests.push(body);
        loopback.handler(req, res, body);
      });
    });
    return loopback;
  }

  /** Answers every following request with `handler`, and forgets earlier requests. */
  serve(handler: WireHandler): void {
    this.handler = handler;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** A complete OpenAI-style stream answering `text`. */
export function openAIAnswer(text: string, model = 'deepseek-v4-flash'): string {
  const chunk = (delta: object, finish: string | null, usage?: object) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  return (
    chunk({ role: 'assistant', content: text }, null) +
    chunk({}, 'stop', { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 }) +
    'data: [DONE]\n\n'
  );
}

/** A complete Anthropic Messages stream answering `text`. */
export function anthropicAnswer(text: string, model = 'claude-haiku-4-5'): string {
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return (
    event('message_start', {
      message: { id: 'm1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } },
    }) +
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }) +
    event('content_block_stop', { index: 0 }) +
    event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }) +
    event('message_stop', {})
  );
}

/** What keeps a queued request alive on each wire: an SSE comment (DeepSeek, OpenRouter) or a
 * `ping` event (Anthropic). Both are dropped by the SDKs' parsers. */
export function keepAlive(wire: 'openai' | 'anthropic'): string {
  return wire === 'openai' ? ': keep-alive\n\n' : 'event: ping\ndata: {"type": "ping"}\n\n';
}
