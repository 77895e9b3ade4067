import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SEEK_BIN } from './seek-process.js';

/** A JSON line seek wrote (typed loosely: tests poke into it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Line = Record<string, any>;

/**
 * The real `seek -p --input-format stream-json --output-format stream-json` process, driven line
 * by line: tests send messages and wait for the lines they expect (state, never time).
 */
export class StreamJsonSeek {
  readonly lines: Line[] = [];
  stderr = '';
  private buffer = '';
  /** Answers every can_use_tool question as it arrives (see `answerQuestions`). */
  private answerer: ((question: Line) => Line) | undefined;
  private readonly waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      let at: number;
      while ((at = this.buffer.indexOf('\n')) >= 0) {
        const text = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        const line = JSON.parse(text) as Line;
        this.lines.push(line);
        if (line.type === 'control_request' && this.answerer) this.send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: this.answerer(line) } });
      }
      this.notify();
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => child.on('close', (code) => {
      this.notify();
      resolve(code);
    }));
  }

  static start(options: { cwd: string; env: Record<string, string>; args?: string[] }): StreamJsonSeek {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...options.env };
    const args = [SEEK_BIN, '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', ...(options.args ?? [])];
    return new StreamJsonSeek(spawn(process.execPath, args, { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  send(message: Line | string): void {
    this.child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  user(text: string): void {
    this.send({ type: 'user', message: { role: 'user', content: text } });
  }

  /** From now on every permission question is answered at once with `answer(question)`. */
  answerQuestions(answer: (question: Line) => Line): void {
    this.answerer = answer;
  }

  close(): void {
    this.child.stdin.end();
  }

  /** Resolves with the first line (after `from`) that matches; fails after `timeoutMs` with what came. */
  async waitFor(match: (line: Line) => boolean, options: { from?: number; timeoutMs?: number } = {}): Promise<Line> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      const found = this.lines.slice(options.from ?? 0).find(match);
      if (found) return found;
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`no matching line; got:\n${this.lines.map((line) => JSON.stringify(line)).join('\n')}\nstderr: ${this.stderr}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  results(): Line[] {
    return this.lines.filter((line) => line.type === 'result');
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
