import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

const edit = createEditFileTool();
const write = createWriteFileTool();

/** A project and a directory outside it holding a file that must never change. */
function project(): { root: string; outside: string } {
  const root = tempDir('seek-confined-project-');
  const outside = tempDir('seek-confined-outside-');
  writeTree(outside, { 'hooks.toml': 'untouched\n' });
  return { root, outside };
}

describe('write_file and edit_file never write through a symlink leading out of the project', () => {
  it('write_file refuses a symlinked directory leading out, naming it; nothing is written outside', async () => {
    const { root, outside } = project();
    mkdirSync(path.join(root, 'a'));
    symlinkSync(outside, path.join(root, 'a', 'b'));
    const result = await run(write, { path: 'a/b/hooks.toml', content: 'evil\n' }, makeCtx(root));
    expect(result.isError).toBe(true);
    expect(result.content).toBe(`refusing to write ${path.join(root, 'a/b/hooks.toml')}: a/b is a symbolic link to ${outside}, leading outside ${root}; no file was created.`);
    expect(readdirSync(outside)).toEqual(['hooks.toml']);
    expect(readFileSync(path.join(outside, 'hooks.toml'), 'utf8')).toBe('untouched\n');
  });

  it('write_file and edit_file refuse a symlinked file leading out; the outside file stays intact', async () => {
    const { root, outside } = project();
    symlinkSync(path.join(outside, 'hooks.toml'), path.join(root, 'hooks.toml'));
    const written = await run(write, { path: 'hooks.toml', content: 'evil\n' }, makeCtx(root));
    expect(written.content).toBe(
      `refusing to write ${path.join(root, 'hooks.toml')}: hooks.toml is a symbolic link to ${path.join(outside, 'hooks.toml')}, leading outside ${root}; no file was created.`,
    );
    const edited = await run(edit, { path: 'hooks.toml', old_string: 'untouched', new_string: 'evil' }, makeCtx(root));
    expect(edited.isError).toBe(true);
    expect(edited.content).toMatch(/^Cannot read hooks\.toml: refusing to read .*hooks\.toml is a symbolic link/);
    expect(readFileSync(path.join(outside, 'hooks.toml'), 'utf8')).toBe('untouched\n');
  });

  it('links inside the project still work: the file behind a symlinked directory is written', async () => {
    const { root } = project();
    writeTree(root, { 'packages/real/index.ts': 'export const a = 1;\n' });
    symlinkSync('packages/real', path.join(root, 'alias'));
    expect((await run(edit, { path: 'alias/index.ts', old_string: 'a = 1', new_string: 'a = 2' }, makeCtx(root))).isError).toBeUndefined();
    expect((await run(write, { path: 'alias/new/file.ts', content: 'x\n' }, makeCtx(root))).isError).toBeUndefined();
    expect(readFileSync(path.join(root, 'packages/real/index.ts'), 'utf8')).toBe('export const a = 2;\n');
    expect(readFileSync(path.join(root, 'packages/real/new/file.ts'), 'utf8')).toBe('x\n');
  });

  it('a path outside the project (the user approved it as such) is written as before', async () => {
    const { root, outside } = project();
    const target = path.join(outside, 'notes', 'todo.md');
    expect((await run(write, { path: target, content: 'outside\n' }, makeCtx(root))).isError).toBeUndefined();
    expect(readFileSync(target, 'utf8')).toBe('outside\n');
  });
});
