/**
 * Issue 42 through the real seek: diagnostics after edits from real language servers
 * (typescript-language-server with typescript, pyright, both from the repository's node_modules),
 * servers that are missing, crash or never answer, the `lsp` tool, and no server left running.
 */
import { copyFileSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const BIN = new URL('../../node_modules/.bin', import.meta.url).pathname;
const FAKE = new URL('../fixtures/lsp/fake-server.mjs', import.meta.url).pathname;
/** Generous: a cold tsserver takes seconds, many more with the CPU saturated. */
const RUN_MS = 240_000;

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function env(home: string, lsp: unknown) {
  writeFileSync(join(home, 'config.json'), JSON.stringify({ lsp }));
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', PATH: `${BIN}:${process.env.PATH ?? ''}` };
}

/** The content of the tool result the model received in request `n`. */
function toolResult(n: number): string {
  return server.requests[n]!.body.messages.at(-1).content as string;
}

/** Processes whose working directory is `root` (language servers run there). */
function processesIn(root: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === root) found.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

const tsconfig = JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'esnext', moduleResolution: 'bundler', noEmit: true } });
const mathTs = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
const mainTs = 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\n';

describe('diagnostics after edits, real language servers', () => {
  it('typescript: an edit that breaks the types gets the error in its result, the fix clears it; no server outlives seek', async () => {
    const { root, home } = makeProject({ 'tsconfig.json': tsconfig, 'math.ts': mathTs, 'main.ts': mainTs });
    server.enqueue(
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'const total: number', new_string: 'const total: string' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'const total: string', new_string: 'const total: number' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'edit', '--yolo', '--output-format', 'stream-json'], { cwd: root, env: env(home, { wait_ms: 180_000 }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    expect(toolResult(1)).toContain('Edited main.ts');
    expect(toolResult(1)).toContain("LSP diagnostics: main.ts: 1 error\n  main.ts:3:14 error: Type 'number' is not assignable to type 'string'. [2322]");
    expect(toolResult(2)).toContain('LSP: no errors left in main.ts.');
    expect(toolResult(2)).not.toContain('2322');
    // stream-json carries them: in the result's text, and counted.
    const ends = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).filter((event) => event.type === 'tool_end');
    expect(ends[0]!.diagnostics).toEqual({ errors: 1, warnings: 0 });
    expect(String(ends[0]!.content)).toContain('[2322]');
    expect(processesIn(root)).toEqual([]);
  }, RUN_MS);

  it('python (pyright): write_file with a type error gets it; the fix clears it', async () => {
    const { root, home } = makeProject({ 'app.py': 'def double(x: int) -> int:\n    return x * 2\n' });
    server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'app.py', content: 'def double(x: int) -> int:\n    return "twice"\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'app.py', content: 'def double(x: int) -> int:\n    return x * 2\n' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home, { wait_ms: 180_000 }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    expect(toolResult(1)).toContain('LSP diagnostics: app.py: 1 error\n  app.py:2:12 error: Type "Literal[\'twice\']" is not assignable to return type "int"');
    expect(toolResult(2)).toContain('LSP: no errors left in app.py.');
    expect(processesIn(root)).toEqual([]);
  }, RUN_MS);

  it('the lsp tool finds the definition and the references of a function across files', async () => {
    const { root, home } = makeProject({ 'tsconfig.json': tsconfig, 'math.ts': mathTs, 'main.ts': mainTs, 'more.ts': 'import { add } from "./math";\nexport const four = add(2, 2);\n' });
    server.enqueue(
      { toolCalls: [{ name: 'lsp', arguments: { operation: 'definition', path: 'main.ts', line: 3, symbol: 'add' } }] },
      { toolCalls: [{ name: 'lsp', arguments: { operation: 'references', path: 'math.ts', line: 1, symbol: 'add' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'where is add used', '--yolo'], { cwd: root, env: env(home, {}), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    expect(toolResult(1)).toBe('Definition: 1\n  math.ts:1:17: export function add(a: number, b: number): number {');
    const references = toolResult(2);
    expect(references).toContain('References: 5');
    for (const line of ['math.ts:1:17: export function add', 'main.ts:1:10: import { add } from "./math";', 'main.ts:3:30: export const total: number = add(1, 2);', 'more.ts:1:10:', 'more.ts:2:21: export const four = add(2, 2);']) {
      expect(references).toContain(line);
    }
  }, RUN_MS);
});

describe('servers that fail never fail an edit', () => {
  const edit = { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'add(1, 2)', new_string: 'add(2, 3)' } }] };
  const edited = 'import { add } from "./math";\n\nexport const total: number = add(2, 3);\n';

  it('a missing server: the edit lands, with a note once', async () => {
    const { root, home } = makeProject({ 'math.ts': mathTs, 'main.ts': mainTs });
    server.enqueue(edit, { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'add(2, 3)', new_string: 'add(1, 2)' } }] }, { text: 'done' });
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home, { typescript: { command: ['no-such-language-server-42', '--stdio'], extensions: ['ts'] } }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    expect(toolResult(1)).toMatch(/^Edited main\.ts: replaced 1 occurrence[^\n]*\n\nLSP: no-such-language-server-42 not found on PATH: no diagnostics for \.ts files/);
    expect(toolResult(2)).not.toContain('LSP');
    expect(readFileSync(join(root, 'main.ts'), 'utf8')).toBe(mainTs);
  }, RUN_MS);

  it('a server that crashes at start: the edit lands, the note says how it ended', async () => {
    const { root, home } = makeProject({ 'math.ts': mathTs, 'main.ts': mainTs });
    copyFileSync(FAKE, join(root, 'fake-server.mjs'));
    server.enqueue(edit, { text: 'done' });
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home, { typescript: { command: ['node', 'fake-server.mjs', 'crash'], extensions: ['ts'] } }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, 'main.ts'), 'utf8')).toBe(edited);
    expect(toolResult(1)).toContain('Edited main.ts');
    expect(toolResult(1)).toMatch(/LSP: the typescript language server (exited \(code 3\): fake server: giving up|[^\n]*EPIPE|[^\n]*closed)/);
  }, RUN_MS);

  it('a server that never answers: the edit returns within the budget, and the server ends with seek', async () => {
    const { root, home } = makeProject({ 'math.ts': mathTs, 'main.ts': mainTs });
    copyFileSync(FAKE, join(root, 'fake-server.mjs'));
    server.enqueue(edit, { text: 'done' });
    const started = Date.now();
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home, { wait_ms: 1500, typescript: { command: ['node', 'fake-server.mjs', 'hang'], extensions: ['ts'] } }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, 'main.ts'), 'utf8')).toBe(edited);
    expect(toolResult(1)).toContain('Edited main.ts');
    expect(toolResult(1)).toContain('LSP: the typescript server is starting; diagnostics for main.ts come with a later result.');
    expect(Date.now() - started).toBeLessThan(60_000); // not the 60 s initialize timeout
    expect(processesIn(root)).toEqual([]);
  }, RUN_MS);
});

