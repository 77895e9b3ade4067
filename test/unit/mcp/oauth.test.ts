import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCallbackServer } from '../../../src/mcp/oauth-login.js';
import { mcpAuthFile, NeedsLoginError, readStoredAuth, removeStoredAuth, SeekOAuthProvider, unionOfScopes, writeStoredAuth } from '../../../src/mcp/oauth.js';
import { tempDir } from '../../support/temp-dirs.js';

const URL_A = 'https://mcp.example.test/mcp';
const ISSUER = 'https://auth.example.test/';
const CLIENT = { client_id: 'client-1', redirect_uris: ['http://127.0.0.1:5123/callback'], issuer: ISSUER };

function setup() {
  const home = tempDir('seek-oauth-');
  const file = mcpAuthFile(home, 'remote');
  const opened: URL[] = [];
  const login = (state = 'st') =>
    new SeekOAuthProvider({ file, serverName: 'remote', serverUrl: URL_A, login: { redirectUrl: 'http://127.0.0.1:5123/callback', state, openAuthorizationUrl: (url) => void opened.push(url) } });
  const session = () => new SeekOAuthProvider({ file, serverName: 'remote', serverUrl: URL_A });
  const stored = () => JSON.parse(readFileSync(file, 'utf8'));
  return { home, file, opened, login, session, stored };
}

