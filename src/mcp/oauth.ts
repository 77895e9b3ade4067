import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { SERVER_NAME } from './config.js';

/**
 * OAuth for remote MCP servers, on the SDK's client auth (`auth()` in
 * @modelcontextprotocol/sdk/client/auth.js drives discovery, dynamic client registration, PKCE,
 * the code exchange and refresh; this file only keeps what it hands us).
 *
 * One file per server, `<SEEK_HOME>/mcp-auth/<server>.json` (directory 0700, file 0600, replaced
 * atomically), holding the registered client, the tokens and the PKCE verifier of a login in
 * progress, all bound to the server URL they were obtained for: when the URL in the config
 * changes, nothing stored is presented to the new one.
 */

/** What the file holds. Values are kept exactly as the SDK gave them (with their `issuer`). */
export interface StoredAuth {
  server_url: string;
  client_information?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** ms since the epoch when `tokens` were saved, for `expires_in`. */
  tokens_saved_at?: number;
  code_verifier?: string;
  /** Scopes a session was refused for (a 403 `insufficient_scope` asking for more, "step-up"): it
   * cannot ask the user, so it keeps them here and the next login asks for them too. */
  scope?: string;
}

/** Where a loopback callback is registered when no login is running (never listened on). */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

export function mcpAuthFile(seekHome: string, serverName: string): string {
  if (!SERVER_NAME.test(serverName)) throw new Error(`"${serverName}" is not a server name (letters, digits, _ and - only)`);
  return join(seekHome, 'mcp-auth', `${serverName}.json`);
}

export function needsLoginMessage(serverName: string): string {
  return `needs login: run \`seek mcp login ${serverName}\``;
}

/** Thrown instead of opening a browser when no login is running (sessions, `seek mcp list`). */
export class NeedsLoginError extends Error {
  constructor(serverName: string) {
    super(needsLoginMessage(serverName));
    this.name = 'NeedsLoginError';
  }
}

/** The stored auth for `serverUrl`; empty when there is none, it is unreadable, or it was for another URL. */
export async function readStoredAuth(file: string, serverUrl: string): Promise<StoredAuth> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return { server_url: serverUrl };
  }
  if (!parsed || typeof parsed !== 'object' || (parsed as StoredAuth).server_url !== serverUrl) return { server_url: serverUrl };
  return parsed as StoredAuth;
}

export async function writeStoredAuth(file: string, stored: StoredAuth): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700); // also when it existed with a looser mode
  await writeFileAtomic(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, durable: true });
}

