/**
 * No secret is printed or kept (issue 33, item 7), through the real seek process: a base URL with
 * user info and a `?key=` parameter, against a loopback server that fails (and one that cannot be
 * reached), never shows the password, the query key or the API key on stdout (text, json,
 * stream-json), on stderr or in the session files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, runSeek } from '../support/seek-process.js';
import { WireLoopback } from '../unit/providers/wire-loopback.js';

const URL_PASSWORD = 'URLPASS-7f3e9a1c55';
const QUERY_KEY = 'QUERYKEY-c0ffee1234';
const API_KEY = 'sk-live-APIKEY-0123456789abcdef';
const SECRETS = [URL_PASSWORD, QUERY_KEY, API_KEY];

let server: WireLoopback;
beforeAll(async () => {
  server = await WireLoopback.start();
});
afterAll(() => server.close());

/** `http://seek-user:PASSWORD@host:port/v1?key=KEY&api_key=KEY` for the loopback server's address. */
function secretUrl(base: string): string {
  const url = new URL(base);
  return `${url.protocol}//seek-user:${URL_PASSWORD}@${url.host}/v1?key=${QUERY_KEY}&api_key=${QUERY_KEY}`;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Every file under `dir`, read. */
function filesUnder(dir: string): string {
  let all = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    all += statSync(path).isDirectory() ? filesUnder(path) : `${readFileSync(path, 'utf8')}\n`;
  }
  return all;
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/** The server's error echoes the key it was given, as real servers do. */
function failing(status: number) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}. See ${secretUrl(server.url)}`, type: 'invalid_request_error' } }));
  };
}

async function runAll(baseUrl: string): Promise<void> {
  const { root, home } = makeProject();
  const env = { SEEK_HOME: home, DEEPSEEK_API_KEY: API_KEY, DEEPSEEK_BASE_URL: baseUrl, SEEK_RETRY_BASE_MS: '1', SEEK_MAX_RETRIES: '1' };
  for (const format of ['text', 'json', 'stream-json']) {
    const run = await runSeek(['-p', 'hi', '--output-format', format], { cwd: root, env });
    expect(run.code, run.stderr).toBe(1);
    expectNoSecret(run.stdout);
    expectNoSecret(run.stderr);
    // The error still says where seek tried, with the credentials masked.
    expect(run.stdout + run.stderr).toContain('://***@127.0.0.1');
    expect(run.stdout + run.stderr).toContain('key=***');
  }
  // Nor do the session files.
  expectNoSecret(filesUnder(join(home, 'projects')));
}

describe('secrets in the base URL and the key are never printed', () => {
  it('a server that rejects the key (401) and one that has no such model (404)', async () => {
    server.serve(failing(401));
    await runAll(secretUrl(server.url));
    server.serve(failing(404));
    await runAll(secretUrl(server.url));
  });

  it('a server that cannot be reached', async () => {
    await runAll(secretUrl(`http://127.0.0.1:${await closedPort()}`));
  });
});
