/**
 * Terminal UI figures (`npm run bench:tui`), measured on the real <App> rendered by Ink into an
 * in-memory terminal (100x40), with a session whose model is an injected stream:
 * 1. keystroke-to-screen latency: from writing a key to stdin to the first frame that shows it;
 * 2. frames per second and render time while streaming a 2,000-token Markdown answer;
 * 3. memory (heap and RSS, after a forced GC) after a 200-turn session with tool calls.
 * Prints figures; asserts nothing. Run with --expose-gc for the memory figure.
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { App, type PermissionBridge } from '../src/tui/App.js';
import { openSession } from '../src/runtime/session.js';
import type { ModelRequest, StreamEvent, StreamFn } from '../src/providers/types.js';
import { makeProject } from '../test/support/seek-process.js';
import { UI_MAX_FPS } from '../src/tui/render-options.js';
import { TerminalCursor, TerminalCursorContext } from '../src/tui/terminal-cursor.js';

class TerminalOut extends EventEmitter {
  readonly isTTY = true;
  columns = 100;
  rows = 40;
  lastWrite = '';
  writes = 0;
  onWrite: ((chunk: string) => void) | undefined;
  write = (chunk: string) => {
    this.lastWrite = chunk;
    this.writes += 1;
    this.onWrite?.(chunk);
    return true;
  };
}

class TerminalIn extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  type(text: string) {
    this.data = text;
    this.emit('readable');
    this.emit('data', text);
  }
  read = () => {
    const data = this.data;
    this.data = null;
    return data;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A model that streams `tokens` pieces of Markdown, one every `intervalMs`, then (optionally)
 * calls read_file `toolTurns` times before answering. */
function scriptedModel(options: { answerTokens: number; intervalMs: number; toolTurns: number }): StreamFn {
  let turnsLeft = options.toolTurns;
  const pieces = markdownAnswer(options.answerTokens);
  return async function* (request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent> {
    const usage = { inputTokens: 1000 + request.messages.length * 50, outputTokens: 20, cacheReadTokens: 900, cacheWriteTokens: 0 };
    if (turnsLeft > 0) {
      turnsLeft -= 1;
      // A different line each turn: the repeat guard stops a run that makes one call 3 times in a row.
      const call = { id: `c${turnsLeft}`, name: 'read_file', arguments: JSON.stringify({ path: 'README.md', offset: 1 + (turnsLeft % 3) }) };
      yield { type: 'text_delta', text: `Reading the file again (${turnsLeft} left).` };
      yield { type: 'toolcall_start', index: 0, id: call.id, name: call.name };
      yield { type: 'toolcall_end', index: 0, toolCall: call };
      yield { type: 'done', message: { role: 'assistant', content: `Reading the file again (${turnsLeft} left).`, toolCalls: [call], stopReason: 'tool_calls', usage, costUsd: 0.0001, model: request.model } };
      return;
    }
    let text = '';
    for (const piece of pieces) {
      if (signal?.aborted) break;
      text += piece;
      yield { type: 'text_delta', text: piece };
      if (options.intervalMs > 0) await sleep(options.intervalMs);
    }
    yield { type: 'done', message: { role: 'assistant', content: text, toolCalls: [], stopReason: 'stop', usage, costUsd: 0.0002, model: request.model } };
  };
}

/** About `tokens` tokens (~4 characters each) of Markdown with headings, lists and code. */
function markdownAnswer(tokens: number): string[] {
  const block = [
    '## Step\n\n',
    'The **loop** calls the model, runs the `tools` it asks for, and feeds the results back. ',
    'It stops when the answer has no tool calls.\n\n',
    '- read the file\n- change one line\n- run the tests\n\n',
    '```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n\n',
  ].join('');
  const pieces: string[] = [];
  let text = '';
  while (pieces.length < tokens) {
    if (text.length < 4) text += block;
    pieces.push(text.slice(0, 4));
    text = text.slice(4);
  }
  return pieces;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function mountApp(stream: StreamFn, maxFps = UI_MAX_FPS) {
  const { root, home } = makeProject({ 'README.md': '# bench\n\nline two\n' });
  const bridge: PermissionBridge = {};
  const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench' }, interactive: true, yolo: true, maxTurns: 1000, stream });
  const stdout = new TerminalOut();
  const stdin = new TerminalIn();
  const renders: Array<{ at: number; renderTime: number }> = [];
  const history = { entries: () => [] as string[], add: () => {} };
  // As in run.tsx: frames go through the terminal cursor, which parks it at the insertion point.
  const cursor = new TerminalCursor(stdout as unknown as NodeJS.WriteStream);
  const instance = render(
    <TerminalCursorContext.Provider value={cursor}>
      <App
        session={session}
        openSession={() => openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench' }, interactive: true, maxTurns: 1000, stream })}
        bridge={bridge}
        history={history}
        fileSearch={() => []}
        color={true}
        onSessionChange={() => {}}
      />
    </TerminalCursorContext.Provider>,
    {
      stdout: cursor.stream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: new TerminalOut() as unknown as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps,
      onRender: (metrics) => renders.push({ at: performance.now(), renderTime: metrics.renderTime }),
    },
  );
  await sleep(200);
  return { session, stdout, stdin, renders, instance };
}

/** `gapMs` between keys: 120 ms is a fast typist (~100 words a minute), 5 ms a held key. */
async function keystrokeLatency(gapMs: number, maxFps: number): Promise<void> {
  const { stdout, stdin, instance, session } = await mountApp(scriptedModel({ answerTokens: 10, intervalMs: 0, toolTurns: 0 }), maxFps);
  const samples: number[] = [];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < 60; i++) {
    const typed = letters.slice(0, (i % 20) + 1);
    const started = performance.now();
    const shown = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`"${typed}" never appeared; last frame:\n${stdout.lastWrite}`)), 5000);
      stdout.onWrite = (chunk) => {
        if (chunk.includes(typed)) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    stdin.type(typed.at(-1)!);
    await shown;
    samples.push(performance.now() - started);
    if (i % 20 === 19) {
      for (let j = 0; j < 20; j++) stdin.type('\u007f'); // backspace: start over
      await sleep(50);
    }
    await sleep(gapMs);
  }
  stdout.onWrite = undefined;
  instance.unmount();
  await session.close();
  const steady = samples.slice(5);
  console.log(`keystroke to screen, ${gapMs} ms between keys, maxFps ${maxFps} (${steady.length} keys): median ${median(steady).toFixed(2)} ms, p95 ${percentile(steady, 95).toFixed(2)} ms, max ${Math.max(...steady).toFixed(2)} ms`);
}