/** Forgets a server's login. True when there was a file to remove. */
export async function removeStoredAuth(seekHome: string, serverName: string): Promise<boolean> {
  const file = mcpAuthFile(seekHome, serverName);
  try {
    await rm(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The scopes of `first` followed by those of `second` it lacks (space-separated lists). */
export function unionOfScopes(first: string | undefined, second: string | undefined): string | undefined {
  const scopes = [...new Set([...(first ?? '').split(' '), ...(second ?? '').split(' ')].filter(Boolean))];
  return scopes.length > 0 ? scopes.join(' ') : undefined;
}

/** A login in progress: where the browser comes back to, the state it must bring, and how to send it there. */
export interface InteractiveLogin {
  redirectUrl: string;
  state: string;
  openAuthorizationUrl: (url: URL) => void | Promise<void>;
}

export interface SeekOAuthProviderOptions {
  file: string;
  serverName: string;
  /** The MCP server's URL: the stored file is only used for this URL. */
  serverUrl: string;
  /** The server's `oauth` from the config: a client registered beforehand, used instead of a
   * stored (dynamically registered) one. */
  preRegistered?: OAuthClientInformationMixed;
  /** Only `seek mcp login` passes one. Without it, anything that would need the user (a new
   * registration, an authorization in the browser) throws NeedsLoginError instead. */
  login?: InteractiveLogin;
}

/**
 * The SDK's OAuthClientProvider over the per-server file. Every read goes to the file, so several
 * seek processes share one login and see each other's refreshes.
 */
export class SeekOAuthProvider implements OAuthClientProvider {
  /** The access token this provider last handed out (see invalidateCredentials). */
  private lastAccessToken: string | undefined;
  /** A login ignores the tokens it finds (it is there to get new ones) until it has saved its own,
   * so a login that fails leaves the previous tokens in place. */
  private savedOwnTokens = false;

  constructor(private readonly options: SeekOAuthProviderOptions) {}

  get redirectUrl(): string {
    // Must be set even without a login: the SDK reads "no redirect URL" as a machine-to-machine
    // client and would try client_credentials.
    return this.options.login?.redirectUrl ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'seek',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none', // a public client: PKCE, no secret
    };
  }

  state(): string {
    return this.options.login?.state ?? '';
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const stored = await this.read();
    // Without tokens there is nothing a background start can do but ask the user: say so before
    // the SDK registers a new client with the server.
    if (!this.options.login && !stored.tokens) throw new NeedsLoginError(this.options.serverName);
    return this.options.preRegistered ?? stored.client_information;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    // The SDK saves a pre-registered client too (stamped with its issuer): the config keeps it, so
    // its secret is not copied to disk.
    if (this.options.preRegistered) return;
    if (!this.options.login && !(await this.read()).client_information) throw new NeedsLoginError(this.options.serverName);
    await this.update((stored) => ({ ...stored, client_information: clientInformation }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.options.login && !this.savedOwnTokens) return undefined;
    const { tokens } = await this.read();
    this.lastAccessToken = tokens?.access_token;
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update((stored) => {
      // A refresh answered without a new refresh token leaves the old one in force: keep it.
      const keepRefresh = !tokens.refresh_token && stored.tokens?.refresh_token && stored.tokens.issuer === tokens.issuer;
      const saved = keepRefresh ? { ...tokens, refresh_token: stored.tokens!.refresh_token } : tokens;
      return { ...stored, tokens: saved, tokens_saved_at: Date.now(), code_verifier: undefined };
    });
    this.lastAccessToken = tokens.access_token;
    this.savedOwnTokens = true;
  }

  /**
   * Without a login: remembers the scope the SDK would have asked for (after a 403
   * `insufficient_scope` that is more than the tokens have) and throws NeedsLoginError. A login asks
   * for the scopes remembered so, besides the ones the server asks for now: the server's 401 names
   * only the scope to connect, and without them the login would get the same too-small tokens.
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { login } = this.options;
    const asked = authorizationUrl.searchParams.get('scope') ?? undefined;
    const remembered = (await this.read()).scope;
    if (!login) {
      const scope = unionOfScopes(remembered, asked);
      if (scope !== remembered) await this.update((stored) => ({ ...stored, scope }));
      throw new NeedsLoginError(this.options.serverName);
    }
    const scope = unionOfScopes(asked, remembered);
    if (scope) authorizationUrl.searchParams.set('scope', scope);
    await login.openAuthorizationUrl(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    // Without a login nothing is kept: the redirect that follows throws NeedsLoginError.
    if (!this.options.login) return;
    await this.update((stored) => ({ ...stored, code_verifier: codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const { code_verifier: verifier } = await this.read();
    if (!verifier) throw new Error(`no login in progress for ${this.options.serverName} (no PKCE verifier stored)`);
    return verifier;
  }

  /** Called by the SDK when the server rejected something stored. */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.update((stored) => {
      const next = { ...stored };
      if (scope === 'all' || scope === 'client') next.client_information = undefined;
      // Another seek process may have refreshed meanwhile (rotating the refresh token we failed
      // with): only drop tokens that are still the ones we used.
      if ((scope === 'all' || scope === 'tokens') && stored.tokens?.access_token === this.lastAccessToken) {
        next.tokens = undefined;
        next.tokens_saved_at = undefined;
      }
      if (scope === 'all' || scope === 'verifier') next.code_verifier = undefined;
      return next;
    });
  }

  private read(): Promise<StoredAuth> {
    return readStoredAuth(this.options.file, this.options.serverUrl);
  }

  private async update(change: (stored: StoredAuth) => StoredAuth): Promise<void> {
    await writeStoredAuth(this.options.file, change(await this.read()));
  }
}
