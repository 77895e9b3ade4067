/**
 * The scripted model server: an in-process HTTP server on 127.0.0.1 that speaks the real OpenAI
 * Chat Completions (DeepSeek flavour) and Anthropic Messages wire formats, answering each request
 * with the next scripted reply. Used by unit tests, end-to-end tests that spawn the real `seek`
 * process, and benchmarks. It never throws at the test: anything wrong with a request is recorded in
 * `violations`, and test-file-guards.ts fails each test that leaves new ones behind.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicErrorBody, anthropicJsonBody, anthropicStreamFrames } from './anthropic-wire.js';
import { canonicalPrompt, isRecord, resolveUsage } from './canonical.js';
import { checkAnthropicRequest, checkOpenAIRequest } from './checks.js';
import { injectFailures } from './injection.js';
import { openaiErrorBody, openaiJsonBody, openaiStreamFrames } from './openai-wire.js';
import type { RecordedRequest, RenderContext, Responder, ScriptedReply, Wire } from './types.js';

export { canonicalPrompt, commonPrefixBytes, tokensOf, CACHE_BLOCK_TOKENS } from './canonical.js';
export { collect } from './collect.js';
export type {
  RecordedRequest,
  Responder,
  ScriptedHttpError,
  ScriptedReply,
  ScriptedToolCall,
  ScriptedUsage,
  Wire,
} from './types.js';

const EXHAUSTED_REPLY: ScriptedReply = { text: '(script exhausted)' };

const ROUTES: Record<string, Wire> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
};

export class ScriptedServer {
  readonly url: string;
  /** OpenAI SDK style base URL (the SDK appends /chat/completions). */
  readonly openaiBaseUrl: string;
  /** Anthropic SDK style base URL (the SDK appends /v1/messages). */
  readonly anthropicBaseUrl: string;
  readonly requests: RecordedRequest[] = [];
  readonly violations: string[] = [];

  /** Servers started and not yet closed, for the per-test violation check (test/support/test-file-guards.ts). */
  private static readonly open = new Set<ScriptedServer>();
  /** How many of `violations` `takeNewViolations` has handed out. */
  private reportedViolations = 0;

  private queue: Responder[] = [];
  private fallback: Responder | undefined;
  private previousCanonical: Partial<Record<Wire, string>> = {};
  private sequence = 0;
  private activeResponses = 0;
  private busySince = 0;
  private busyMs = 0;
  private readonly pendingWaits = new Set<() => void>();
  private closed = false;

  private constructor(private readonly server: Server) {
    const { port } = server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    this.openaiBaseUrl = `${this.url}/v1`;
    this.anthropicBaseUrl = this.url;
  }

  static async start(options: { port?: number } = {}): Promise<ScriptedServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const instance = new ScriptedServer(server);
    ScriptedServer.open.add(instance);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void instance.handle(req, res));
    return instance;
  }

  /** Queues replies, consumed one per request in FIFO order; both wires share the queue. */
  enqueue(...replies: Responder[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** The reply used when the queue is empty. Without one, the server answers "(script exhausted)"
   * and records a violation. */
  setFallback(responder: Responder | undefined): this {
    this.fallback = responder;
    return this;
  }

  /** Milliseconds during which at least one request was being handled (overlapping requests count
   * once), including scripted delays: wall time minus this is time spent outside the server. */
  serverTimeMs(): number {
    return this.busyMs + (this.activeResponses > 0 ? performance.now() - this.busySince : 0);
  }

  /** Every server started and not closed yet. */
  static openServers(): ScriptedServer[] {
    return [...ScriptedServer.open];
  }

  /** Violations recorded since the last call or `reset()`. */
  takeNewViolations(): string[] {
    const fresh = this.violations.slice(this.reportedViolations);
    this.reportedViolations = this.violations.length;
    return fresh;
  }

  /** Clears the queue, recorded requests, violations, the simulated prefix cache, server time and
   * the id sequence (generated ids restart at 1). The fallback stays. */
  reset(): void {
    this.queue = [];
    this.sequence = 0;
    this.requests.length = 0;
    this.violations.length = 0;
    this.reportedViolations = 0;
    this.previousCanonical = {};
    this.busyMs = 0;
    if (this.activeResponses > 0) this.busySince = performance.now();
  }

  /** Stops listening and destroys every open socket, hanging ones included. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    ScriptedServer.open.delete(this);
    for (const wake of this.pendingWaits) wake();
    this.pendingWaits.clear();
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await stopped;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.beginBusy();
    res.once('close', () => this.endBusy());
    const receivedAt = performance.timeOrigin + performance.now(); // sub-millisecond: benchmarks time the gaps
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const wire = req.method === 'POST' ? ROUTES[path] : undefined;
    if (wire === undefined) {
      this.violations.push(`unexpected request ${req.method ?? '?'} ${path}`);
      sendJson(res, 404, openaiErrorBody(404, `scripted server: no route ${req.method ?? '?'} ${path}`));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      this.violations.push(`${wire} request to ${path} has a body that is not JSON`);
      sendJson(res, 400, errorBody(wire, 400, 'request body is not valid JSON'));
      return;
    }
    const record: RecordedRequest = {
      wire,
      path,
      headers: flattenHeaders(req),
      raw,
      body,
      stream: isRecord(body) && body['stream'] === true,
      receivedAt,
    };
    this.requests.push(record);
    const sequence = ++this.sequence;
    const label = `request #${this.requests.length} (${wire})`;
    const problems = wire === 'openai' ? checkOpenAIRequest(body) : checkAnthropicRequest(body);
    for (const problem of problems) this.violations.push(`${label}: ${problem}`);
    const canonical = canonicalPrompt(record);
    const previous = this.previousCanonical[wire];
    this.previousCanonical[wire] = canonical;
    res.once('finish', () => {
      record.respondedAt = performance.timeOrigin + performance.now();
    });

    let reply: ScriptedReply;
    try {
      reply = await this.nextReply(record, label);
    } catch (error) {
      this.violations.push(`${label}: responder threw: ${String(error)}`);
      sendJson(res, 500, errorBody(wire, 500, 'scripted responder threw'));
      return;
    }
    if (reply.delayMs) await this.wait(reply.delayMs);
    if (res.destroyed || this.closed) return;

    if (reply.httpError) {
      const { status, message, retryAfterSeconds } = reply.httpError;
      const headers: Record<string, string> = {};
      if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
      sendJson(res, status, errorBody(wire, status, message ?? `scripted HTTP ${status}`), headers);
      return;
    }
    if (reply.hang) {
      res.writeHead(200, record.stream ? SSE_HEADERS : JSON_HEADERS);
      res.flushHeaders();
      return;
    }
    const ctx: RenderContext = {
      model: isRecord(body) && typeof body['model'] === 'string' ? body['model'] : 'scripted-model',
      sequence,
      usage: resolveUsage(reply, record, canonical, previous),
      includeUsage: isRecord(body) && isRecord(body['stream_options']) && body['stream_options']['include_usage'] === true,
    };
    if (!record.stream) {
      sendJson(res, 200, wire === 'openai' ? openaiJsonBody(reply, ctx) : anthropicJsonBody(reply, ctx));
      return;
    }
    const frames = injectFailures(wire, wire === 'openai' ? openaiStreamFrames(reply, ctx) : anthropicStreamFrames(reply, ctx), reply);
    await this.sendFrames(res, frames, reply);
  }

  private async nextReply(record: RecordedRequest, label: string): Promise<ScriptedReply> {
    let responder = this.queue.shift() ?? this.fallback;
    if (responder === undefined) {
      this.violations.push(`${label}: script exhausted (no reply queued)`);
      responder = EXHAUSTED_REPLY;
    }
    return typeof responder === 'function' ? await responder(record) : responder;
  }

  private async sendFrames(res: ServerResponse, frames: string[], reply: ScriptedReply): Promise<void> {
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    for (let i = 0; i < frames.length; i++) {
      if (res.destroyed || this.closed) return;
      if (reply.cutAfterChunks !== undefined && i >= reply.cutAfterChunks) {
        res.destroy();
        return;
      }
      if (i > 0 && reply.chunkDelayMs) await this.wait(reply.chunkDelayMs);
      if (reply.pauseAfterChunks && i === reply.pauseAfterChunks.chunks) await reply.pauseAfterChunks.until;
      if (res.destroyed || this.closed) return;
      // Wait for each frame to reach the socket, so a scripted cut happens after exactly N frames.
      await new Promise<void>((resolve) => res.write(frames[i], () => resolve()));
    }
    res.end();
  }

  /** A delay that ends early when the server closes. */
  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.pendingWaits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pendingWaits.add(wake);
    });
  }

  private beginBusy(): void {
    if (this.activeResponses++ === 0) this.busySince = performance.now();
  }

  private endBusy(): void {
    if (--this.activeResponses === 0) this.busyMs += performance.now() - this.busySince;
  }
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const JSON_HEADERS = { 'content-type': 'application/json' };

function errorBody(wire: Wire, status: number, message: string): Record<string, unknown> {
  return wire === 'openai' ? openaiErrorBody(status, message) : anthropicErrorBody(status, message);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { ...JSON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
