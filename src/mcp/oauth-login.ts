import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SEEK_VERSION } from '../util/version.js';
import { expandVariables, isRemote, type ConfiguredServer } from './config.js';
import { remoteEndpoint } from './connection.js';
import { mcpAuthFile, NeedsLoginError, readStoredAuth, SeekOAuthProvider, writeStoredAuth } from './oauth.js';

/** How long `seek mcp login` waits for the browser to come back. */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

type Env = Readonly<Record<string, string | undefined>>;

export interface LoginOptions {
  server: ConfiguredServer;
  seekHome: string;
  env: Env;
  /** Progress for the user (the URL to open, among others). */
  say: (text: string) => void;
  timeoutMs?: number;
}

export interface LoginResult {
  /** False when the server let seek in without a login (nothing was stored). */
  loggedIn: boolean;
  tools: number;
  file: string;
}

/**
 * `seek mcp login`: the OAuth authorization-code flow with PKCE for one remote server. The SDK
 * discovers the authorization server, registers seek (dynamic client registration) and builds the
 * authorization URL; seek opens it in the browser and listens on a loopback port for the redirect,
 * then the SDK exchanges the code for tokens, which are stored (src/mcp/oauth.ts). Finally a fresh
 * connection with the stored tokens proves the login and counts the tools.
 */
export async function loginToServer(options: LoginOptions): Promise<LoginResult> {
  const { server, env, say } = options;
  const definition = server.definition;
  if (!isRemote(definition)) throw new Error(`${server.name} is a stdio server; only remote (http/sse) servers log in`);
  const missing = new Set<string>();
  const { url, headers, preRegistered } = remoteEndpoint(definition, (text) => expandVariables(text, env, missing));
  if (missing.size > 0) throw new Error(`environment variable ${[...missing].join(', ')} is not set`);
  const file = mcpAuthFile(options.seekHome, server.name);

  // The client registration is kept when its redirect port can be listened on again (authorization
  // servers compare redirect URIs exactly); else the SDK registers seek anew. The old tokens stay
  // until new ones arrive.
  // A pre-registered client (the config's `oauth`) is not replaced: its port is the only one.
  const stored = await readStoredAuth(file, url.href);
  const registeredPort = loopbackPort(preRegistered ?? stored.client_information);
  const state = randomBytes(16).toString('hex');
  const callback = await startCallbackServer({ port: registeredPort, state, serverName: server.name, timeoutMs: options.timeoutMs ?? LOGIN_TIMEOUT_MS });
  try {
    if (preRegistered && registeredPort !== undefined && callback.port !== registeredPort) {
      throw new Error(`port ${registeredPort} (the "callback_port" of ${server.name}'s "oauth") is in use; free it and log in again`);
    }
    if (!preRegistered && stored.client_information && callback.port !== registeredPort) await writeStoredAuth(file, { ...stored, client_information: undefined });
    const provider = new SeekOAuthProvider({
      file,
      serverName: server.name,
      serverUrl: url.href,
      preRegistered,
      login: { redirectUrl: callback.redirectUrl, state, openAuthorizationUrl: (target) => openInBrowser(target, server.name, env, say) },
    });
    const transport = remoteTransport(definition.type, url, headers, provider);
    const client = new Client({ name: 'seek', version: SEEK_VERSION }, { capabilities: {} });
    try {
      await client.connect(transport);
      // In without a login: nothing to store.
      const tools = await countTools(client);
      await client.close();
      return { loggedIn: false, tools, file };
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) {
        await client.close().catch(() => undefined);
        throw error;
      }
    }
    const code = await callback.code;
    await transport.finishAuth(code);
  } finally {
    callback.close();
  }

  // Prove it: connect as a session would, with what is stored now.
  const verifier = new Client({ name: 'seek', version: SEEK_VERSION }, { capabilities: {} });
  try {
    await verifier.connect(remoteTransport(definition.type, url, headers, new SeekOAuthProvider({ file, serverName: server.name, serverUrl: url.href, preRegistered })));
    return { loggedIn: true, tools: await countTools(verifier), file };
  } catch (error) {
    if (!(error instanceof NeedsLoginError || error instanceof UnauthorizedError)) throw error;
    // Not "needs login" right after one: the server wants more than it granted.
    const { scope } = await readStoredAuth(file, url.href);
    throw new Error(`${server.name} refuses the tokens this login got${scope ? ` (it asks for scope "${scope}")` : ''}`);
  } finally {
    await verifier.close();
  }
}

