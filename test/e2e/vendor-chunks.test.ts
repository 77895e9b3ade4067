import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

// Large dependencies most runs never load (zod, the Anthropic SDK, the MCP SDK, yaml) are vendor
// chunks, dist/cli/chunks/<name>.cjs, beside the CLI scripts (scripts/vendor-chunks.mjs). The
// launcher loads one at its first use through a V8 code cache of its own (src/launch/chunks.ts).

const suite = useScriptedServer();
const ROOT = new URL('../../', import.meta.url).pathname;

function cacheNames(home: string): string[] {
  const dir = join(home, 'cache', 'v8');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.bin')).sort() : [];
}

function anthropicEnv(home: string): Record<string, string> {
  return { SEEK_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: suite.server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' };
}

/** A copy of the install (bin/ and dist/ without source maps) that a test may damage. */
function installCopy(): string {
  const copy = tempDir('seek-install-');
  cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.map') });
  return copy;
}

describe('vendor chunks', () => {
  it('are left out of a DeepSeek prompt run, which reads no chunk', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'Hello!' });
    const run = await runSeek(['-p', 'say hello', '--no-save'], { cwd: root, env: suite.env(home) });
    expect(run.stdout).toContain('Hello!');
    expect(cacheNames(home).filter((name) => name.startsWith('chunk-'))).toEqual([]);
    const headless = readFileSync(join(ROOT, 'dist/cli/headless.cjs'), 'latin1');
    for (const vendored of ['node_modules/zod/', 'node_modules/@anthropic-ai/sdk/', 'node_modules/@modelcontextprotocol/sdk/', 'node_modules/ajv/', 'node_modules/yaml/', 'node_modules/linkedom/', 'node_modules/turndown/', 'node_modules/vscode-jsonrpc/', 'node_modules/vscode-languageserver-protocol/']) {
      expect(headless, vendored).not.toContain(vendored);
    }
    expect(readdirSync(join(ROOT, 'dist/cli/chunks')).filter((name) => name.endsWith('.cjs')).sort()).toEqual(['anthropic.cjs', 'lsp.cjs', 'mcp.cjs', 'web.cjs', 'yaml.cjs', 'zod.cjs']);
  });

  it('load at first use through a code cache of their own, written once and reused', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'Hello from the chunk!' });
    const first = await runSeek(['-p', 'say hello', '--no-save'], { cwd: root, env: anthropicEnv(home) });
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('Hello from the chunk!');
    const chunkCaches = cacheNames(home).filter((name) => name.startsWith('chunk-'));
    expect(chunkCaches).toHaveLength(1);
    expect(chunkCaches[0]).toMatch(/^chunk-anthropic-v\d[^/]*-shared\.bin$/);
    const path = join(home, 'cache', 'v8', chunkCaches[0]!);
    const writtenAt = statSync(path).mtimeMs;
    suite.server.enqueue({ text: 'Hello again!' });
    const second = await runSeek(['-p', 'say hello', '--no-save'], { cwd: root, env: anthropicEnv(home) });
    expect(second.stdout).toContain('Hello again!');
    expect(statSync(path).mtimeMs).toBe(writtenAt); // V8 accepted it: nothing rewritten
  });

  it('share one copy of zod between the CLI and the MCP SDK chunk', () => {
    // The build fails if a package lands in two outputs; this checks the result it leaves.
    const mcp = readFileSync(join(ROOT, 'dist/cli/chunks/mcp.cjs'), 'latin1');
    expect(mcp).toContain('node_modules/@modelcontextprotocol/sdk/');
    expect(mcp).not.toContain('node_modules/zod/');
    expect(mcp).toContain('seek-chunk:zod:');
  });

  it('missing from an install, is named in a clear error, never a crash', async () => {
    const copy = installCopy();
    rmSync(join(copy, 'dist/cli/chunks/anthropic.cjs'));
    const { root, home } = makeProject();
    const run = await runSeek(['-p', 'say hello', '--no-save'], { cwd: root, env: anthropicEnv(home), bin: join(copy, 'bin/seek.js') });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${join(copy, 'dist/cli/chunks/anthropic.cjs')} is missing: reinstall seek`);
    expect(run.stderr).not.toMatch(/^\s+at /m); // a message, not a stack trace
    expect(suite.server.requests).toHaveLength(0);
  });

  it('from another build, is named in a clear error', async () => {
    const copy = installCopy();
    writeFileSync(join(copy, 'dist/cli/chunks/anthropic.cjs'), '(function (exports, require, module) { module.exports = {}; })');
    const { root, home } = makeProject();
    const run = await runSeek(['-p', 'say hello', '--no-save'], { cwd: root, env: anthropicEnv(home), bin: join(copy, 'bin/seek.js') });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('anthropic.cjs has no module @anthropic-ai/sdk: it is from another build');
  });
});
