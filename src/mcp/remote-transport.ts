/**
 * Reaching a remote (Streamable HTTP or HTTP+SSE) MCP server: its endpoint with `${VAR}`s expanded,
 * the stored OAuth login it is sent with, and the transport that falls back to HTTP+SSE for servers
 * from before Streamable HTTP. Split from connection.ts, which owns one server's life.
 */
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { RemoteDefinition } from './config.js';
import { mcpAuthFile, SeekOAuthProvider } from './oauth.js';

/** A remote server's URL, headers and pre-registered OAuth client, `${VAR}`s expanded with `expand`. */
export function remoteEndpoint(
  definition: RemoteDefinition,
  expand: (text: string) => string,
): { url: URL; headers: Record<string, string>; preRegistered?: OAuthClientInformationMixed } {
  const url = new URL(expand(definition.url));
  const headers = Object.fromEntries(Object.entries(definition.headers ?? {}).map(([key, value]) => [key, expand(value)]));
  const { oauth } = definition;
  const preRegistered = oauth && {
    client_id: expand(oauth.client_id),
    ...(oauth.client_secret ? { client_secret: expand(oauth.client_secret) } : {}),
    ...(oauth.callback_port ? { redirect_uris: [`http://127.0.0.1:${oauth.callback_port}/callback`] } : {}),
  };
  return { url, headers, ...(preRegistered ? { preRegistered } : {}) };
}

/**
 * The stored OAuth login (src/mcp/oauth.ts) for a remote server, unless its config sends its own
 * Authorization header (a static token, which OAuth would override). It refreshes expired tokens
 * and never starts a login.
 */
export function sessionAuthProvider(
  name: string,
  url: URL,
  headers: Record<string, string>,
  home: string,
  preRegistered: OAuthClientInformationMixed | undefined,
): OAuthClientProvider | undefined {
  if (Object.keys(headers).some((header) => header.toLowerCase() === 'authorization')) return undefined;
  return new SeekOAuthProvider({ file: mcpAuthFile(home, name), serverName: name, serverUrl: url.href, preRegistered });
}

/**
 * Streamable HTTP, falling back to the older HTTP+SSE transport when the server answers the first
 * POST with 4xx (a server from before Streamable HTTP), as the MCP specification describes.
 * 401 and 403 are not such answers: they say the server wants authorization (the MCP authorization
 * flow starts with a 401 on that POST), so they are reported as such instead of being hidden behind
 * the GET the fallback would make (found by the conformance suite's auth scenarios).
 */
export class FallbackHttpTransport implements Transport {
  private inner: Transport;
  private fellBack = false;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    private readonly authProvider: OAuthClientProvider | undefined,
    private readonly serverName: string,
  ) {
    this.inner = new StreamableHTTPClientTransport(url, { requestInit: { headers }, authProvider });
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.wire();
    await this.inner.start();
  }

  async send(...args: Parameters<Transport['send']>): Promise<void> {
    try {
      await this.inner.send(...args);
    } catch (error) {
      const status = /HTTP (\d{3})/.exec((error as Error).message)?.[1] ?? String((error as { code?: number }).code ?? '');
      if (status === '401' || status === '403') throw new Error(unauthorizedMessage(status, error as Error, this.serverName, this.authProvider !== undefined));
      if (this.fellBack || !/^4\d\d$/.test(status)) throw error;
      this.fellBack = true;
      // Closing the first transport must not read as the connection closing.
      const first = this.inner;
      first.onclose = undefined;
      first.onerror = undefined;
      first.onmessage = undefined;
      await first.close().catch(() => undefined);
      this.inner = new SSEClientTransport(this.url, { requestInit: { headers: this.headers }, authProvider: this.authProvider });
      this.wire();
      await this.inner.start();
      await this.inner.send(...args);
    }
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private wire(): void {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }
}

/** A 401/403 that OAuth did not resolve: with OAuth, the login did not satisfy the server (a login
 * that is missing altogether is NeedsLoginError before this); without (the config sets its own
 * Authorization header), that header was refused. */
function unauthorizedMessage(status: string, error: Error, serverName: string, oauth: boolean): string {
  const refused = status === '401' ? 'requires authorization' : 'refused access';
  const hint = oauth
    ? `run \`seek mcp login ${serverName}\` (again)`
    : 'it refused the "Authorization" header from the server\'s config (seek uses no OAuth for a server that sets one)';
  return `the server ${refused} (HTTP ${status}); ${hint}. ${error.message}`;
}
