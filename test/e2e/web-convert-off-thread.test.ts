/**
 * web_fetch converts a large page off the main thread (docs/web.md, src/web/convert-off-thread.ts):
 * the real seek (`-p`, stream-json output) against the scripted model and a page server on
 * 127.0.0.1 serving generated HTML of several MiB.
 *  - A second web_fetch in the same turn (read-only calls run together) gets its answer only once
 *    the big page's body has been sent whole, i.e. while the big page converts; its call must end
 *    first. With the conversion on the main thread, nothing else could run until it was done.
 *  - The whole fetch's deadline (`webFetch.timeoutSeconds`) passing during the conversion ends the
 *    call with a message that says so, and seek exits (the worker is terminated, not waited for).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { generatedArticleHtml } from '../support/generated-html.js';

const suite = useScriptedServer();
const BIG = generatedArticleHtml(8 * 1024 * 1024, 'Big page') + '<p>THE-LAST-LINE</p>';
const HUGE = generatedArticleHtml(12 * 1024 * 1024, 'Huge page');

let server: Server;
let base = '';
/** Resolves when the big page's body has been handed to the socket whole. */
let bigSent: Promise<void> = Promise.resolve();

beforeAll(async () => {
  let markSent = (): void => {};
  server = createServer((request, response) => {
    const send = (body: string): void => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };
    if (request.url === '/big.html') {
      bigSent = new Promise((resolve) => (markSent = resolve));
      response.on('finish', () => markSent());
      send(BIG);
    } else if (request.url === '/huge.html') send(HUGE);
    else if (request.url === '/small.html') void bigSent.then(() => send('<html><head><title>Small</title></head><body><h1>SMALL-PAGE</h1></body></html>'));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface ToolEnd {
  type: 'tool_end';
  tool_call_id: string;
  is_error: boolean;
  duration_ms: number;
  content: string;
  args?: unknown;
}

function setup(config: Record<string, unknown>): { root: string; home: string } {
  const project = makeProject();
  writeFileSync(join(project.home, 'config.json'), JSON.stringify({ permissions: { allow: ['WebFetch(domain:127.0.0.1)'] }, ...config }));
  return project;
}

/** The tool_end events of a stream-json run, in the order seek wrote them. */
function toolEnds(stdout: string): ToolEnd[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string })
    .filter((event): event is ToolEnd => event.type === 'tool_end');
}

describe('web_fetch off the main thread', () => {
  it('answers a parallel call while an 8 MiB page converts, then returns the whole page as Markdown', { timeout: 400_000 }, async () => {
    const project = setup({});
    suite.server.enqueue(
      {
        toolCalls: [
          { id: 'big', name: 'web_fetch', arguments: { url: `${base}/big.html`, offset: 0, max_bytes: 2000 } },
          { id: 'small', name: 'web_fetch', arguments: { url: `${base}/small.html` } },
        ],
      },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'read both', '--output-format', 'stream-json'], { cwd: project.root, env: suite.env(project.home), timeoutMs: 380_000 });
    expect(run.code, run.stderr).toBe(0);
    const ends = toolEnds(run.stdout);
    expect(ends.map((end) => end.tool_call_id)).toEqual(['small', 'big']);
    const [small, big] = ends;
    expect(small!.content).toContain('# SMALL-PAGE');
    expect(big!.is_error).toBe(false);
    expect(big!.content).toMatch(/text\/html, as Markdown, title "Big page"/);
    expect(big!.content).toContain('## Section 0');
    // The big call took longer than the small one, which waited for its body to be sent.
    expect(big!.duration_ms).toBeGreaterThan(small!.duration_ms);
  });

  it('ends the call when the fetch deadline passes during the conversion, saying so', { timeout: 300_000 }, async () => {
    const project = setup({ webFetch: { timeoutSeconds: 4 } });
    suite.server.enqueue({ toolCalls: [{ id: 'huge', name: 'web_fetch', arguments: { url: `${base}/huge.html` } }] }, { text: 'done' });
    const run = await runSeek(['-p', 'read it', '--output-format', 'stream-json'], { cwd: project.root, env: suite.env(project.home), timeoutMs: 280_000 });
    expect(run.code, run.stderr).toBe(0);
    const [huge] = toolEnds(run.stdout);
    expect(huge!.is_error).toBe(true);
    expect(huge!.content).toMatch(/did not finish in 4 s \(the time limit for the whole fetch\): it passed while converting the page to Markdown/);
    expect(huge!.content).toContain('"webFetch": {"timeoutSeconds": N}');
    // Ended at the deadline, not when the conversion (tens of seconds for 12 MiB) would have.
    expect(huge!.duration_ms).toBeLessThan(4_000 + 8_000);
    expect(suite.server.requests).toHaveLength(2);
  });
});