describe('SeekOAuthProvider storage', () => {
  it('keeps client, tokens and verifier in <home>/mcp-auth/<server>.json, private (0600 in a 0700 directory)', async () => {
    const { home, file, login, session, stored } = setup();
    expect(file).toBe(join(home, 'mcp-auth', 'remote.json'));
    const provider = login();
    await provider.saveClientInformation(CLIENT);
    await provider.saveCodeVerifier('verifier-1');
    expect(await provider.codeVerifier()).toBe('verifier-1');
    await provider.saveTokens({ access_token: 'a1', token_type: 'bearer', refresh_token: 'r1', expires_in: 60, issuer: ISSUER });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'mcp-auth')).mode & 0o777).toBe(0o700);
    expect(stored()).toMatchObject({ server_url: URL_A, client_information: CLIENT, tokens: { access_token: 'a1', refresh_token: 'r1', issuer: ISSUER } });
    expect(stored().code_verifier).toBeUndefined(); // spent once tokens arrive
    expect(stored().tokens_saved_at).toBeGreaterThan(0);
    // Another process (a session) reads the same file.
    expect(await session().tokens()).toMatchObject({ access_token: 'a1', refresh_token: 'r1' });
    expect(await session().clientInformation()).toEqual(CLIENT);
  });

  it('tightens a directory that exists with a looser mode', async () => {
    const { home, file, login } = setup();
    mkdirSync(join(home, 'mcp-auth'), { mode: 0o755 });
    chmodSync(join(home, 'mcp-auth'), 0o755);
    await login().saveClientInformation(CLIENT);
    expect(statSync(join(home, 'mcp-auth')).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('presents nothing stored for one URL to another, and reads a broken file as empty', async () => {
    const { file, login } = setup();
    await login().saveClientInformation(CLIENT);
    expect(await readStoredAuth(file, 'https://elsewhere.test/mcp')).toEqual({ server_url: 'https://elsewhere.test/mcp' });
    const other = new SeekOAuthProvider({ file, serverName: 'remote', serverUrl: 'https://elsewhere.test/mcp' });
    expect(await other.tokens()).toBeUndefined();
    writeFileSync(file, '{ not json');
    expect(await readStoredAuth(file, URL_A)).toEqual({ server_url: URL_A });
  });

  it('keeps the refresh token when a refresh answers without a new one, and takes a rotated one', async () => {
    const { session, stored, file } = setup();
    await writeStoredAuth(file, { server_url: URL_A, client_information: CLIENT, tokens: { access_token: 'a1', token_type: 'bearer', refresh_token: 'r1', issuer: ISSUER } });
    await session().saveTokens({ access_token: 'a2', token_type: 'bearer', issuer: ISSUER });
    expect(stored().tokens).toMatchObject({ access_token: 'a2', refresh_token: 'r1' });
    await session().saveTokens({ access_token: 'a3', token_type: 'bearer', refresh_token: 'r2', issuer: ISSUER });
    expect(stored().tokens).toMatchObject({ access_token: 'a3', refresh_token: 'r2' });
  });

  it('drops rejected tokens, but not tokens another process refreshed meanwhile', async () => {
    const { session, stored, file } = setup();
    await writeStoredAuth(file, { server_url: URL_A, client_information: CLIENT, tokens: { access_token: 'a1', token_type: 'bearer', refresh_token: 'r1', issuer: ISSUER } });
    const first = session();
    await first.tokens(); // handed out a1
    await session().saveTokens({ access_token: 'a2', token_type: 'bearer', refresh_token: 'r2', issuer: ISSUER }); // another process refreshed
    await first.invalidateCredentials('tokens'); // r1 was refused
    expect(stored().tokens).toMatchObject({ access_token: 'a2', refresh_token: 'r2' });
    const second = session();
    await second.tokens();
    await second.invalidateCredentials('tokens');
    expect(stored().tokens).toBeUndefined();
    expect(stored().client_information).toEqual(CLIENT);
    await second.invalidateCredentials('all');
    expect(stored().client_information).toBeUndefined();
  });

  it('without a login, asks for one instead of registering or opening a browser', async () => {
    const { session, opened, file } = setup();
    const provider = session();
    await expect(provider.clientInformation()).rejects.toThrow(NeedsLoginError);
    await expect(provider.clientInformation()).rejects.toThrow('needs login: run `seek mcp login remote`');
    await expect(provider.saveClientInformation(CLIENT)).rejects.toThrow(NeedsLoginError);
    await provider.saveCodeVerifier('v'); // kept nowhere: the redirect that follows refuses
    await expect(provider.redirectToAuthorization(new URL('https://auth.example.test/authorize'))).rejects.toThrow(NeedsLoginError);
    expect(opened).toEqual([]);
    expect(existsSync(file)).toBe(false);
    // The redirect URL is never empty (empty would mean client_credentials to the SDK).
    expect(provider.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1/);
  });

  it('a login opens the authorization URL, passes its state, and ignores old tokens until it has new ones', async () => {
    const { login, opened, file } = setup();
    await writeStoredAuth(file, { server_url: URL_A, client_information: CLIENT, tokens: { access_token: 'old', token_type: 'bearer', refresh_token: 'r-old', issuer: ISSUER } });
    const provider = login('state-42');
    expect(provider.state()).toBe('state-42');
    expect(provider.clientMetadata).toMatchObject({ redirect_uris: ['http://127.0.0.1:5123/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
    expect(await provider.tokens()).toBeUndefined();
    await provider.redirectToAuthorization(new URL('https://auth.example.test/authorize?x=1'));
    expect(opened.map(String)).toEqual(['https://auth.example.test/authorize?x=1']);
    await provider.saveTokens({ access_token: 'new', token_type: 'bearer', refresh_token: 'r-new', issuer: ISSUER });
    expect(await provider.tokens()).toMatchObject({ access_token: 'new' });
  });

  it('a session refused for more scope (step-up) remembers it, and the next login asks for it too', async () => {
    const { file, login, session, opened, stored } = setup();
    await writeStoredAuth(file, { server_url: URL_A, client_information: CLIENT, tokens: { access_token: 'small', token_type: 'bearer', issuer: ISSUER } });
    const refused = session();
    await refused.saveCodeVerifier('v');
    await expect(refused.redirectToAuthorization(new URL('https://auth.example.test/authorize?scope=mcp%3Abasic+mcp%3Awrite'))).rejects.toThrow(NeedsLoginError);
    expect(stored()).toMatchObject({ scope: 'mcp:basic mcp:write', tokens: { access_token: 'small' } });
    expect(stored().code_verifier).toBeUndefined();
    // The login's 401 names only the scope to connect; the URL it opens asks for both.
    await login().redirectToAuthorization(new URL('https://auth.example.test/authorize?scope=mcp%3Abasic&state=s'));
    expect(new URL(String(opened[0])).searchParams.get('scope')).toBe('mcp:basic mcp:write');
    expect(new URL(String(opened[0])).searchParams.get('state')).toBe('s');
    expect(unionOfScopes('a b', 'b c')).toBe('a b c');
    expect(unionOfScopes(undefined, '')).toBeUndefined();
  });

  it("uses the config's pre-registered client instead of a stored or new registration", async () => {
    const { file } = setup();
    const preRegistered = { client_id: 'pre', client_secret: 'shh' };
    await writeStoredAuth(file, { server_url: URL_A, client_information: CLIENT, tokens: { access_token: 'a', token_type: 'bearer', issuer: ISSUER } });
    const provider = new SeekOAuthProvider({ file, serverName: 'remote', serverUrl: URL_A, preRegistered });
    expect(await provider.clientInformation()).toEqual(preRegistered);
    await provider.saveClientInformation({ ...preRegistered, issuer: ISSUER }); // what the SDK does after a login
    await expect(readStoredAuth(file, URL_A)).resolves.toMatchObject({ client_information: CLIENT }); // the secret stays in the config
    // Still no login from a session without tokens.
    const fresh = setup();
    await expect(new SeekOAuthProvider({ file: fresh.file, serverName: 'remote', serverUrl: URL_A, preRegistered }).clientInformation()).rejects.toThrow(NeedsLoginError);
  });

  it('logout removes the file; names that are not server names are refused', async () => {
    const { home, login, file } = setup();
    await login().saveClientInformation(CLIENT);
    expect(await removeStoredAuth(home, 'remote')).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(await removeStoredAuth(home, 'remote')).toBe(false);
    expect(() => mcpAuthFile(home, '../config')).toThrow(/not a server name/);
  });
});

describe('the loopback callback server', () => {
  it('takes the code when the state matches, shows a closing page, and stops listening', async () => {
    const callback = await startCallbackServer({ state: 's1', serverName: 'remote', timeoutMs: 20_000 });
    expect(callback.redirectUrl).toBe(`http://127.0.0.1:${callback.port}/callback`);
    const response = await fetch(`${callback.redirectUrl}?code=the-code&state=s1`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('You can close this tab');
    await expect(callback.code).resolves.toBe('the-code');
    await expect.poll(() => fetch(callback.redirectUrl).then(() => 'answered', () => 'closed')).toBe('closed');
  });

  it('fails the login on a wrong state or an error from the authorization server', async () => {
    const wrong = await startCallbackServer({ state: 's1', serverName: 'remote', timeoutMs: 20_000 });
    const forged = await fetch(`${wrong.redirectUrl}?code=c&state=other`);
    expect(forged.status).toBe(400);
    await expect(wrong.code).rejects.toThrow(/wrong state/);

    const refused = await startCallbackServer({ state: 's2', serverName: 'remote', timeoutMs: 20_000 });
    const answer = await fetch(`${refused.redirectUrl}?error=access_denied&error_description=user%20said%20no&state=s2`);
    expect(answer.status).toBe(400);
    await expect(refused.code).rejects.toThrow('login to remote failed: the authorization server refused: access_denied (user said no)');
  });

  it('gives up after its timeout, and takes another port when the registered one is busy', async () => {
    const late = await startCallbackServer({ state: 's', serverName: 'remote', timeoutMs: 50 });
    await expect(late.code).rejects.toThrow(/no answer from the browser/);

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    try {
      const callback = await startCallbackServer({ port: busy, state: 's', serverName: 'remote', timeoutMs: 20_000 });
      expect(callback.port).not.toBe(busy);
      callback.close();
      await expect(callback.code).rejects.toThrow('login cancelled');
    } finally {
      blocker.close();
    }
  });
});
