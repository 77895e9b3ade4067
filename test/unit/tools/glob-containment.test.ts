import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGlobTool } from '../../../src/tools/glob.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

const tool = createGlobTool();

/** base/project (the project, with links out) and base/outside/secret.txt. */
function fixture(): { root: string; outside: string } {
  const base = tempDir('seek-glob-leak-');
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  writeTree(root, { 'src/a.ts': '', 'src/deep/b.ts': '' });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'TOKEN=hunter2\n');
  symlinkSync(outside, path.join(root, 'dir-link'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'src', 'secret-link'));
  return { root, outside };
}

describe('glob: the pattern cannot leave the searched directory', () => {
  it.each(['../../**', '../*', 'src/../../outside/*', '**/../../outside/*'])('refuses %s (..)', async (pattern) => {
    const { root } = fixture();
    const result = await run(tool, { pattern }, makeCtx(root));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("contains '..'");
    expect(result.content).not.toContain('secret');
  });

  it('refuses absolute and ~ patterns', async () => {
    const { root, outside } = fixture();
    for (const pattern of [`${outside}/*`, '/etc/pass*', '~/.ss*']) {
      const result = await run(tool, { pattern }, makeCtx(root));
      expect(result.isError, pattern).toBe(true);
      expect(result.content).toContain('is absolute');
      expect(result.content).not.toContain('secret.txt');
    }
  });

  it('refuses a pattern whose literal directories lead outside through a link, without walking', async () => {
    const { root, outside } = fixture();
    const through = await run(tool, { pattern: 'dir-link/*' }, makeCtx(root));
    expect(through.isError).toBe(true);
    expect(through.content).toBe(
      `refusing to read dir-link/*: dir-link is a symbolic link to ${outside}, leading outside ${root}; nothing was searched. ` +
        'To search there, set path to that directory (it is judged like any path outside the project).',
    );
    const all = await run(tool, { pattern: '{dir-link/*,src/**}' }, makeCtx(root));
    expect(all.content).not.toContain('secret');
    expect(all.content).toContain('src/a.ts');
    const links = await run(tool, { pattern: 'src/*' }, makeCtx(root));
    expect(links.content).toBe('src/a.ts\n(1 match leading outside the project through symlinks left out)');
  });

  it('refuses a link to / at once and a link deeper in the base, and walks a link that stays inside', async () => {
    const { root } = fixture();
    symlinkSync('/', path.join(root, 'root-link'));
    symlinkSync(path.join(root, '..', 'outside'), path.join(root, 'src', 'deep', 'out'));
    symlinkSync(path.join(root, 'src'), path.join(root, 'src-link'));
    const machine = await run(tool, { pattern: 'root-link/**/*.txt' }, makeCtx(root));
    expect(machine.isError).toBe(true);
    expect(machine.content).toContain('refusing to read root-link/**/*.txt: root-link is a symbolic link to /, leading outside');
    const deeper = await run(tool, { pattern: 'src/deep/out/**' }, makeCtx(root));
    expect(deeper.isError).toBe(true);
    expect(deeper.content).toContain('src/deep/out is a symbolic link to');
    expect(deeper.content).not.toContain('secret.txt');
    const inside = await run(tool, { pattern: 'src-link/**/*.ts' }, makeCtx(root));
    expect(inside.isError).toBeUndefined();
    expect(inside.content.split('\n').sort()).toEqual(['src-link/a.ts', 'src-link/deep/b.ts']);
  });

  it('keeps matches in a directory outside the project that the policy let through', async () => {
    const { root, outside } = fixture();
    const there = await run(tool, { pattern: '*.txt', path: outside }, makeCtx(root));
    expect(there.content).toContain('secret.txt'); // path is judged by the policy (asked), not here
  });
});
