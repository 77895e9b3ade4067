import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { SEEK_BIN } from './seek-process.js';

export interface TmuxOptions {
  cwd: string;
  env: Record<string, string>;
  args?: string[];
  width?: number;
  height?: number;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The real `seek` in a real terminal: a tmux session on a private socket, driven with send-keys
 * and read with capture-pane. The environment is built from scratch so nothing of the developer's
 * (keys, CI, SEEK_*) leaks in.
 */
export class TmuxSeek {
  private constructor(
    private readonly socket: string,
    readonly width: number,
  ) {}

  static start(options: TmuxOptions): TmuxSeek {
    const socket = `seek-test-${randomBytes(4).toString('hex')}`;
    const width = options.width ?? 100;
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...options.env };
    const command = [
      'env',
      '-i',
      ...Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)),
      quote(process.execPath),
      quote(SEEK_BIN),
      ...(options.args ?? []).map(quote),
      // Keep the pane open after seek exits so the final screen can still be read.
      '; echo "[seek exited $?]"; sleep 30',
    ].join(' ');
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', String(width), '-y', String(options.height ?? 40), '-c', options.cwd, command]);
    return new TmuxSeek(socket, width);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Key names as tmux knows them: 'Enter', 'Escape', 'C-c', 'BTab' (shift+tab), 'Up'. */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', '0', ...keys);
  }

  /** Literal text (not key names). */
  type(text: string): void {
    this.tmux('send-keys', '-t', '0', '-l', text);
  }

  /** The visible screen plus scrollback, as plain text. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', '0', '-S', '-200');
  }

  /**
   * Waits until the screen matches; throws with the screen's content when it does not in time.
   * Returns a moment after the match: Ink draws a component before its effects attach its key
   * handler, so a key sent the instant a prompt appears could reach nobody.
   */
  async waitFor(pattern: RegExp | string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.screen();
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) {
        await sleep(SETTLE_MS);
        return screen;
      }
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${screen}`);
  }

  /**
   * Answers a prompt with `text` until `done` shows (at most 3 tries): for answers that are safe to
   * repeat (a second key after the prompt closed only lands in the input box).
   */
  async answer(text: string, done: RegExp | string): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      this.type(text);
      try {
        return await this.waitFor(done, attempt < 3 ? 3_000 : 10_000);
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

const SETTLE_MS = 100;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
