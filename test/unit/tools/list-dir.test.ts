import { describe, expect, it } from 'vitest';
import { createListDirTool, LIST_MAX_ENTRIES } from '../../../src/tools/list-dir.js';
import { initRepo, makeCtx, run, tempDir, writeTree } from './helpers.js';

const tool = createListDirTool();

describe('list_dir', () => {
  it('lists one level by default, directories first, with a trailing slash', async () => {
    const root = tempDir();
    writeTree(root, { 'b.txt': '', 'a.txt': '', 'zdir/x.txt': '', 'adir/y.txt': '' });
    const result = await run(tool, {}, makeCtx(root));
    expect(result.content).toBe(`${root}/\n  adir/\n  zdir/\n  a.txt\n  b.txt`);
  });

  it('goes deeper on request and skips .git and gitignored entries', async () => {
    const root = initRepo({ '.gitignore': 'node_modules/\n*.tmp\n', 'src/a/deep.ts': '', 'src/b.ts': '', 'x.tmp': '', 'node_modules/m/index.js': '' });
    const result = await run(tool, { depth: 3 }, makeCtx(root));
    expect(result.content).toBe([`${root}/`, '  src/', '    a/', '      deep.ts', '    b.ts', '  .gitignore'].join('\n'));
  });

  it('caps at 500 entries breadth-first and counts the rest', async () => {
    const root = tempDir();
    const files: Record<string, string> = { 'top.txt': '' };
    for (let index = 0; index < LIST_MAX_ENTRIES + 30; index += 1) files[`many/f${String(index).padStart(3, '0')}.txt`] = '';
    writeTree(root, files);
    const result = await run(tool, { depth: 2 }, makeCtx(root));
    const lines = result.content.split('\n');
    expect(lines).toContain('  top.txt');
    expect(lines.at(-1)).toBe('… 32 more entries not shown; list a subdirectory or use a smaller depth.');
    expect(lines).toHaveLength(1 + LIST_MAX_ENTRIES + 1);
  });

  it('handles empty directories, files and missing paths', async () => {
    const root = tempDir();
    writeTree(root, { 'file.txt': 'x', 'empty/.keep': '' });
    const empty = await run(tool, { path: 'empty' }, makeCtx(root));
    expect(empty.content).toBe(`${root}/empty/\n  .keep`);
    const file = await run(tool, { path: 'file.txt' }, makeCtx(root));
    expect(file.isError).toBe(true);
    expect(file.content).toContain('read_file');
    const missing = await run(tool, { path: 'nope' }, makeCtx(root));
    expect(missing.isError).toBe(true);
    const bare = tempDir();
    expect((await run(tool, {}, makeCtx(bare))).content).toBe(`${bare}/\n  (empty directory)`);
  });

  it('rejects depth beyond 5 at validation', () => {
    expect(tool.schema.safeParse({ depth: 6 }).success).toBe(false);
  });
});
