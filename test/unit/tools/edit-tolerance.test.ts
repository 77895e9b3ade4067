import { describe, expect, it } from 'vitest';
import { computeEdit } from '../../../src/tools/edit-file.js';

/** Runs one edit in memory; returns the new text, or the refusal as `{ error }`. */
function edit(file: string, old_string: string, new_string: string, replace_all?: boolean): string | { error: string; notes?: never } {
  const outcome = computeEdit(file, { path: 'f', old_string, new_string, replace_all }, 'f');
  return outcome.ok ? outcome.updated : { error: outcome.message };
}

function notes(file: string, old_string: string, new_string: string): string {
  const outcome = computeEdit(file, { path: 'f', old_string, new_string }, 'f');
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.notes.join('; ');
}

describe('edit_file tolerance: indentation', () => {
  const file = 'class A {\n    run() {\n        if (x) {\n            go();\n        }\n    }\n}\n';

  it('re-indents new_string by the shift of a block sent with less indentation', () => {
    const result = edit(file, 'if (x) {\n    go();\n}', 'if (x) {\n    go();\n    stop();\n}');
    expect(result).toBe('class A {\n    run() {\n        if (x) {\n            go();\n            stop();\n        }\n    }\n}\n');
    expect(notes(file, 'if (x) {\n    go();\n}', 'if (x) {\n    go();\n    stop();\n}')).toContain('8 spaces deeper');
  });

  it('writes tabs when the file indents with tabs and the model sent spaces', () => {
    const tabs = 'func main() {\n\tif ok {\n\t\trun()\n\t}\n}\n';
    expect(edit(tabs, '    if ok {\n        run()\n    }', '    if ok {\n        run()\n        done()\n    }')).toBe(
      'func main() {\n\tif ok {\n\t\trun()\n\t\tdone()\n\t}\n}\n',
    );
  });

  it('re-indents a unique block line by line when its indentation is no shift of the whole block (Python structure flattened)', () => {
    const python = 'def f():\n    if a:\n        b()\n    c()\n';
    expect(edit(python, 'if a:\nb()\nc()', 'if a:\nb()\nd()')).toBe('def f():\n    if a:\n        b()\n    d()\n');
    expect(notes(python, 'if a:\nb()\nc()', 'if a:\nb()\nd()')).toContain("indented from the file's lines one by one");
  });

  it('line by line: an added line takes the deeper neighbour, a changed line its own, relative moves are kept', () => {
    // Every level flattened; a line added after `{` goes inside the block.
    expect(edit(file, 'if (x) {\ngo();\n}', 'if (x) {\nready();\ngo();\n}')).toBe(
      'class A {\n    run() {\n        if (x) {\n            ready();\n            go();\n        }\n    }\n}\n',
    );
    // One inner line misindented; new_string nests a new line one (2-column) level under it: one file level (4).
    const mixed = 'run() {\n    if (x) {\n    go();\n    }\n}';
    expect(edit(file, mixed, 'run() {\n    if (x) {\n    go();\n      stop();\n    }\n}')).toBe(
      'class A {\n    run() {\n        if (x) {\n            go();\n                stop();\n        }\n    }\n}\n',
    );
  });

  it('line by line still refuses a block that is not unique', () => {
    const twice = 'a() {\n  if (x) {\n    go();\n  }\n}\nb() {\n    if (x) {\n  go();\n    }\n}\n';
    expect(edit(twice, 'if (x) {\ngo();\n}', 'if (x) {\nstop();\n}')).toMatchObject({ error: expect.stringContaining('matches 2 places') });
  });

  it('keeps unchanged context lines byte for byte, trailing spaces included', () => {
    const spaced = 'a = 1   \nb = 2\nc = 3\n';
    expect(edit(spaced, 'a = 1\nb = 2', 'a = 1\nb = 20')).toBe('a = 1   \nb = 20\nc = 3\n');
  });
});

