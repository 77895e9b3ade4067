import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setHyperlinks } from '../../../../src/tui/markdown/ansi.js';
import { candidateFile, createPathLinker, fileUrl, setFileLinkRoot } from '../../../../src/tui/markdown/file-links.js';
import { clearMarkdownCache, renderMarkdown } from '../../../../src/tui/markdown/render.js';
import { tempDir } from '../../../support/temp-dirs.js';

const OSC8 = '\u001b]8;;';
const open = (file: string) => `${OSC8}${fileUrl(file)}\u001b\\`;

/** A project with src/a.ts, a file with a space in its name, and a file next to the project. */
function project(): { root: string; outside: string } {
  const parent = tempDir('seek-file-links-');
  const root = join(parent, 'proj');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'README.md'), '# r\n');
  writeFileSync(join(root, 'my file.txt'), 'x\n');
  writeFileSync(join(parent, 'outside.txt'), 'x\n');
  return { root, outside: join(parent, 'outside.txt') };
}

describe('path tokens (createPathLinker)', () => {
  it('names existing files of the root, with or without a :line or :line:col suffix', () => {
    const { root } = project();
    const linker = createPathLinker(root);
    expect(linker.target('src/a.ts')).toBe(join(root, 'src', 'a.ts'));
    expect(linker.target('src/a.ts:12')).toBe(join(root, 'src', 'a.ts'));
    expect(linker.target('src/a.ts:12:3')).toBe(join(root, 'src', 'a.ts'));
    expect(linker.target(join(root, 'README.md'))).toBe(join(root, 'README.md'));
    expect(linker.target('README.md')).toBe(join(root, 'README.md'));
  });

  it('never names a missing file, a directory, a path with spaces, a URL or a path outside the root', () => {
    const { root, outside } = project();
    const linker = createPathLinker(root);
    expect(linker.target('src/missing.ts')).toBeUndefined();
    expect(linker.target('src')).toBeUndefined();
    expect(linker.target('src/')).toBeUndefined();
    expect(linker.target('my file.txt')).toBeUndefined();
    expect(linker.target('https://example.com/a.ts')).toBeUndefined();
    expect(linker.target('../outside.txt')).toBeUndefined();
    expect(linker.target(outside)).toBeUndefined();
    expect(candidateFile('../outside.txt', root)).toBeUndefined();
    // Words that cannot be paths are not even looked up.
    expect(candidateFile('hello', root)).toBeUndefined();
    expect(candidateFile('e.g.', root)).toBeUndefined();
    expect(candidateFile('v1.2', root)).toBeUndefined();
  });

  it('looks each file up once, and at most the cap', () => {
    const { root } = project();
    const asked: string[] = [];
    const linker = createPathLinker(root, (file) => (asked.push(file), true), 3);
    for (let round = 0; round < 2; round++) for (const token of ['a/1.ts', 'a/2.ts', 'a/1.ts:4']) linker.target(token);
    expect(asked).toHaveLength(2);
    expect(linker.target('a/3.ts')).toBe(join(root, 'a', '3.ts'));
    expect(linker.target('a/4.ts')).toBeUndefined(); // over the cap: not linked, not looked up
    expect(linker.checks).toBe(3);
  });
});

describe('paths in rendered answers', () => {
  let root: string;
  beforeEach(() => {
    root = project().root;
    clearMarkdownCache();
    setHyperlinks(true);
    setFileLinkRoot(root);
  });
  afterEach(() => {
    setHyperlinks(false);
    setFileLinkRoot(undefined);
    clearMarkdownCache();
  });
  const render = (text: string, width = 80) => renderMarkdown(text, { width, color: true });

  it('links code spans and plain words naming existing files; the :line stays in the text', () => {
    const out = render('See `src/a.ts:12` and README.md, not `src/missing.ts` or ../outside.txt.');
    expect(out).toContain(`${open(join(root, 'src', 'a.ts'))}\u001b[36msrc/a.ts:12\u001b[0m${OSC8}\u001b\\`);
    expect(out).toContain(`${open(join(root, 'README.md'))}README.md${OSC8}\u001b\\,`);
    expect(out.split(OSC8).length - 1).toBe(4); // two links, each opened and closed
  });

  it('links a Markdown link whose address is a file of the project, label and address', () => {
    const out = render('See [the module](src/a.ts) and [gone](src/missing.ts).');
    const link = open(join(root, 'src', 'a.ts'));
    expect(out.split(link).length - 1).toBe(2);
    expect(out).not.toContain(fileUrl(join(root, 'src', 'missing.ts')));
  });

  it('never links inside a fenced code block, nor a path with spaces', () => {
    const out = render('```\ncat src/a.ts\n```\n\nand `my file.txt`');
    expect(out).not.toContain(OSC8);
  });

  it('keeps a linked path whole on a narrow line in the scrollback, and as before with links off', () => {
    const long = `src/${'deep/'.repeat(12)}file.ts`;
    mkdirSync(join(root, 'src', ...Array.from({ length: 12 }, () => 'deep')), { recursive: true });
    writeFileSync(join(root, long), '');
    const kept = renderMarkdown(`Open ${long} now`, { width: 40, color: true, keepLongLines: true });
    expect(kept).toContain(`${open(join(root, long))}${long}${OSC8}\u001b\\`);
    setHyperlinks(false);
    clearMarkdownCache();
    const plain = renderMarkdown(`Open \`src/a.ts\` now`, { width: 40, color: true });
    expect(plain).toBe('Open \u001b[36msrc/a.ts\u001b[0m now');
  });
});
