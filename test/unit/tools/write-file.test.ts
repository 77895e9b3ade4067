import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

const tool = createWriteFileTool();

describe('write_file', () => {
  it('creates parent directories and reports a created file with its line count', async () => {
    const root = tempDir();
    const result = await run(tool, { path: 'deep/nested/new.ts', content: 'a\nb\nc\n' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe('Created deep/nested/new.ts (3 lines).');
    expect(readFileSync(path.join(root, 'deep/nested/new.ts'), 'utf8')).toBe('a\nb\nc\n');
    expect(result.display).toMatchObject({ kind: 'diff', path: 'deep/nested/new.ts', added: 3, removed: 0 });
  });

  it('overwrites with a unified diff and counts', async () => {
    const root = tempDir();
    writeTree(root, { 'f.txt': 'one\ntwo\nthree\n' });
    const result = await run(tool, { path: 'f.txt', content: 'one\nTWO\nthree\nfour\n' }, makeCtx(root));
    expect(result.content).toBe('Overwrote f.txt (4 lines; +2 -1).');
    const display = result.display as { kind: 'diff'; diff: string; added: number; removed: number };
    expect(display.diff).toContain('--- f.txt\n+++ f.txt\n@@ -1,3 +1,4 @@');
    expect(display.diff).toContain('-two\n+TWO');
    expect(display).toMatchObject({ added: 2, removed: 1 });
  });

  it('previews the diff in describe() without writing', async () => {
    const root = tempDir();
    writeTree(root, { 'f.txt': 'old\n' });
    const request = await tool.describe!({ path: 'f.txt', content: 'new\n' }, makeCtx(root));
    expect(request.kind).toBe('write');
    expect(request.paths).toEqual([path.join(root, 'f.txt')]);
    expect(request.preview).toMatchObject({ kind: 'diff', added: 1, removed: 1 });
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('old\n');
    expect(tool.readOnly).toBe(false);
  });

  it('refuses to write over a directory', async () => {
    const root = tempDir();
    writeTree(root, { 'dir/x': '' });
    const result = await run(tool, { path: 'dir', content: 'x' }, makeCtx(root));
    expect(result.isError).toBe(true);
    expect(result.content).toContain('is a directory');
  });
});