describe('edit_file tolerance: spacing, escapes, look-alikes, line numbers', () => {
  it('matches when spacing inside a line differs', () => {
    expect(edit('  call(a,  b);\n', 'call(a, b);', 'call(a, c);')).toBe('  call(a, c);\n');
  });

  it('reads escape sequences the file does not contain as the characters', () => {
    const file = 'const s = "hi";\nconst t = 1;\n';
    expect(edit(file, 'const s = \\"hi\\";\\nconst t = 1;', 'const s = \\"hey\\";\\nconst t = 2;')).toBe('const s = "hey";\nconst t = 2;\n');
  });

  it('leaves escape sequences alone when the file contains them', () => {
    const file = 'print("a\\nb")\n';
    expect(edit(file, 'print("a\\nb")', 'print("a\\nc")')).toBe('print("a\\nc")\n');
  });

  it('treats dashes, curly quotes and no-break spaces as their ASCII look-alikes, keeping context lines', () => {
    const file = 'title = “Intro – part 1”\nnext\u00A0= 2\n';
    expect(edit(file, 'title = "Intro - part 1"\nnext = 2', 'title = "Intro - part 1"\nnext = 3')).toBe('title = “Intro – part 1”\nnext = 3\n');
    expect(notes(file, 'next = 2', 'next = 3')).toContain('U+00A0 NO-BREAK SPACE');
  });

  it('matches NFC text against an NFD file', () => {
    const file = 'name = "cafe\u0301"\n';
    expect(edit(file, 'name = "caf\u00E9"', 'name = "bar"')).toBe('name = "bar"\n');
  });

  it("strips read_file's line-number prefixes", () => {
    const file = 'one\ntwo\nthree\n';
    expect(edit(file, '     2\ttwo\n     3\tthree', '     2\ttwo!\n     3\tthree')).toBe('one\ntwo!\nthree\n');
    expect(edit(file, '     2\ttwo', 'TWO')).toBe('one\nTWO\nthree\n');
  });

  it('never strips from new_string what is not certainly a read_file prefix (issue 34: a TSV row)', () => {
    const tsv = '1\tapple\n2\tbanana\n3\tcherry\n';
    expect(edit(tsv, '     2\t2\tbanana', '2\tblueberry')).toBe('1\tapple\n2\tblueberry\n3\tcherry\n');
    expect(edit(tsv, '     2\t2\tbanana', '     2\t2\tblueberry')).toBe('1\tapple\n2\tblueberry\n3\tcherry\n');
    // Prefixes on some lines of new_string but not all: unclear, refused with the reason.
    expect(edit(tsv, '     2\t2\tbanana\n     3\t3\tcherry', '     2\t2\tberry\n3\tcherry')).toMatchObject({ error: expect.stringContaining('some lines but not all') });
    // A number that is not in read_file's 6-column format is no prefix in old_string either.
    expect(edit(tsv, '2\t2\tbanana', 'x')).toMatchObject({ error: expect.stringContaining('not found') });
  });
});

describe('edit_file refuses rather than guesses', () => {
  it('counts overlapping occurrences as ambiguous', () => {
    const file = 'f() {\n  }\n  }\n  }\n';
    expect(edit(file, '  }\n  }', '  }')).toMatchObject({ error: expect.stringContaining('matches 2 places in f (lines 2, 3)') });
  });

  it('refuses several tolerant matches with their line numbers', () => {
    const file = 'if (a) {\n  x();\n}\nif (b) {\n    x();\n}\n';
    expect(edit(file, 'x();', 'y();')).toMatchObject({ error: expect.stringContaining('lines 2, 5') });
  });

  it('refuses a placeholder that would delete the code it stands for', () => {
    const file = 'class A {\n  one() {}\n  two() {}\n}\n';
    const result = edit(file, 'class A {\n  one() {}\n  two() {}\n}', 'class A {\n  zero() {}\n  // rest of methods ...\n}');
    expect(result).toMatchObject({ error: expect.stringContaining('placeholder "// rest of methods ..."') });
    expect(edit(file, '  two() {}\n}', '  two() {}\n  // ...\n}')).toMatchObject({ error: expect.stringContaining('written into the file literally') });
    // A bare `...` is code (Python's Ellipsis, JavaScript's spread), not a placeholder.
    expect(edit('def f():\n    pass\n', '    pass', '    ...')).toBe('def f():\n    ...\n');
  });

  it('has no case-insensitive or similarity matching', () => {
    expect(edit('Hello world\n', 'hello world', 'x')).toMatchObject({ error: expect.stringContaining('not found') });
    expect(edit('function handler() {}\n', 'function handlr() {}', 'x')).toMatchObject({ error: expect.stringContaining('line 1 differs') });
  });

  it('refuses an old_string copied from a cut long line, with or without the marker', () => {
    const long = Array.from({ length: 700 }, (_, n) => `${n},`).join('');
    const file = `a\n${long}\nb\n`;
    const shown = long.slice(0, 2000);
    expect(edit(file, `${shown}… [+${long.length - 2000} chars]`, 'y')).toMatchObject({ error: expect.stringContaining("read_file's mark") });
    expect(edit(file, shown, 'y')).toMatchObject({ error: expect.stringContaining('middle of that line') });
    expect(edit(file, `a\n${long.slice(0, 30)}`, 'A\nz')).toBe(`A\nz${long.slice(30)}\nb\n`);
  });
});

describe('edit_file line endings', () => {
  it('writes new_string with CRLF as LF into an LF file', () => {
    expect(edit('a\nb\nc\n', 'b', 'b1\r\nb2')).toBe('a\nb1\nb2\nc\n');
  });

  it('matches LF text across the CRLF lines of a mixed file, keeping each line its ending', () => {
    const mixed = 'a\r\nb\r\nc\nd\n';
    expect(edit(mixed, 'a\nb', 'A\nB\nB2')).toBe('A\r\nB\r\nB2\r\nc\nd\n');
    expect(edit(mixed, 'c\nd', 'C\nD')).toBe('a\r\nb\r\nC\nD\n');
  });

  it('applies an edits array in order, all or none', () => {
    const ok = computeEdit('a\nb\nc\n', { path: 'f', edits: [{ old_string: 'a', new_string: 'A' }, { old_string: 'A\nb', new_string: 'A\nB' }] }, 'f');
    expect(ok).toMatchObject({ ok: true, updated: 'A\nB\nc\n', replacements: 2 });
    const failed = computeEdit('a\nb\n', { path: 'f', edits: [{ old_string: 'a', new_string: 'A' }, { old_string: 'zzz', new_string: 'Z' }] }, 'f');
    expect(failed).toMatchObject({ ok: false, message: expect.stringContaining('Edit 2 of 2 failed, so none were applied') });
  });
});
