/**
 * A `Read(...)` deny rule holds against the `lsp` tool too (a real typescript-language-server):
 * references in a denied file are left out (their line would be quoted), and project diagnostics
 * never open a denied file (a diagnostic can quote its text).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const BIN = new URL('../../node_modules/.bin', import.meta.url).pathname;
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

const tsconfig = JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'esnext', moduleResolution: 'bundler', noEmit: true } });

describe('Read deny rules and the lsp tool', () => {
  it('references and diagnostics leave denied files out', async () => {
    const { root, home } = makeProject({
      'tsconfig.json': tsconfig,
      '.seek/config.json': JSON.stringify({ permissions: { deny: ['Read(./secrets/**)'] } }),
      'math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      'main.ts': 'import { add } from "./math";\nexport const total = add(1, 2);\n',
      'secrets/keys.ts': 'import { add } from "../math";\nexport const key = add(0, 0) + "SECRET-KEY";\nconst bad: number = "SECRET-DIAG";\n',
    });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ lsp: {} }));
    server.enqueue(
      { toolCalls: [{ name: 'lsp', arguments: { operation: 'references', path: 'math.ts', line: 1, symbol: 'add' } }] },
      { toolCalls: [{ name: 'lsp', arguments: { operation: 'diagnostics' } }] },
      { text: 'done' },
    );
    const env = { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', PATH: `${BIN}:${process.env.PATH ?? ''}` };
    const run = await runSeek(['-p', 'where is add used', '--yolo'], { cwd: root, env, timeoutMs: RUN_MS });
    expect(run.code, run.stderr).toBe(0);
    const result = (n: number) => server.requests[n]!.body.messages.at(-1).content as string;
    expect(result(1)).toContain('main.ts:2:22: export const total = add(1, 2);');
    expect(result(1)).not.toMatch(/SECRET|keys\.ts/);
    expect(result(2)).toMatch(/Checked \d+ file/);
    expect(result(2)).not.toMatch(/SECRET|keys\.ts/);
  }, RUN_MS);
});