describe('servers run under the rules of commands', () => {
  const fake = { command: ['node', 'fake-server.mjs', 'env'], extensions: ['ts'] };
  const ask = { toolCalls: [{ name: 'lsp', arguments: { operation: 'diagnostics', path: 'main.ts' } }] };

  it('plan mode: the server runs in the read-only sandbox, without the API key; auto mode: workspace-write', async () => {
    for (const [flag, profile] of [['--plan', 'read-only'], ['--auto', 'workspace-write']] as const) {
      const { root, home } = makeProject({ 'main.ts': mainTs });
      copyFileSync(FAKE, join(root, 'fake-server.mjs'));
      server.reset();
      server.enqueue(ask, { text: 'done' });
      const run = await runSeek(['-p', 'check', flag], { cwd: root, env: env(home, { typescript: fake }), timeoutMs: RUN_MS });
      expect(run.code).toBe(0);
      expect(toolResult(1)).toContain(`main.ts:1:1 error: sandbox=${profile} key=hidden`);
      expect(processesIn(root)).toEqual([]);
    }
  }, RUN_MS);

  it('a subagent in the same tree reuses its parent\'s server', async () => {
    const { root, home } = makeProject({ 'main.ts': mainTs, 'math.ts': mathTs });
    copyFileSync(FAKE, join(root, 'fake-server.mjs'));
    server.enqueue(
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'add(1, 2)', new_string: 'add(2, 3)' } }] },
      { toolCalls: [{ name: 'agent', arguments: { description: 'edit math', prompt: 'edit math.ts', subagent_type: 'general-purpose' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'math.ts', old_string: 'a + b', new_string: 'b + a' } }] },
      { text: 'child done' },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home, { typescript: fake }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    expect(toolResult(1)).toContain('main.ts:1:1 error: sandbox=none key=visible'); // yolo: like commands, unsandboxed
    const childResult = server.requests.map((request) => request.body.messages.at(-1)).find((message: { content?: unknown }) => String(message.content).startsWith('Edited math.ts'));
    expect(String(childResult.content)).toContain('math.ts:1:1 error: sandbox=none');
    expect(readFileSync(join(root, 'lsp-starts.log'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(processesIn(root)).toEqual([]);
  }, RUN_MS);
});

