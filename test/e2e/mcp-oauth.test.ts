import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { OAUTH_OPENER, startOAuthFixture } from '../support/oauth-fixture.js';
import { makeProject, runSeek } from '../support/seek-process.js';

/** An OAuth-protected MCP server from the SDK's own server parts (see the fixture's header). */
/** Plays the browser: follows the authorization URL, which the demo provider approves at once. */


let model: ScriptedServer;
beforeAll(async () => {
  model = await ScriptedServer.start();
});
afterAll(async () => {
  await model.close();
});
beforeEach(() => model.reset());

let fixture: { base: string; child: ChildProcess } | undefined;
afterEach(() => {
  fixture?.child.kill();
  fixture = undefined;
});

async function startOAuthServer(extraEnv: Record<string, string> = {}): Promise<{ base: string; child: ChildProcess }> {
  fixture = await startOAuthFixture(extraEnv);
  return fixture;
}

interface Stats {
  registrations: number;
  authorizationCodes: number;
  refreshes: number;
  rejectedTokens: number;
}

async function stats(base: string): Promise<Stats> {
  return (await fetch(new URL('test/stats', base))).json() as Promise<Stats>;
}

/** A project whose user config has the OAuth server as `secure` (with `extra` in its definition),
 * and an env whose "browser" is the opener. */
function projectFor(base: string, transport: 'http' | 'sse' = 'http', extra: Record<string, unknown> = {}) {
  const { root, home } = makeProject();
  const url = new URL(transport === 'sse' ? 'sse' : 'mcp', base).href;
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { secure: { type: transport, url, ...extra } } }));
  const openerLog = join(home, 'opened.txt');
  const env = {
    SEEK_HOME: home,
    DEEPSEEK_API_KEY: 'test-key',
    DEEPSEEK_BASE_URL: model.url,
    SEEK_RETRY_BASE_MS: '1',
    SEEK_MCP_AUTH_OPENER: OAUTH_OPENER,
    OPENER_LOG: openerLog,
  };
  const opened = (): string[] => (existsSync(openerLog) ? readFileSync(openerLog, 'utf8').trim().split('\n') : []);
  const tokenFile = join(home, 'mcp-auth', 'secure.json');
  const stored = () => JSON.parse(readFileSync(tokenFile, 'utf8'));
  return { root, home, env, opened, tokenFile, stored };
}

/** A port nothing listens on right now (for a client registered with a fixed callback port). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Tool results the model received in request `n`. */
function results(n: number): string[] {
  return model.requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
}

