import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ScriptedServer } from './scripted-server/index.js';
import { TmuxSeek } from './tmux.js';

/** Whether tmux can run here (CI installs it; `.ci/run`). */
export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

export interface TuiHarness {
  /** The scripted model server of this test file (reset, and its fallback cleared, before each test). */
  readonly server: ScriptedServer;
  /** The environment of a DeepSeek run against that server, plus `extra`. */
  env(home: string, extra?: Record<string, string>): Record<string, string>;
  /** The real seek in tmux; killed after the test. */
  start(root: string, home: string, options?: { env?: Record<string, string>; args?: string[]; width?: number; height?: number; before?: string }): TmuxSeek;
}

/**
 * What every terminal-UI test file needs, registered as vitest hooks of the calling file: one
 * scripted server for the file, a fresh script per test, and the seek under test killed after it.
 */
export function tuiHarness(): TuiHarness {
  let server: ScriptedServer | undefined;
  let tui: TmuxSeek | undefined;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server!.reset();
    server!.setFallback(undefined);
  });
  afterEach(() => {
    tui?.kill();
    tui = undefined;
  });
  const env = (home: string, extra: Record<string, string> = {}): Record<string, string> => ({
    SEEK_HOME: home,
    DEEPSEEK_API_KEY: 'k',
    DEEPSEEK_BASE_URL: server!.url,
    SEEK_RETRY_BASE_MS: '1',
    ...extra,
  });
  return {
    get server() {
      return server!;
    },
    env,
    start(root, home, options = {}) {
      tui = TmuxSeek.start({
        cwd: root,
        env: env(home, options.env),
        args: options.args ?? [],
        ...(options.width ? { width: options.width } : {}),
        ...(options.height ? { height: options.height } : {}),
        ...(options.before ? { before: options.before } : {}),
      });
      return tui;
    },
  };
}
