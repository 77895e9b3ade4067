import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEditFileTool, createReadFileTool, createWriteFileTool, type TextFileOverlay } from '../../../src/tools/index.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

/** An editor's buffers: it takes the files it has open (and any write), the disk has the rest. */
function editor(buffers: Map<string, string>): TextFileOverlay & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    readText: async (absPath) => buffers.get(absPath),
    writeText: async (absPath, text) => {
      writes.push(absPath);
      buffers.set(absPath, text);
      return true;
    },
  };
}

describe('file tools with a text overlay (ACP client fs)', () => {
  it('read_file shows the buffer, not the disk, and the disk for files the overlay does not have', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'on disk\n', 'b.txt': 'only on disk\n' });
    const files = editor(new Map([[path.join(root, 'a.txt'), 'unsaved line 1\nunsaved line 2\n']]));
    const read = createReadFileTool({ files });
    expect((await run(read, { path: 'a.txt' }, makeCtx(root))).content).toBe('     1\tunsaved line 1\n     2\tunsaved line 2');
    expect((await run(read, { path: 'b.txt' }, makeCtx(root))).content).toBe('     1\tonly on disk');
  });

  it('edit_file edits the buffer text and writes through the overlay; the disk is left to the editor', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'const a = 1;\n' });
    const file = path.join(root, 'a.ts');
    const buffers = new Map([[file, 'const a = 2; // unsaved\n']]);
    const files = editor(buffers);
    const result = await run(createEditFileTool({ files }), { path: 'a.ts', old_string: 'a = 2', new_string: 'a = 3' }, makeCtx(root));
    expect(result.isError).toBeFalsy();
    expect(buffers.get(file)).toBe('const a = 3; // unsaved\n');
    expect(files.writes).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toBe('const a = 1;\n');
  });

  it('write_file diffs against the buffer and writes through the overlay; one that declines leaves it to the disk', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'disk\n' });
    const file = path.join(root, 'a.txt');
    const files = editor(new Map([[file, 'buffer\n']]));
    const result = await run(createWriteFileTool({ files }), { path: 'a.txt', content: 'new\n' }, makeCtx(root));
    expect(result.display).toMatchObject({ kind: 'diff', added: 1, removed: 1 });
    expect(result.display?.kind === 'diff' && result.display.diff).toContain('-buffer\n+new');
    expect(files.writes).toEqual([file]);

    const declining: TextFileOverlay = { readText: async () => undefined, writeText: async () => false };
    await run(createWriteFileTool({ files: declining }), { path: 'a.txt', content: 'to disk\n' }, makeCtx(root));
    expect(readFileSync(file, 'utf8')).toBe('to disk\n');
  });
});
