import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

const tool = createReadFileTool();

describe('read_file', () => {
  it('returns numbered lines without a hint when the whole file fits', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'first\nsecond\r\nthird' });
    const result = await run(tool, { path: 'a.txt' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(
      "     1\tfirst\n     2\tsecond\n     3\tthird\n… line endings are mixed: CRLF on line 2, LF on the other lines shown (edit_file matches LF text and keeps each line's own ending)",
    );
    expect(result.display).toEqual({ kind: 'file', path: 'a.txt', lines: 3, truncated: false });
  });

  it('says nothing about line endings when every line ends the same way', async () => {
    const root = tempDir();
    writeTree(root, { 'crlf.txt': 'a\r\nb\r\nc\r\n', 'mixed.txt': 'a\r\nb\r\nc\nd\ne\r\nf\n' });
    expect((await run(tool, { path: 'crlf.txt' }, makeCtx(root))).content).toBe('     1\ta\n     2\tb\n     3\tc');
    const mixed = await run(tool, { path: 'mixed.txt' }, makeCtx(root));
    expect(mixed.content).toContain('CRLF on lines 1-2, line 5, LF on the other lines shown');
  });

  it('pages with 1-based offset and limit and says how to continue', async () => {
    const root = tempDir();
    writeTree(root, { 'n.txt': Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\n') + '\n' });
    const result = await run(tool, { path: 'n.txt', offset: 10, limit: 5 }, makeCtx(root));
    const lines = result.content.split('\n');
    expect(lines[0]).toBe('    10\tline 10');
    expect(lines[4]).toBe('    14\tline 14');
    expect(lines[5]).toBe('… showing lines 10-14 of 50; call read_file with offset=15 to continue');

    const tail = await run(tool, { path: 'n.txt', offset: 48 }, makeCtx(root));
    expect(tail.content.split('\n').at(-1)).toBe('… showing lines 48-50 of 50 (end of file)');

    const past = await run(tool, { path: 'n.txt', offset: 51 }, makeCtx(root));
    expect(past.isError).toBe(true);
    expect(past.content).toContain('past the end');
    expect(past.content).toContain('50 lines');
  });

  it('caps output near 32 KiB and counts the total lines for the hint', async () => {
    const root = tempDir();
    const line = 'x'.repeat(100);
    writeTree(root, { 'big.txt': Array.from({ length: 12000 }, () => line).join('\n') });
    const result = await run(tool, { path: 'big.txt' }, makeCtx(root));
    expect(result.content.length).toBeLessThan(33 * 1024);
    const hint = result.content.split('\n').at(-1)!;
    const match = /^… showing lines 1-(\d+) of 12000; call read_file with offset=(\d+) to continue$/.exec(hint);
    expect(match).not.toBeNull();
    expect(Number(match![2])).toBe(Number(match![1]) + 1);
    expect(result.display).toMatchObject({ truncated: true });
  });

  it('defaults to 2000 lines and cuts very long lines with a marker', async () => {
    const root = tempDir();
    writeTree(root, {
      'short-lines.txt': Array.from({ length: 2500 }, (_, index) => String(index + 1)).join('\n'),
      'wide.txt': `${'y'.repeat(2500)}\nnext\n`,
    });
    const paged = await run(tool, { path: 'short-lines.txt' }, makeCtx(root));
    expect(paged.content).toContain('… showing lines 1-2000 of 2500; call read_file with offset=2001 to continue');
    const wide = await run(tool, { path: 'wide.txt' }, makeCtx(root));
    expect(wide.content).toContain(`${'y'.repeat(2000)}… [+500 chars]`);
    expect(wide.content).toContain('     2\tnext');
  });

  it('says when a file is empty', async () => {
    const root = tempDir();
    writeTree(root, { 'empty.txt': '' });
    const result = await run(tool, { path: 'empty.txt' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe('empty.txt is empty (0 bytes).');
  });

  it('explains missing files, with close names when there are some', async () => {
    const root = tempDir();
    writeTree(root, { 'src/index.ts': 'x' });
    const typo = await run(tool, { path: 'src/indx.ts' }, makeCtx(root));
    expect(typo.isError).toBe(true);
    expect(typo.content).toBe('File not found: src/indx.ts. Did you mean src/index.ts?');
    const nowhere = await run(tool, { path: 'lib/zzz.ts' }, makeCtx(root));
    expect(nowhere.content).toContain('does not exist either');
  });

  it('refuses directories and binary files with a useful message', async () => {
    const root = tempDir();
    writeTree(root, { 'dir/a.txt': 'a' });
    writeFileSync(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x03]));
    const dir = await run(tool, { path: 'dir' }, makeCtx(root));
    expect(dir.isError).toBe(true);
    expect(dir.content).toContain('list_dir');
    const binary = await run(tool, { path: 'image.png' }, makeCtx(root));
    expect(binary.isError).toBe(true);
    expect(binary.content).toBe('image.png is a binary file (8 B); read_file only shows text.');
  });

  it('describes itself as a read of the absolute path', async () => {
    const root = tempDir();
    const request = await tool.describe!({ path: 'src/a.ts' }, makeCtx(root));
    expect(request).toMatchObject({ kind: 'read', paths: [path.join(root, 'src/a.ts')] });
    expect(tool.readOnly).toBe(true);
  });
});
