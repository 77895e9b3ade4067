import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

const tool = createEditFileTool();
const source = 'function greet() {\n  return "hi";\n}\n\nfunction part() {\n  return "hi";\n}\n';

function setup(content = source): { root: string; read: () => string } {
  const root = tempDir();
  writeTree(root, { 'a.ts': content });
  return { root, read: () => readFileSync(path.join(root, 'a.ts'), 'utf8') };
}

describe('edit_file', () => {
  it('replaces a unique match and shows the diff', async () => {
    const { root, read } = setup();
    const result = await run(tool, { path: 'a.ts', old_string: 'function greet() {\n  return "hi";', new_string: 'function greet() {\n  return "hello";' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe('Edited a.ts: replaced 1 occurrence (+1 -1 lines).');
    expect(read()).toBe(source.replace('"hi"', '"hello"'));
    expect(result.display).toMatchObject({ kind: 'diff', added: 1, removed: 1 });
  });

  it('refuses an ambiguous match unless replace_all is set', async () => {
    const { root, read } = setup();
    const ambiguous = await run(tool, { path: 'a.ts', old_string: 'return "hi";', new_string: 'return "yo";' }, makeCtx(root));
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.content).toContain('matches 2 places in a.ts (lines 2, 6)');
    expect(ambiguous.content).toContain('replace_all');
    expect(read()).toBe(source);

    const all = await run(tool, { path: 'a.ts', old_string: 'return "hi";', new_string: 'return "yo";', replace_all: true }, makeCtx(root));
    expect(all.content).toContain('replaced 2 occurrences');
    expect(read()).not.toContain('"hi"');
  });

  it('says when the text is missing, naming the closest line and the differing character', async () => {
    const { root, read } = setup();
    const missing = await run(tool, { path: 'a.ts', old_string: 'nothing like this', new_string: 'x' }, makeCtx(root));
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('old_string was not found in a.ts');

    const stale = await run(tool, { path: 'a.ts', old_string: 'function greet() {\n  return "hey";\n}', new_string: 'x' }, makeCtx(root));
    expect(stale.isError).toBe(true);
    expect(stale.content).toContain('The closest match is lines 1-3; line 2 differs at column 12');
    expect(stale.content).toContain("the file has 'i' (U+0069) where old_string has 'e' (U+0065)");
    expect(read()).toBe(source);
  });

  it('rejects identical strings and missing files', async () => {
    const { root } = setup();
    const same = await run(tool, { path: 'a.ts', old_string: 'greet', new_string: 'greet' }, makeCtx(root));
    expect(same.isError).toBe(true);
    expect(same.content).toContain('identical');
    const missing = await run(tool, { path: 'b.ts', old_string: 'x', new_string: 'y' }, makeCtx(root));
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('File not found: b.ts.');
    expect(missing.content).toContain('a.ts');
    expect(missing.content).toContain('write_file');
  });

  it('deletes text when new_string is empty', async () => {
    const { root, read } = setup();
    await run(tool, { path: 'a.ts', old_string: '\nfunction part() {\n  return "hi";\n}\n', new_string: '' }, makeCtx(root));
    expect(read()).toBe('function greet() {\n  return "hi";\n}\n');
  });

  it('keeps CRLF line endings when the model sends LF text', async () => {
    const crlf = 'line one\r\nline two\r\nline three\r\n';
    const { root, read } = setup(crlf);
    const result = await run(tool, { path: 'a.ts', old_string: 'line one\nline two', new_string: 'line 1\nline 1.5\nline 2' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(read()).toBe('line 1\r\nline 1.5\r\nline 2\r\nline three\r\n');
    expect(result.display).toMatchObject({ added: 3, removed: 2 });
  });

  it('previews the edit in describe() and leaves the file alone', async () => {
    const { root, read } = setup();
    const request = await tool.describe!({ path: 'a.ts', old_string: 'greet', new_string: 'welcome' }, makeCtx(root));
    expect(request).toMatchObject({ kind: 'edit', paths: [path.join(root, 'a.ts')] });
    expect(request.preview).toMatchObject({ kind: 'diff', added: 1, removed: 1 });
    expect(read()).toBe(source);
  });
});
