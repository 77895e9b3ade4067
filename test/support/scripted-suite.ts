/**
 * One scripted model server per end-to-end test file: started before the file's tests, reset
 * (queue, fallback, records) before each, closed after. `env` points a seek process at it as
 * DeepSeek, with fast retries.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ScriptedServer } from './scripted-server/index.js';

export interface ScriptedSuite {
  readonly server: ScriptedServer;
  env(home: string, extra?: Record<string, string>): Record<string, string>;
}

export function useScriptedServer(): ScriptedSuite {
  let current: ScriptedServer | undefined;
  beforeAll(async () => {
    current = await ScriptedServer.start();
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    current!.reset();
    current!.setFallback(undefined);
  });
  return {
    get server() {
      return current!;
    },
    env: (home, extra = {}) => ({ SEEK_HOME: home, DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: current!.url, SEEK_RETRY_BASE_MS: '1', ...extra }),
  };
}