const WHOAMI = { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__secure__whoami', arguments: {} } }] };

describe('remote MCP servers behind OAuth', () => {
  it('says it needs a login (never opening a browser), logs in with seek mcp login, then a headless run calls its tool', async () => {
    const { base } = await startOAuthServer();
    const { root, env, opened, tokenFile, stored, home } = projectFor(base);

    const before = await runSeek(['mcp', 'list'], { cwd: root, env });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('secure (user) ✗ failed: needs login: run `seek mcp login secure`');
    model.enqueue(WHOAMI, { text: 'no login' });
    const headless = await runSeek(['-p', 'who am i', '--yolo'], { cwd: root, env });
    expect(headless.code).toBe(0);
    expect(results(1)[0]).toContain('needs login: run `seek mcp login secure`');
    expect(opened()).toEqual([]); // neither list nor a headless run opened a browser
    expect(await stats(base)).toMatchObject({ registrations: 0, authorizationCodes: 0 });

    const login = await runSeek(['mcp', 'login', 'secure'], { cwd: root, env });
    expect(login.stderr).toContain(`${base}authorize?`);
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`Logged in to secure: ✓ connected, 1 tool(s). Tokens saved in ${tokenFile}.\n`);
    expect(opened()).toHaveLength(1);
    expect(opened()[0]).toMatch(new RegExp(`^${base}authorize\\?.*redirect_uri=http%3A%2F%2F127\\.0\\.0\\.1%3A\\d+%2Fcallback`));
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'mcp-auth')).mode & 0o777).toBe(0o700);
    const saved = stored();
    expect(saved.tokens).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(await stats(base)).toMatchObject({ registrations: 1, authorizationCodes: 1 });

    const list = await runSeek(['mcp', 'list'], { cwd: root, env });
    expect(list.stdout).toContain('secure (user) ✓ connected, 1 tool(s)');
    model.reset();
    model.enqueue(WHOAMI, { text: 'done' });
    const run = await runSeek(['-p', 'who am i', '--yolo'], { cwd: root, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(results(1)[0]).toBe(`authorized client ${saved.client_information.client_id}`);
    expect(opened()).toHaveLength(1);
  });

  it('refreshes an expired access token with the stored refresh token, and asks for a login again once that is refused', async () => {
    const { base } = await startOAuthServer();
    const { root, env, opened, tokenFile, stored } = projectFor(base);
    const login = await runSeek(['mcp', 'login', 'secure'], { cwd: root, env });
    expect(login.code).toBe(0);
    const first = stored().tokens;

    // Every access token expires on the server: the next run gets a 401, and the SDK refreshes.
    await fetch(new URL('test/expire', base), { method: 'POST' });
    model.enqueue(WHOAMI, { text: 'done' });
    const run = await runSeek(['-p', 'who am i', '--yolo'], { cwd: root, env });
    expect(run.code).toBe(0);
    expect(results(1)[0]).toMatch(/^authorized client /);
    const second = stored().tokens;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token); // rotated, and the new one kept
    expect(await stats(base)).toMatchObject({ authorizationCodes: 1, refreshes: 1 });
    expect(opened()).toHaveLength(1); // the login's only

    // The server forgets every token: the refresh is refused, the tokens are dropped, and seek
    // asks for a login instead of opening a browser.
    await fetch(new URL('test/forget', base), { method: 'POST' });
    const list = await runSeek(['mcp', 'list'], { cwd: root, env });
    expect(list.code).toBe(1);
    expect(list.stdout).toContain('secure (user) ✗ failed: needs login: run `seek mcp login secure`');
    expect(stored().tokens).toBeUndefined();
    expect(opened()).toHaveLength(1);

    const again = await runSeek(['mcp', 'login', 'secure'], { cwd: root, env });
    expect(again.code).toBe(0);
    expect(opened()).toHaveLength(2);
    expect((await runSeek(['mcp', 'list'], { cwd: root, env })).stdout).toContain('secure (user) ✓ connected');

    const logout = await runSeek(['mcp', 'logout', 'secure'], { cwd: root, env });
    expect(logout.stdout).toBe(`Logged out of secure (removed ${tokenFile}).\n`);
    expect(existsSync(tokenFile)).toBe(false);
    expect((await runSeek(['mcp', 'list'], { cwd: root, env })).stdout).toContain('needs login');
    expect((await runSeek(['mcp', 'logout', 'secure'], { cwd: root, env })).stdout).toBe('No stored login for secure.\n');
  });

  it('logs in to a server on the older HTTP+SSE transport too, and forgets the login when the server is removed', async () => {
    const { base } = await startOAuthServer();
    const { root, env, opened, tokenFile } = projectFor(base, 'sse');
    expect((await runSeek(['mcp', 'list'], { cwd: root, env })).stdout).toContain('secure (user) ✗ failed: needs login: run `seek mcp login secure`');
    const login = await runSeek(['mcp', 'login', 'secure'], { cwd: root, env });
    expect(login.stderr).toContain(`${base}authorize?`);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Logged in to secure: ✓ connected, 1 tool(s).');
    expect(opened()).toHaveLength(1);
    model.enqueue(WHOAMI, { text: 'done' });
    const run = await runSeek(['-p', 'who am i', '--yolo'], { cwd: root, env });
    expect(run.code).toBe(0);
    expect(results(1)[0]).toMatch(/^authorized client /);

    // Removing the server removes its login.
    expect(existsSync(tokenFile)).toBe(true);
    const remove = await runSeek(['mcp', 'remove', 'secure'], { cwd: root, env });
    expect(remove.stdout).toContain('Removed its stored login.');
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('logs in with a pre-registered client from the config (oauth: client_id, client_secret, callback_port), registering nothing', async () => {
    const port = await freePort();
    const client = { client_id: 'seek-team', client_secret: 'team-secret', redirect_uris: [`http://127.0.0.1:${port}/callback`] };
    const { base } = await startOAuthServer({ PRE_REGISTERED_CLIENT: JSON.stringify(client) });
    const oauth = { client_id: 'seek-team', client_secret: '${TEAM_SECRET}', callback_port: port };
    const { root, env, opened, stored } = projectFor(base, 'http', { oauth });

    const login = await runSeek(['mcp', 'login', 'secure'], { cwd: root, env: { ...env, TEAM_SECRET: 'team-secret' } });
    expect(login.stderr).toContain(`${base}authorize?`);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Logged in to secure: ✓ connected, 1 tool(s).');
    expect(opened()[0]).toContain(`client_id=seek-team&`);
    expect(opened()[0]).toContain(`redirect_uri=http%3A%2F%2F127.0.0.1%3A${port}%2Fcallback`);
    expect(await stats(base)).toMatchObject({ registrations: 0, authorizationCodes: 1 });
    expect(stored().client_information).toBeUndefined(); // the config holds the client, the file only tokens

    model.enqueue(WHOAMI, { text: 'done' });
    const run = await runSeek(['-p', 'who am i', '--yolo'], { cwd: root, env: { ...env, TEAM_SECRET: 'team-secret' } });
    expect(run.code).toBe(0);
    expect(results(1)[0]).toBe('authorized client seek-team');
  });

  it('refuses a login for a stdio server, and prints the URL instead of opening a browser with SEEK_NO_BROWSER=1', async () => {
    const { base } = await startOAuthServer();
    const { root, home, env } = projectFor(base);
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { local: { command: 'true' }, secure: { type: 'http', url: new URL('mcp', base).href } } }));
    const stdio = await runSeek(['mcp', 'login', 'local'], { cwd: root, env });
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toContain('local is a stdio server; only remote (http/sse) servers log in');

    // No opener and no browser: seek prints the URL and waits for the callback, which this test
    // then plays itself by following the printed URL.
    const { SEEK_MCP_AUTH_OPENER: _opener, ...withoutOpener } = env;
    let printed = '';
    const login = runSeek(['mcp', 'login', 'secure'], {
      cwd: root,
      env: { ...withoutOpener, SEEK_NO_BROWSER: '1' },
      onSpawn: (child) => child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString())),
    });
    await expect.poll(() => /Open this URL in a browser to log in to secure:\n {2}(\S+)/.exec(printed)?.[1], { timeout: 15_000 }).toBeTruthy();
    const url = /Open this URL in a browser to log in to secure:\n {2}(\S+)/.exec(printed)![1]!;
    const followed = await fetch(url);
    expect(await followed.text()).toContain('Logged in to secure. You can close this tab.');
    const done = await login;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Logged in to secure: ✓ connected, 1 tool(s).');
  });
});