async function streamingFps(): Promise<void> {
  const { stdin, renders, instance, session } = await mountApp(scriptedModel({ answerTokens: 2000, intervalMs: 2, toolTurns: 0 }));
  renders.length = 0;
  const started = performance.now();
  stdin.type('explain the loop\r');
  while (session.history.filter((m) => m.role === 'assistant').length === 0) await sleep(10);
  const seconds = (performance.now() - started) / 1000;
  const during = renders.filter((r) => r.at >= started);
  instance.unmount();
  await session.close();
  const times = during.map((r) => r.renderTime);
  console.log(
    `streaming 2,000 tokens in ${seconds.toFixed(2)} s: ${during.length} frames, ${(during.length / seconds).toFixed(1)} commits/s; render time per frame median ${median(times).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
  );
}

async function memoryAfterLongSession(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const { stdin, instance, session } = await mountApp(scriptedModel({ answerTokens: 200, intervalMs: 0, toolTurns: 199 }));
  const started = performance.now();
  stdin.type('read the readme 199 times\r');
  const deadline = performance.now() + 120_000;
  while (session.history.filter((m) => m.role === 'assistant').length < 200) {
    if (performance.now() > deadline) throw new Error(`the 200-turn session stalled after ${session.history.length} messages`);
    await sleep(20);
  }
  await sleep(200);
  const seconds = (performance.now() - started) / 1000;
  gc?.();
  const after = process.memoryUsage();
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `200-turn session through the UI in ${seconds.toFixed(1)} s: heap ${mb(after.heapUsed)} MB (+${mb(after.heapUsed - before.heapUsed)} MB), rss ${mb(after.rss)} MB${gc ? '' : ' (no --expose-gc: figures include garbage)'}`,
  );
  instance.unmount();
  await session.close();
}

console.log(`seek terminal UI benchmarks · node ${process.version}\n`);
await keystrokeLatency(120, UI_MAX_FPS);
await keystrokeLatency(5, UI_MAX_FPS);
await keystrokeLatency(5, 30);
await streamingFps();
await memoryAfterLongSession();
process.exit(0);
