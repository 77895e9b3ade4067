import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SEEK_BIN } from './seek-process.js';
import { tempDir } from './temp-dirs.js';

export interface TmuxOptions {
  cwd: string;
  env: Record<string, string>;
  args?: string[];
  width?: number;
  height?: number;
  /** A shell command run in the pane before seek starts (e.g. to fill the scrollback). */
  before?: string;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The real `seek` in a real terminal: a tmux session on a private socket, driven with send-keys
 * and read with capture-pane. The environment is built from scratch so nothing of the developer's
 * (keys, CI, SEEK_*) leaks in. The socket lives in a temp dir of its own, removed by `kill` (tmux
 * leaves a dead server's socket file behind).
 */
export class TmuxSeek {
  private constructor(
    private readonly socketDir: string,
    readonly width: number,
  ) {}

  private get socket(): string {
    return join(this.socketDir, 'socket');
  }

  static start(options: TmuxOptions): TmuxSeek {
    const socketDir = tempDir('seek-tmux-');
    const width = options.width ?? 100;
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...options.env };
    const command = [
      ...(options.before ? [options.before, ';'] : []),
      'env',
      '-i',
      ...Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)),
      quote(process.execPath),
      quote(SEEK_BIN),
      ...(options.args ?? []).map(quote),
      // Keep the pane open after seek exits so the final screen can still be read.
      '; echo "[seek exited $?]"; sleep 30',
    ].join(' ');
    const terminal = new TmuxSeek(socketDir, width);
    terminal.tmux('-f', '/dev/null', 'new-session', '-d', '-x', String(width), '-y', String(options.height ?? 40), '-c', options.cwd, command);
    return terminal;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
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

  /** Whether the terminal is on its alternate screen (a full-screen view is open). */
  onAlternateScreen(): boolean {
    return this.tmux('display-message', '-p', '-t', '0', '#{alternate_on}').trim() === '1';
  }

  /** From now on every byte the program writes to the terminal is appended to `file` (tmux
   * pipe-pane): escape sequences a terminal acts on without showing them (OSC 8 links) included. */
  recordOutput(file: string): void {
    this.tmux('pipe-pane', '-o', '-t', '0', `cat >> ${quote(file)}`);
  }

  /** The visible screen with its colours and styles as SGR sequences (`capture-pane -e`). */
  styledScreen(): string {
    return this.tmux('capture-pane', '-p', '-e', '-t', '0');
  }

  /** The terminal's cursor: column and row on the visible screen (0-based) and whether it is shown. */
  cursor(): { x: number; y: number; visible: boolean } {
    const [x, y, flag] = this.tmux('display-message', '-p', '-t', '0', '#{cursor_x} #{cursor_y} #{cursor_flag}').trim().split(' ').map(Number);
    return { x: x!, y: y!, visible: flag === 1 };
  }

  /** The visible screen's lines (no scrollback), for relating the cursor to text. */
  visibleLines(): string[] {
    return this.tmux('capture-pane', '-p', '-t', '0').split('\n');
  }

  /** Makes the terminal this size (the program gets SIGWINCH). */
  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', '0', '-x', String(width), '-y', String(height));
  }

  /** Only the rows the terminal shows now. */
  visible(): string {
    return this.tmux('capture-pane', '-p', '-t', '0');
  }

  /** Everything the pane holds, its whole scrollback included, as plain text. */
  history(): string {
    return this.tmux('capture-pane', '-p', '-t', '0', '-S', '-');
  }

  /** The whole history with the lines the terminal wrapped joined again (`capture-pane -J`): what
   * a user copying from the scrollback gets. */
  joinedHistory(): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', '0', '-S', '-');
  }

  /**
   * Waits until the screen matches; throws with the screen's content when it does not in time.
   * Returns as soon as it matches: keys sent right then must reach whatever the screen shows (the
   * app never draws a prompt it is not yet listening to), so tests neither wait nor retry.
   */
  async waitFor(pattern: RegExp | string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.screen();
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
      await sleep(POLL_MS);
    }
    throw new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${screen}`);
  }

  /** Answers a prompt with `text`, once, and waits until `done` shows. */
  async answer(text: string, done: RegExp | string): Promise<string> {
    this.type(text);
    return this.waitFor(done);
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}

/** How often the screen is read while waiting. */
const POLL_MS = 50;

/** Waits until `condition()` holds (state outside the screen, such as what the model server has
 * received); throws naming `what` when it does not in time. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(POLL_MS);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