function remoteTransport(type: string, url: URL, headers: Record<string, string>, authProvider: SeekOAuthProvider): StreamableHTTPClientTransport | SSEClientTransport {
  return type === 'sse'
    ? new SSEClientTransport(url, { requestInit: { headers }, authProvider })
    : new StreamableHTTPClientTransport(url, { requestInit: { headers }, authProvider });
}

async function countTools(client: Client): Promise<number> {
  if (!client.getServerCapabilities()?.tools) return 0;
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    count += page.tools.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

/** The port of a loopback redirect URI the client was registered with, if any. */
function loopbackPort(client: object | undefined): number | undefined {
  const uris = client && 'redirect_uris' in client ? client.redirect_uris : undefined;
  if (!Array.isArray(uris) || typeof uris[0] !== 'string') return undefined;
  try {
    const uri = new URL(uris[0]);
    return uri.hostname === '127.0.0.1' && uri.port !== '' ? Number(uri.port) : undefined;
  } catch {
    return undefined;
  }
}

export interface CallbackServer {
  port: number;
  redirectUrl: string;
  /** The authorization code, once the browser comes back with the right state. */
  code: Promise<string>;
  close: () => void;
}

/**
 * A one-shot HTTP server on 127.0.0.1 for the OAuth redirect: `GET /callback?code&state`. It
 * answers with a short page, settles `code` and stops. A wrong or missing `state` (a stale tab, a
 * forged request) or an `error` from the authorization server fails the login; so does no answer
 * within `timeoutMs`. Tries `port` first (where a registered client expects it), else any port.
 */
export async function startCallbackServer(options: { port?: number; state: string; serverName: string; timeoutMs: number }): Promise<CallbackServer> {
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => undefined); // handled by whoever awaits it; never an unhandled rejection
  const server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
    if (!request.url?.startsWith('/callback')) {
      response.writeHead(404, { 'Content-Type': 'text/plain', Connection: 'close' }).end('not found\n');
      return;
    }
    const error = query.get('error');
    const failure = error
      ? `the authorization server refused: ${error}${query.get('error_description') ? ` (${query.get('error_description')})` : ''}`
      : query.get('state') !== options.state
        ? 'the browser came back with the wrong state (a stale or forged request); run the login again'
        : !query.get('code')
          ? 'the browser came back without an authorization code'
          : undefined;
    response.writeHead(failure ? 400 : 200, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
    response.end(page(failure ? `Login to ${options.serverName} failed: ${failure}.` : `Logged in to ${options.serverName}. You can close this tab.`));
    if (failure) settle.reject(new Error(`login to ${options.serverName} failed: ${failure}`));
    else settle.resolve(query.get('code')!);
    stop();
  });
  const timer = setTimeout(() => {
    settle.reject(new Error(`no answer from the browser within ${Math.round(options.timeoutMs / 1000)} s`));
    stop();
  }, options.timeoutMs);
  function stop(): void {
    clearTimeout(timer);
    server.close();
    server.closeIdleConnections();
  }
  const port = await listen(server, options.port).catch(() => listen(server, 0));
  return {
    port,
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code,
    close: () => {
      settle.reject(new Error('login cancelled'));
      stop();
    },
  };
}

function listen(server: Server, port: number | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function page(message: string): string {
  const escaped = message.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<!doctype html><meta charset="utf-8"><title>seek</title><p style="font-family:sans-serif">${escaped}</p>\n`;
}

/**
 * Sends the user to `url`: SEEK_MCP_AUTH_OPENER (a program given the URL; tests use it to follow
 * the flow), else the platform's opener (`open`, `start`, `xdg-open`) unless SEEK_NO_BROWSER=1.
 * The URL is always printed too, for when no browser opens (a headless machine, over ssh).
 */
export function openInBrowser(url: URL, serverName: string, env: Env, say: (text: string) => void): void {
  const opener = env.SEEK_MCP_AUTH_OPENER;
  const noBrowser = env.SEEK_NO_BROWSER === '1' && !opener;
  say(noBrowser ? `Open this URL in a browser to log in to ${serverName}:\n  ${url.href}\n` : `Opening the browser to log in to ${serverName}. If it does not open, visit:\n  ${url.href}\n`);
  if (noBrowser) return;
  const [command, args, extra] = opener
    ? [opener, [url.href], {}]
    : process.platform === 'darwin'
      ? ['open', [url.href], {}]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', `"${url.href}"`], { windowsVerbatimArguments: true }]
        : ['xdg-open', [url.href], {}];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: !opener, ...extra });
    child.on('error', () => undefined); // not installed: the printed URL is the way
    if (!opener) child.unref();
  } catch {
    // Same: the URL is printed.
  }
}
