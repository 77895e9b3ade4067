import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AbortError, NoApiKeyError, ProcessExitError, ProtocolError, SeekError } from './errors.js';
import type { CanUseTool, PermissionMode, PermissionResult, QueryOptions, SeekMessage, UserMessage } from './types.js';

/** This package's launcher: dist/sdk/index.js (and src/sdk/query.ts) sit two folders below it. */
const PACKAGE_BIN = fileURLToPath(new URL('../../bin/seek.js', import.meta.url));

const MODE_FLAGS: Readonly<Record<PermissionMode, string[]>> = {
  default: [],
  ask: [],
  acceptEdits: ['--auto'],
  auto: ['--auto'],
  bypassPermissions: ['--yolo'],
  yolo: ['--yolo'],
  plan: ['--plan'],
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The command line of the seek process for these options. */
function argumentsFor(options: QueryOptions): string[] {
  return [
    '-p',
    '--input-format', 'stream-json',
    '--output-format', 'stream-json',
    ...(options.canUseTool ? ['--permission-prompt-tool', 'stdio'] : []),
    ...(options.model ? ['--model', options.model] : []),
    ...(options.provider ? ['--provider', options.provider] : []),
    ...(options.resume ? ['--resume', options.resume] : []),
    ...(options.maxTurns !== undefined ? ['--max-turns', String(options.maxTurns)] : []),
    ...MODE_FLAGS[options.permissionMode ?? 'default'],
  ];
}

/**
 * One seek process holding one conversation: iterate it for seek's messages (each user message's
 * turn ends with a `result`); `interrupt`, `setPermissionMode` and `setModel` act on it meanwhile.
 * The iteration ends once every user message has had its result and the prompt has no more; it
 * throws a SeekError when seek cannot go on (no key, the process ended early, unreadable output).
 */
export class Query implements AsyncIterable<SeekMessage> {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly buffered: SeekMessage[] = [];
  private failure: SeekError | undefined;
  private ended = false;
  private wake: (() => void) | undefined;
  private stderrText = '';
  private sent = 0;
  private answered = 0;
  /** stdin lines written so far, and which of them were user messages: an `invalid_input` error
   * answers a user message only when its `line` is one of them (seek also writes that error about
   * a control line, e.g. an unreadable permission answer, which answers no message). */
  private linesWritten = 0;
  private readonly userLines = new Set<number>();
  private promptDone = false;
  private stdinOpen = true;
  private nextRequest = 1;
  private readonly pending = new Map<string, { resolve: (response: Json) => void; reject: (error: Error) => void }>();
  private readonly questions = new Map<string, AbortController>();

  constructor(prompt: string | AsyncIterable<UserMessage>, private readonly options: QueryOptions = {}) {
    this.child = spawn(process.execPath, [options.pathToSeekExecutable ?? PACKAGE_BIN, ...argumentsFor(options)], {
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.on('error', (error) => this.fail(new ProcessExitError(null, null, `could not start seek: ${error.message}`)));
    this.child.stdin.on('error', () => (this.stdinOpen = false));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrText += chunk.toString();
      options.stderr?.(chunk.toString());
    });
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => this.onLine(line));
    this.child.on('close', (code, signal) => this.onClose(code, signal));
    const abort = options.abortController?.signal;
    if (abort?.aborted) this.abortNow();
    abort?.addEventListener('abort', () => this.abortNow(), { once: true });
    void this.pump(typeof prompt === 'string' ? single(prompt) : prompt);
  }

  /** Ends the turn in progress (seek writes its result); the conversation goes on. */
  async interrupt(): Promise<void> {
    await this.control({ subtype: 'interrupt' });
  }

  /** Changes the permission mode for what follows (plan: read-only). */
  async setPermissionMode(mode: PermissionMode): Promise<void> {
    await this.control({ subtype: 'set_permission_mode', mode });
  }

  /** The model of the following requests. */
  async setModel(model: string): Promise<void> {
    await this.control({ subtype: 'set_model', model });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SeekMessage> {
    for (;;) {
      const next = this.buffered.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private async pump(prompt: AsyncIterable<UserMessage>): Promise<void> {
    try {
      for await (const message of prompt) {
        if (this.ended || this.failure) return;
        this.sent++;
        if (this.write(message as unknown as Json)) this.userLines.add(this.linesWritten);
      }
    } catch (error) {
      this.fail(new SeekError(`the prompt's iterable failed: ${(error as Error).message}`));
      this.child.kill('SIGTERM');
      return;
    }
    this.promptDone = true;
    this.closeWhenDone();
  }

  /** stdin stays open while answers may be needed; closing it ends seek once its turns are done. */
  private closeWhenDone(): void {
    if (this.promptDone && this.answered >= this.sent && this.stdinOpen) {
      this.stdinOpen = false;
      this.child.stdin.end();
    }
  }

  /** Writes a line on seek's stdin; false when stdin is closed. */
  private write(line: Json): boolean {
    if (!this.stdinOpen) return false;
    this.child.stdin.write(`${JSON.stringify(line)}\n`);
    this.linesWritten++;
    return true;
  }

  private control(request: Json): Promise<Json> {
    if (this.ended || !this.stdinOpen) return Promise.reject(new ProtocolError(`seek is no longer running: ${String(request.subtype)} not sent`));
    const requestId = `sdk-${this.nextRequest++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      this.write({ type: 'control_request', request_id: requestId, request });
    });
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (!isObject(value) || typeof value.type !== 'string') {
      this.fail(new ProtocolError(`seek wrote a line that is not a JSON message: ${line.slice(0, 200)}`));
      if (this.child.exitCode === null) this.child.kill('SIGTERM');
      return;
    }
    if (value.type === 'control_request') return void this.onQuestion(value);
    if (value.type === 'control_response') return this.onControlResponse(value);
    if (value.type === 'control_cancel_request') {
      if (typeof value.request_id === 'string') this.questions.get(value.request_id)?.abort();
      return;
    }
    if (value.type === 'result' || (value.type === 'error' && value.kind === 'invalid_input' && this.userLines.delete(Number(value.line)))) {
      this.answered++;
      this.closeWhenDone();
    }
    this.buffered.push(value as unknown as SeekMessage);
    this.poke();
  }

  private onControlResponse(value: Json): void {
    const response = isObject(value.response) ? value.response : {};
    const waiting = typeof response.request_id === 'string' ? this.pending.get(response.request_id) : undefined;
    if (!waiting) return;
    this.pending.delete(response.request_id as string);
    if (response.subtype === 'success') waiting.resolve(isObject(response.response) ? response.response : {});
    else waiting.reject(new ProtocolError(typeof response.error === 'string' ? response.error : 'seek refused the control request'));
  }

  private async onQuestion(value: Json): Promise<void> {
    const request = isObject(value.request) ? value.request : {};
    const requestId = typeof value.request_id === 'string' ? value.request_id : '';
    const reply = (response: Json) => this.write({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
    if (request.subtype !== 'can_use_tool') {
      this.write({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error: `the SDK does not answer ${String(request.subtype)}` } });
      return;
    }
    reply(await this.decide(this.options.canUseTool, request, requestId));
  }

  private async decide(canUseTool: CanUseTool | undefined, request: Json, requestId: string): Promise<PermissionResult> {
    if (!canUseTool) return { behavior: 'deny', message: 'no canUseTool was given to the SDK' };
    const controller = new AbortController();
    this.questions.set(requestId, controller);
    try {
      const input = isObject(request.input) ? request.input : {};
      return await canUseTool(String(request.tool_name), input, {
        signal: controller.signal,
        toolUseId: String(request.tool_use_id ?? ''),
        ...(typeof request.decision_reason === 'string' ? { reason: request.decision_reason } : {}),
        ...(typeof request.description === 'string' ? { description: request.description } : {}),
        ...(typeof request.agent_id === 'string' ? { agentId: request.agent_id } : {}),
      });
    } catch (error) {
      return { behavior: 'deny', message: `canUseTool failed: ${(error as Error).message}` };
    } finally {
      this.questions.delete(requestId);
    }
  }

  private abortNow(): void {
    this.fail(new AbortError('the query was aborted'));
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
  }

  private onClose(code: number | null, signal: NodeJS.Signals | null): void {
    for (const controller of this.questions.values()) controller.abort();
    for (const waiting of this.pending.values()) waiting.reject(new ProtocolError('seek ended before it answered'));
    this.pending.clear();
    this.stdinOpen = false;
    const complete = this.promptDone && this.answered >= this.sent;
    if (!complete && !this.failure) {
      this.failure = /No API key found/.test(this.stderrText) ? new NoApiKeyError(this.stderrText) : new ProcessExitError(code, signal, this.stderrText);
    }
    this.ended = true;
    this.poke();
  }

  private fail(error: SeekError): void {
    this.failure ??= error;
    this.poke();
  }

  private poke(): void {
    this.wake?.();
    this.wake = undefined;
  }
}

async function* single(text: string): AsyncIterable<UserMessage> {
  yield { type: 'user', message: { role: 'user', content: text } };
}
