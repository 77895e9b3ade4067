import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, runSeek } from '../support/seek-process.js';
import { keepAlive, openAIAnswer, SSE_HEADERS, WireLoopback } from '../unit/providers/wire-loopback.js';

// The real seek process against a loopback server answering what real servers answer when the
// key, the model or the base URL is wrong, or when a queued request is kept alive.

let server: WireLoopback;
beforeAll(async () => {
  server = await WireLoopback.start();
});
afterAll(() => server.close());

function deepseekEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { SEEK_HOME: home, DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', SEEK_MAX_RETRIES: '1', ...extra };
}

const project = makeProject();

async function headlessResult(env: Record<string, string>): Promise<{ code: number | null; result: Record<string, unknown> }> {
  const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: project.root, env });
  return { code: run.code, result: JSON.parse(run.stdout) as Record<string, unknown> };
}

function jsonError(status: number, message: string) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
  };
}

describe('provider errors that say what to do (seek -p)', () => {
  it('a 401 names the environment variable the key came from', async () => {
    server.serve(jsonError(401, 'Authentication Fails, Your api key is invalid'));
    const { code, result } = await headlessResult(deepseekEnv(project.home, { DEEPSEEK_API_KEY: 'sk-wrong' }));
    expect(code).toBe(1);
    expect(result['error']).toMatch(/HTTP 401 \(authentication failed\)/);
    expect(result['error']).toContain('The key in use comes from the DEEPSEEK_API_KEY environment variable');
  });

  it('a 403 names the config entry the key came from', async () => {
    const { home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ providers: { deepseek: { api_key: 'sk-from-file' } } }));
    server.serve(jsonError(403, 'forbidden'));
    const { code, result } = await headlessResult(deepseekEnv(home));
    expect(code).toBe(1);
    expect(result['error']).toMatch(/HTTP 403/);
    expect(result['error']).toContain(`The key in use comes from providers.deepseek.api_key in ${join(home, 'config.json')}`);
  });

  it('a 404 says how to list the models the server offers', async () => {
    server.serve(jsonError(404, 'The model `deepseek-nope` does not exist'));
    const { code, result } = await headlessResult(deepseekEnv(project.home, { DEEPSEEK_API_KEY: 'k', SEEK_MODEL: 'deepseek-nope' }));
    expect(code).toBe(1);
    expect(result['error']).toContain('Model "deepseek-nope" may not exist there');
    expect(result['error']).toContain(`curl ${server.url}/models`);
  });

  it('a base URL that answers HTML is called out as not an API endpoint, without retrying', async () => {
    server.serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body><h1>Welcome to our website</h1></body></html>');
    });
    const { code, result } = await headlessResult(deepseekEnv(project.home, { DEEPSEEK_API_KEY: 'k' }));
    expect(code).toBe(1);
    expect(result['error']).toContain(`answered with an HTML page (HTTP 200), not an API response`);
    expect(result['error']).toContain('is not an API endpoint');
    expect(result['error']).not.toMatch(/attempts/);
  });

  it('a request kept alive with SSE comments past the idle timeout succeeds without retry', async () => {
    const idleTimeoutMs = 500;
    let streamed = 0;
    server.serve((_req, res, body) => {
      if (!body.includes('"stream":true')) {
        // Not the turn's streamed request (a side call, if any): refused, and not counted.
        res.writeHead(500).end();
        return;
      }
      streamed++;
      res.writeHead(200, SSE_HEADERS);
      const started = performance.now();
      const timer = setInterval(() => {
        if (res.destroyed) clearInterval(timer);
        else if (performance.now() - started < idleTimeoutMs * 2.5) res.write(keepAlive('openai'));
        else {
          clearInterval(timer);
          res.end(openAIAnswer('worth the wait'));
        }
      }, 40);
    });
    const { code, result } = await headlessResult(
      deepseekEnv(project.home, { DEEPSEEK_API_KEY: 'k', SEEK_STREAM_IDLE_TIMEOUT_MS: String(idleTimeoutMs) }),
    );
    expect(result).toMatchObject({ subtype: 'success', result: 'worth the wait' });
    expect(code).toBe(0);
    expect(streamed).toBe(1);
  });
});

describe('honest cost (seek -p)', () => {
  const answering = (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, SSE_HEADERS);
    res.end(openAIAnswer('hello'));
  };

  it('a model without known prices reports its cost as unknown: null with cost_known false, never 0', async () => {
    server.serve(answering);
    const env = deepseekEnv(project.home, { DEEPSEEK_API_KEY: 'k', SEEK_MODEL: 'some-local-model' });
    const { code, result } = await headlessResult(env);
    expect(code).toBe(0);
    expect(result).toMatchObject({ subtype: 'success', total_cost_usd: null, cost_known: false, usage: { input_tokens: 10, output_tokens: 2 } });

    const streamed = await runSeek(['-p', 'hi', '--output-format', 'stream-json'], { cwd: project.root, env });
    const lines = streamed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line['type'] === 'usage')).toMatchObject({ model: 'some-local-model', cost_usd: null, cost_known: false });
    expect(lines.at(-1)).toMatchObject({ type: 'result', total_cost_usd: null, cost_known: false });
  });

  it('a catalog model reports its price with cost_known true', async () => {
    server.serve(answering);
    const { result } = await headlessResult(deepseekEnv(project.home, { DEEPSEEK_API_KEY: 'k', SEEK_MODEL: 'deepseek-v4-flash' }));
    // 10 input tokens at $0.14/M and 2 output tokens at $0.28/M (catalog.ts).
    expect(result).toMatchObject({ cost_known: true, total_cost_usd: expect.closeTo((10 * 0.14 + 2 * 0.28) / 1e6, 12) });
  });
});

describe('model prices from config (seek -p)', () => {
  it('prices a model the catalog does not know from ~/.seek/config.json models', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ models: { 'some-local-model': { input: 3, output: 12, context_window: 32_000 } } }));
    server.serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(openAIAnswer('priced'));
    });
    const run = await runSeek(['-p', 'hi', '--output-format', 'json'], { cwd: root, env: deepseekEnv(home, { DEEPSEEK_API_KEY: 'k', SEEK_MODEL: 'some-local-model' }) });
    expect(JSON.parse(run.stdout)).toMatchObject({ cost_known: true, total_cost_usd: expect.closeTo((10 * 3 + 2 * 12) / 1e6, 12) });
  });
});
