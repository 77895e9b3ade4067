import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider, type ProviderName } from '../../../src/providers/index.js';
import type { StreamEvent } from '../../../src/providers/types.js';
import { collect } from '../../support/scripted-server/index.js';
import { WireLoopback } from './wire-loopback.js';

let server: WireLoopback;
beforeAll(async () => {
  server = await WireLoopback.start();
});
afterAll(() => server.close());

function stream(provider: ProviderName, keySource?: string): Promise<StreamEvent[]> {
  const baseUrl = provider === 'anthropic' ? server.url : `${server.url}/v1`;
  const p = createProvider({
    provider,
    apiKey: 'k',
    baseUrl,
    ...(keySource ? { keySource } : {}),
    retry: { maxAttempts: 3, baseDelayMs: 1, sleep: async () => {} },
  });
  return collect(p.stream({ model: 'some-model', system: 's', messages: [{ role: 'user', content: 'hi' }], tools: [] }));
}

function failure(events: StreamEvent[]): Extract<StreamEvent, { type: 'error' }> {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(last)}`);
  return last;
}

describe.each(['openai-compatible', 'anthropic'] as const)('error advice on the %s wire', (provider) => {
  it('a 401 names where the key came from, in the error and in the message', async () => {
    server.serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    });
    const { error, message } = failure(await stream(provider, 'the TEST_API_KEY environment variable'));
    expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false });
    expect(error.message).toContain('invalid x-api-key. The key in use comes from the TEST_API_KEY environment variable');
    expect(message.errorMessage).toBe(error.message);
    expect(server.requests).toHaveLength(1);
  });

  it('a 404 says how to list the models, with the wire-specific request', async () => {
    server.serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'model not found' } }));
    });
    const { error } = failure(await stream(provider));
    expect(error).toMatchObject({ kind: 'bad_request', status: 404 });
    expect(error.message).toContain('Model "some-model" may not exist there');
    expect(error.message).toContain(provider === 'anthropic' ? `curl ${server.url}/v1/models -H "x-api-key:` : `curl ${server.url}/v1/models -H "Authorization: Bearer`);
  });

  it.each([200, 404])('an HTML answer (HTTP %i) is called out as not an API endpoint and not retried', async (status) => {
    server.serve((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome</body></html>');
    });
    const { error } = failure(await stream(provider));
    expect(error).toMatchObject({ kind: 'bad_request', retryable: false, status });
    expect(error.message).toContain(`answered with an HTML page (HTTP ${status}), not an API response`);
    expect(server.requests).toHaveLength(1);
  });

  it('an HTML overload page (a 503 from a CDN) stays a retried server error', async () => {
    server.serve((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body>503 Service Temporarily Unavailable</body></html>');
    });
    const events = await stream(provider);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    expect(failure(events).error).toMatchObject({ kind: 'server', status: 503, attempts: 3 });
    expect(failure(events).error.message).not.toContain('HTML page');
  });
});
