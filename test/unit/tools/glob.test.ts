import { utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGlobTool, GLOB_MAX_RESULTS } from '../../../src/tools/glob.js';
import { initRepo, makeCtx, run, tempDir, writeTree } from './helpers.js';

const tool = createGlobTool();

/** Sets a file's modification time to `secondsAgo` before now. */
function age(file: string, secondsAgo: number): void {
  const time = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, time, time);
}

describe('glob', () => {
  it('returns matches newest first, relative to the searched directory', async () => {
    const root = tempDir();
    writeTree(root, { 'src/old.ts': '', 'src/new.ts': '', 'src/mid.ts': '', 'src/readme.md': '', 'src/.hidden.ts': '' });
    age(path.join(root, 'src/old.ts'), 300);
    age(path.join(root, 'src/mid.ts'), 200);
    age(path.join(root, 'src/.hidden.ts'), 400);
    age(path.join(root, 'src/new.ts'), 100);
    const all = await run(tool, { pattern: '**/*.ts' }, makeCtx(root));
    expect(all.content).toBe('src/new.ts\nsrc/mid.ts\nsrc/old.ts\nsrc/.hidden.ts');
    const inSrc = await run(tool, { pattern: '*.ts', path: 'src' }, makeCtx(root));
    expect(inSrc.content).toBe('(paths relative to src)\nnew.ts\nmid.ts\nold.ts\n.hidden.ts');
  });

  it('respects root and nested .gitignore files and always skips .git', async () => {
    const root = initRepo({
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': '',
      'src/generated/.gitignore': '*\n!.gitignore\n!keep.ts\n',
      'src/generated/keep.ts': '',
      'src/generated/drop.ts': '',
      'dist/bundle.ts': '',
      'debug.log': '',
    });
    const result = await run(tool, { pattern: '**/*' }, makeCtx(root));
    const files = result.content.split('\n').sort();
    expect(files).toEqual(['.gitignore', 'src/a.ts', 'src/generated/.gitignore', 'src/generated/keep.ts']);
  });

  it('applies the repository .gitignore when searching a subdirectory', async () => {
    const root = initRepo({ '.gitignore': 'build/\n', 'pkg/src/a.ts': '', 'pkg/build/b.ts': '' });
    const result = await run(tool, { pattern: '**/*.ts', path: 'pkg' }, makeCtx(root));
    expect(result.content).toBe('(paths relative to pkg)\nsrc/a.ts');
  });

  it('searches inside an ignored directory when it is asked for explicitly', async () => {
    const root = initRepo({ '.gitignore': 'node_modules/\n', 'node_modules/pkg/index.ts': '', 'node_modules/pkg/.gitignore': 'gen/\n', 'node_modules/pkg/gen/x.ts': '' });
    const result = await run(tool, { pattern: '**/*.ts', path: 'node_modules/pkg' }, makeCtx(root));
    expect(result.content).toBe('(paths relative to node_modules/pkg)\nindex.ts');
  });

  it('caps the list at 500 and counts the rest', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let index = 0; index < GLOB_MAX_RESULTS + 20; index += 1) files[`f${index}.txt`] = '';
    writeTree(root, files);
    const result = await run(tool, { pattern: '*.txt' }, makeCtx(root));
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(GLOB_MAX_RESULTS + 1);
    expect(lines.at(-1)).toBe('… and 20 more files (520 in all); narrow the pattern or path.');
  });

  it('reports no matches and a missing directory', async () => {
    const root = tempDir();
    const none = await run(tool, { pattern: '*.rs' }, makeCtx(root));
    expect(none.isError).toBeUndefined();
    expect(none.content).toBe('No files match *.rs.');
    const missing = await run(tool, { pattern: '*', path: 'nope' }, makeCtx(root));
    expect(missing.isError).toBe(true);
    expect(tool.readOnly).toBe(true);
  });
});
