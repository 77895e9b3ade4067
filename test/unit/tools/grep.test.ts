import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrepTool, GREP_MAX_OUTPUT_LINES } from '../../../src/tools/grep.js';
import { compilePattern, searchText } from '../../../src/tools/grep-search.js';
import { initRepo, makeCtx, run, tempDir, writeTree } from './helpers.js';

const tool = createGrepTool({ engine: 'builtin' });

describe('grep (built-in search)', () => {
  it('prints path:line:text grouped by file in path order', async () => {
    const root = tempDir();
    writeTree(root, {
      'b.ts': 'const value = 1;\nother\nvalue again\n',
      'a/z.ts': 'no\nvalue here\n',
      'a.ts': 'value first\n',
      'a-b.ts': 'value dash\n',
    });
    const result = await run(tool, { pattern: 'value' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(
      ['a-b.ts:1:value dash', 'a.ts:1:value first', 'a/z.ts:2:value here', 'b.ts:1:const value = 1;', 'b.ts:3:value again'].join('\n'),
    );
  });

  it('shows context lines with - and separates distant groups with --', async () => {
    const root = tempDir();
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
    lines[2] = 'match A';
    lines[4] = 'match B';
    lines[15] = 'match C';
    writeTree(root, { 'f.txt': lines.join('\n'), 'g.txt': 'match D\n' });
    const result = await run(tool, { pattern: '^match', context_lines: 1 }, makeCtx(root));
    expect(result.content).toBe(
      [
        'f.txt-2-line 2',
        'f.txt:3:match A',
        'f.txt-4-line 4',
        'f.txt:5:match B',
        'f.txt-6-line 6',
        '--',
        'f.txt-15-line 15',
        'f.txt:16:match C',
        'f.txt-17-line 17',
        '--',
        'g.txt:1:match D',
      ].join('\n'),
    );
  });

  it('filters files with glob and searches a given subdirectory or file', async () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': 'needle\n', 'src/b.js': 'needle\n', 'src/deep/c.ts': 'needle\n', 'docs/d.md': 'needle\n' });
    const onlyTs = await run(tool, { pattern: 'needle', glob: '*.ts' }, makeCtx(root));
    expect(onlyTs.content).toBe('src/a.ts:1:needle\nsrc/deep/c.ts:1:needle');
    const withSlash = await run(tool, { pattern: 'needle', glob: 'deep/**', path: 'src' }, makeCtx(root));
    expect(withSlash.content).toBe('src/deep/c.ts:1:needle');
    const oneFile = await run(tool, { pattern: 'needle', path: 'docs/d.md' }, makeCtx(root));
    expect(oneFile.content).toBe('docs/d.md:1:needle');
  });

  it('skips gitignored, binary and oversized files', async () => {
    const root = initRepo({ '.gitignore': 'ignored/\n', 'ok.txt': 'needle\n', 'ignored/x.txt': 'needle\n' });
    writeFileSync(path.join(root, 'blob.bin'), Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2])]));
    writeFileSync(path.join(root, 'huge.txt'), `needle\n${'x'.repeat(3 * 1024 * 1024)}`);
    const result = await run(tool, { pattern: 'needle' }, makeCtx(root));
    expect(result.content).toBe('ok.txt:1:needle');
  });

  it('caps output at 300 lines and says how many matches were left out', async () => {
    const root = tempDir();
    writeTree(root, {
      'a.txt': Array.from({ length: 250 }, (_, index) => `hit ${index}`).join('\n'),
      'b.txt': Array.from({ length: 100 }, (_, index) => `hit ${index}`).join('\n'),
    });
    const result = await run(tool, { pattern: 'hit' }, makeCtx(root));
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(GREP_MAX_OUTPUT_LINES + 1);
    expect(lines.at(-1)).toBe(
      '[… 50 more matches in 1 file not shown (350 matches in 2 files in all); narrow the pattern, path or glob]',
    );
  });

  it('returns an error that explains an invalid regex', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'x' });
    const result = await run(tool, { pattern: 'foo(' }, makeCtx(root));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Invalid regex "foo\(": .*Unterminated group/);
  });

  it('says when nothing matches', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'x' });
    const result = await run(tool, { pattern: 'absent', glob: '*.md' }, makeCtx(root));
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe('No matches for absent (files matching *.md).');
  });

  it('supports a leading (?i) and ripgrep-style escapes', () => {
    const insensitive = compilePattern('(?i)hello');
    expect(insensitive.ok && insensitive.regex.test('HeLLo')).toBe(true);
    const escapes = compilePattern('[\\w-]+\\-x');
    expect(escapes.ok && escapes.regex.test('a-b-x')).toBe(true);
    expect(searchText('a\r\nb\r\n', /b/, 0)).toEqual([{ lineNumber: 2, text: 'b', isMatch: true }]);
  });
});

describe('grep (ripgrep engine)', () => {
  it('parses ripgrep JSON into the same format', async () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': 'x\n' });
    const file = path.join(root, 'src/a.ts');
    const messages = [
      { type: 'begin', data: { path: { text: file } } },
      { type: 'context', data: { path: { text: file }, lines: { text: 'before\n' }, line_number: 1 } },
      { type: 'match', data: { path: { text: file }, lines: { text: 'needle\r\n' }, line_number: 2 } },
      { type: 'end', data: { path: { text: file } } },
      { type: 'summary', data: {} },
    ];
    const fakeRg = path.join(root, 'fake-rg');
    writeFileSync(fakeRg, `#!/usr/bin/env bash\necho "$@" > "${root}/args"\ncat <<'JSON'\n${messages.map((m) => JSON.stringify(m)).join('\n')}\nJSON\n`);
    chmodSync(fakeRg, 0o755);
    const rgTool = createGrepTool({ engine: { ripgrepPath: fakeRg } });
    const result = await run(rgTool, { pattern: 'needle', context_lines: 1, glob: '*.ts' }, makeCtx(root));
    expect(result.content).toBe('src/a.ts-1-before\nsrc/a.ts:2:needle');
    const args = readFileSync(path.join(root, 'args'), 'utf8');
    expect(args).toContain('--json');
    expect(args).toContain('--context 1');
    expect(args).toContain('--glob *.ts');
    expect(args).toContain(`--regexp needle -- ${root}`);
  });
});
