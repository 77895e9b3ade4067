import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWeb, type FakeWeb } from '../support/fake-web.js';
import type { Responder, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek, type SeekRun } from '../support/seek-process.js';

// A run that lasts, and will write no code cache, switches V8's --optimize-for-size on (src/launch/
// memory-saver.ts): V8 rejects a code cache made under other flags, so only such a run may switch,
// and it then writes no cache. SEEK_LAUNCH_TRACE=1 makes the launcher say what it did, one line per
// script compiled (its code cache accepted, rejected, missing) and one for the switch. Each run
// holds its first model reply until the launcher has decided, so nothing here waits for time.

const suite = useScriptedServer();
let web: FakeWeb;
beforeAll(async () => {
  web = await startFakeWeb();
});
afterAll(async () => {
  await web.close();
});

const ON = 'seek launch: --optimize-for-size on';
const STAYS_OFF = 'seek launch: --optimize-for-size stays off';

interface Caches {
  print: string;
  web: string | undefined;
}

function caches(home: string): Caches {
  const dir = join(home, 'cache', 'v8');
  const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.bin')) : [];
  const print = names.filter((name) => /^headless-.*-print\.bin$/.test(name));
  expect(print).toHaveLength(1);
  const chunk = names.find((name) => name.startsWith('chunk-web-'));
  return { print: join(dir, print[0]!), web: chunk === undefined ? undefined : join(dir, chunk) };
}

/** A `seek -p` run whose first model reply waits until the launcher's trace shows `decision`; the
 * model then reads the README, fetches a page (the web chunk's first use) and answers. */
async function run(project: { root: string; home: string }, decision: string): Promise<SeekRun> {
  let decided: () => void = () => undefined;
  const seen = new Promise<void>((resolve) => (decided = resolve));
  let trace = '';
  const held: Responder = async (): Promise<ScriptedReply> => {
    await seen;
    return { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] };
  };
  suite.server.enqueue(held, { toolCalls: [{ name: 'web_fetch', arguments: { url: `${web.base}/page.html` } }] }, { text: 'All read.' });
  const result = await runSeek(['-p', 'read the readme and the guide', '--no-save'], {
    cwd: project.root,
    env: suite.env(project.home, { SEEK_LAUNCH_TRACE: '1' }),
    timeoutMs: 60_000,
    onSpawn: (child) =>
      child.stderr!.on('data', (chunk: Buffer) => {
        trace += chunk.toString();
        if (trace.includes(decision)) decided();
      }),
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('All read.');
  const toolResults = (suite.server.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool');
  expect(toolResults.map((m) => m.content).join('\n')).toContain('Installing seek'); // the web chunk worked
  return result;
}

describe('the memory saver (--optimize-for-size in a run that writes no code cache)', () => {
  it('stays off in a first run, switches on in the next, and leaves every cache as the next start accepts it', async () => {
    const project = makeProject();
    writeFileSync(join(project.home, 'config.json'), JSON.stringify({ permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } }));

    // A first run: no cache yet, so it has one to write and leaves the flag off.
    const first = await run(project, STAYS_OFF);
    expect(first.stderr).toContain('headless.cjs: code cache missing');
    expect(first.stderr).not.toContain(ON);
    const written = caches(project.home);
    expect(readFileSync(written.print)[0]).toBe(1 | 8); // a headless run that ran tools
    expect(written.web).toBeDefined();
    const printBytes = readFileSync(written.print);
    const printAt = statSync(written.print).mtimeMs;
    const webAt = statSync(written.web!).mtimeMs;

    // The next run finds a cache that holds it all: it switches on. The web chunk, first used after
    // the switch, has its cache rejected (V8's flag hash), compiles without it, and writes nothing.
    const second = await run(project, ON);
    expect(second.stderr).toContain('headless.cjs: code cache accepted (kinds 9)');
    expect(second.stderr).toContain(ON);
    expect(second.stderr).toContain('web.cjs: code cache rejected');
    expect(statSync(written.print).mtimeMs).toBe(printAt);
    expect(statSync(written.web!).mtimeMs).toBe(webAt);
    expect(readFileSync(written.print).equals(printBytes)).toBe(true);

    // And the start after that still accepts the cache (one written under the flag would not be).
    const third = await run(project, ON);
    expect(third.stderr).toContain('headless.cjs: code cache accepted (kinds 9)');
    expect(statSync(written.print).mtimeMs).toBe(printAt);
    expect(statSync(written.web!).mtimeMs).toBe(webAt);
  });

  it('stays off while a cache lacks the tools, and the run adds them', async () => {
    const project = makeProject();
    writeFileSync(join(project.home, 'config.json'), JSON.stringify({ permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } }));
    suite.server.enqueue({ text: 'Hello!' });
    const hello = await runSeek(['-p', 'say hello', '--no-save'], { cwd: project.root, env: suite.env(project.home) });
    expect(hello.stdout).toContain('Hello!');
    expect(readFileSync(caches(project.home).print)[0]).toBe(1); // no tools in it yet
    const learning = await run(project, STAYS_OFF);
    expect(learning.stderr).toContain('headless.cjs: code cache accepted (kinds 1)');
    expect(learning.stderr).not.toContain(ON);
    expect(readFileSync(caches(project.home).print)[0]).toBe(1 | 8); // this run added the tools
  });
});
