import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lspSettingsFrom } from '../../../src/lsp/config.js';
import { initializationOptions, ServerPool } from '../../../src/lsp/pool.js';
import { tempDir } from '../../support/temp-dirs.js';
import { formatDiagnostics } from '../../../src/lsp/format.js';
import { previewLines } from '../../../src/tui/components/conversation/tool-lines.js';
import { lineToString } from '../../../src/tui/markdown/ansi.js';

describe('config.json "lsp"', () => {
  it('has the five built-in servers by default, errors only, a 3 s budget', () => {
    const settings = lspSettingsFrom(undefined);
    expect(settings.servers.map((server) => server.name)).toEqual(['typescript', 'pyright', 'gopls', 'rust-analyzer', 'clangd']);
    expect(settings).toMatchObject({ enabled: true, warnings: false, waitMs: 3000, maxItems: 20, problems: [] });
  });

  it('false turns all off; NAME: false one; an entry adds or replaces a server; settings are read', () => {
    expect(lspSettingsFrom(false)).toMatchObject({ enabled: false, servers: [] });
    const settings = lspSettingsFrom({ gopls: false, pyright: { command: ['ruff', 'server'], extensions: ['.PY'] }, warnings: true, wait_ms: 500 });
    expect(settings.servers.map((server) => server.name)).toEqual(['pyright', 'typescript', 'rust-analyzer', 'clangd']);
    expect(settings.servers[0]).toEqual({ name: 'pyright', command: ['ruff', 'server'], extensions: ['py'], builtin: false });
    expect(settings).toMatchObject({ warnings: true, waitMs: 500 });
  });

  it('a bad entry is left out and said, the rest still works', () => {
    const settings = lspSettingsFrom({ zls: { command: 'zls' }, wait_ms: -1 });
    expect(settings.servers).toHaveLength(5);
    expect(settings.problems).toEqual([
      'config.json: lsp.zls must be false or {"command": ["program", "args"…], "extensions": ["ts", …]}; it is left out',
      'config.json: lsp.wait_ms must be a number of at least 0',
    ]);
    expect(lspSettingsFrom('yes').problems[0]).toContain('"lsp" must be false or an object');
  });
});

describe('diagnostics as the model reads them', () => {
  const at = (line: number, character: number, message: string) => ({ range: { start: { line, character }, end: { line, character: character + 1 } }, message, severity: 1 as const, code: 2322 });
  it('sorted by position, 1-based, capped with the rest counted', () => {
    const items = [at(9, 0, 'second'), at(2, 4, 'first\n  detail'), at(20, 1, 'third')];
    expect(formatDiagnostics([{ uri: 'file:///p/src/a.ts', items }], '/p', 2, 'LSP diagnostics:')).toBe(
      'LSP diagnostics: src/a.ts: 3 errors\n  src/a.ts:3:5 error: first detail [2322]\n  src/a.ts:10:1 error: second [2322]\n  … 1 more not shown',
    );
  });
});

describe('the terminal UI under an edit', () => {
  it('shows ✗ N errors and the first of them under the diff, nothing when there are none', () => {
    const output = "Edited a.ts: replaced 1 occurrence.\n\nLSP diagnostics: a.ts: 2 errors\n  a.ts:1:7 error: Type 'number' is not assignable to type 'string'. [2322]\n  a.ts:2:1 error: x [1]";
    const diff = { kind: 'diff' as const, path: 'a.ts', diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-a\n+b\n', added: 1, removed: 1 };
    const item = { kind: 'tool' as const, id: 'c1', name: 'edit_file', summary: 'edit a.ts', status: 'done' as const, output, display: { ...diff, diagnostics: { errors: 2, warnings: 0 } } };
    const rows = previewLines(item, 100).map((line) => lineToString(line, false));
    expect(rows.slice(-3)).toEqual(['✗ 2 errors', "  a.ts:1:7 error: Type 'number' is not assignable to type 'string'. [2322]", '  a.ts:2:1 error: x [1]']);
    const clean = previewLines({ ...item, display: diff }, 100).map((line) => lineToString(line, false));
    expect(clean.join('\n')).not.toContain('✗');
  });
});

describe('a hostile repository cannot make seek run its own programs as language servers', () => {
  const spec = { name: 'fake', command: ['fake-ls'], extensions: ['fk'], builtin: false };
  function projectWithServer(): string {
    const root = tempDir('seek-lsp-hostile-');
    mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(root, 'node_modules', '.bin', 'fake-ls'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    return root;
  }

  it('a server found on PATH inside the project is refused outside yolo, with the reason', async () => {
    const root = projectWithServer();
    const settings = { ...lspSettingsFrom(false), enabled: true, servers: [spec] };
    const pool = new ServerPool({ settings, env: { PATH: join(root, 'node_modules', '.bin') }, policy: { mode: 'ask', preference: 'ask' } });
    try {
      const found = await pool.serverFor(spec, root);
      expect(found).toBe(`fake-ls was found on PATH inside the project (node_modules/.bin/fake-ls): seek does not start a repository's own program as a language server outside yolo mode; name it in config.json's "lsp" to use it`);
    } finally {
      await pool.stop();
    }
  });

  it('without an OS sandbox the typescript server is not pointed at the project own tsserver', () => {
    const root = tempDir('seek-lsp-tsserver-');
    mkdirSync(join(root, 'node_modules', 'typescript', 'lib'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js'), '');
    const typescript = lspSettingsFrom(undefined).servers[0]!;
    const installed = join(process.cwd(), 'node_modules', '.bin', 'typescript-language-server');
    expect(initializationOptions(typescript, installed, root, 'workspace-write')).toEqual({ tsserver: { useSyntaxServer: 'never' } });
    expect(initializationOptions(typescript, installed, root, 'env-only')).toEqual({ tsserver: { useSyntaxServer: 'never', path: join(process.cwd(), 'node_modules', 'typescript', 'lib', 'tsserver.js') } });
  });
});
