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

  it('leaves out matches that lead outside through a symlinked directory', async () => {
    const { root } = fixture();
    const through = await run(tool, { pattern: 'dir-link/*' }, makeCtx(root));
    expect(through.content).not.toContain('secret.txt');
    expect(through.content).toContain('No files match dir-link/*');
    expect(through.content).toContain('1 match leading outside the project through symlinks left out');
    const all = await run(tool, { pattern: '{dir-link/*,src/**}' }, makeCtx(root));
    expect(all.content).not.toContain('secret');
    expect(all.content).toContain('src/a.ts');
  });

  it('keeps matches in a directory outside the project that the policy let through', async () => {
    const { root, outside } = fixture();
    const there = await run(tool, { pattern: '*.txt', path: outside }, makeCtx(root));
    expect(there.content).toContain('secret.txt'); // path is judged by the policy (asked), not here
  });
});