describe('a server that publishes for many files', () => {
  it('an edit result lists a few other files and counts the rest', async () => {
    const { root, home } = makeProject({ 'main.ts': mainTs });
    copyFileSync(FAKE, join(root, 'fake-server.mjs'));
    server.enqueue({ toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'add(1, 2)', new_string: 'add(2, 3)' } }] }, { text: 'done' });
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home, { typescript: { command: ['node', 'fake-server.mjs', 'flood'], extensions: ['ts'] } }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    const result = toolResult(1);
    expect(result).toContain('main.ts:1:1 error: sandbox=none');
    expect(result.match(/LSP diagnostics in another file/g)).toHaveLength(8);
    expect(result).toContain('LSP: 32 more files have diagnostics');
    expect(processesIn(root)).toEqual([]);
  }, RUN_MS);
});

describe('diagnostics that come after the budget', () => {
  it('come with the next result of a file or command tool, once', async () => {
    const { root, home } = makeProject({ 'main.ts': mainTs });
    copyFileSync(FAKE, join(root, 'fake-server.mjs'));
    // The edit returns at once (wait_ms 0); then the model runs `true` until a result carries them.
    let calls = 0;
    server.setFallback((request) => {
      const last = String(request.body.messages.at(-1).content);
      if (calls === 0) {
        calls += 1;
        return { toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'add(1, 2)', new_string: 'add(2, 3)' } }] };
      }
      if (last.includes('arrived after the edit') || calls > 200) return { text: 'done' };
      calls += 1;
      return { toolCalls: [{ name: 'bash', arguments: { command: 'sleep 0.2' } }] };
    });
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home, { wait_ms: 0, typescript: { command: ['node', 'fake-server.mjs', 'env'], extensions: ['ts'] } }), timeoutMs: RUN_MS });
    expect(run.code).toBe(0);
    const results = server.requests.map((request) => String(request.body.messages.at(-1).content));
    expect(results[1]).toContain('LSP: the typescript server is starting; diagnostics for main.ts come with a later result.');
    const carrying = results.filter((text) => text.includes('LSP diagnostics (arrived after the edit): main.ts: 1 error\n  main.ts:1:1 error: sandbox=none key=visible'));
    expect(carrying).toHaveLength(1);
    expect(results.at(-1)).toBe(carrying[0]);
  }, RUN_MS);
});
