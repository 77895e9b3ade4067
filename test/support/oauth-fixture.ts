import { spawn, type ChildProcess } from 'node:child_process';

/** An OAuth-protected MCP server built from the SDK's own server parts (test/fixtures/mcp/oauth-server.mjs). */
export const OAUTH_SERVER = new URL('../fixtures/mcp/oauth-server.mjs', import.meta.url).pathname;
/** Plays the browser: follows the authorization URL, which the demo provider approves at once. */
export const OAUTH_OPENER = new URL('../fixtures/mcp/oauth-opener.mjs', import.meta.url).pathname;

/** Starts the OAuth fixture and resolves with its base URL once it says it listens. The caller kills `child`. */
export async function startOAuthFixture(extraEnv: Record<string, string> = {}): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [OAUTH_SERVER], { env: { PATH: process.env.PATH ?? '', ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const match = /listening on (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited (${code}): ${seen}`)));
  });
  return { base, child };
}
