import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInputHistory } from '../../../../src/tui/input/history.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seek-input-history-'));
  file = join(dir, 'projects', '0123456789abcdef', 'input-history.jsonl');
});

/** The project directory, for tests that write the file by hand. */
const makeProjectDir = () => mkdir(dirname(file), { recursive: true });

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const line = (text: string, ts = '2026-01-01T00:00:00.000Z') => `${JSON.stringify({ text, ts })}\n`;

describe('createInputHistory', () => {
  it('starts empty without a file and creates the file on the first add', async () => {
    const history = createInputHistory(file, { now: () => new Date('2026-02-03T04:05:06.000Z') });
    expect(history.entries()).toEqual([]);
    history.add('first prompt');
    expect(history.entries()).toEqual(['first prompt']);
    await history.flush();
    expect(await readFile(file, 'utf8')).toBe(line('first prompt', '2026-02-03T04:05:06.000Z'));
  });

  it('persists across instances, multi-line text included', async () => {
    const first = createInputHistory(file);
    first.add('one');
    first.add('two\nlines');
    await first.flush();
    const second = createInputHistory(file);
    expect(second.entries()).toEqual(['one', 'two\nlines']);
  });

  it('collapses consecutive duplicates and ignores blank text', async () => {
    const history = createInputHistory(file);
    history.add('same');
    history.add('same');
    history.add('   ');
    history.add('other');
    history.add('same');
    await history.flush();
    expect(history.entries()).toEqual(['same', 'other', 'same']);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(3);
  });

  it('skips corrupt lines and collapses duplicates written by different sessions', async () => {
    await makeProjectDir();
    await writeFile(file, line('good') + '{"text": broken\n' + 'null\n' + '{"ts":"x"}\n' + '{"text":42}\n' + line('good') + line('also good'));
    expect(createInputHistory(file).entries()).toEqual(['good', 'also good']);
  });

  it('starts a new line after a torn last line', async () => {
    await makeProjectDir();
    await writeFile(file, `${line('kept')}{"text":"torn`);
    const history = createInputHistory(file);
    history.add('after crash');
    await history.flush();
    expect(createInputHistory(file).entries()).toEqual(['kept', 'after crash']);
  });

  it('keeps the newest `max` entries, rewriting a file that grew well past it', async () => {
    await makeProjectDir();
    await writeFile(file, Array.from({ length: 120 }, (_, index) => line(`prompt ${index}`)).join(''));
    const history = createInputHistory(file, { max: 10 });
    expect(history.entries()).toEqual(Array.from({ length: 10 }, (_, index) => `prompt ${110 + index}`));
    await history.flush();
    const rewritten = (await readFile(file, 'utf8')).trim().split('\n');
    expect(rewritten).toHaveLength(10);
    expect(rewritten[0]).toBe(line('prompt 110').trim());
    history.add('newest');
    expect(history.entries()).toHaveLength(10);
    expect(history.entries().at(-1)).toBe('newest');
  });

  it('does not corrupt the file when two processes append at once', async () => {
    const a = createInputHistory(file);
    const b = createInputHistory(file);
    const big = 'x'.repeat(20_000);
    for (let index = 0; index < 50; index++) {
      a.add(`a${index} ${big}`);
      b.add(`b${index} ${big}`);
    }
    await Promise.all([a.flush(), b.flush()]);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(100);
    for (const text of lines) expect(() => JSON.parse(text) as unknown).not.toThrow();
    const entries = createInputHistory(file, { max: 1_000 }).entries();
    expect(entries.filter((text) => text.startsWith('a'))).toHaveLength(50);
    expect(entries.filter((text) => text.startsWith('b'))).toHaveLength(50);
  });

  it('reports write failures to onError instead of throwing', async () => {
    const errors: unknown[] = [];
    // The parent "directory" is a file, so mkdir fails.
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, '');
    const history = createInputHistory(join(blocker, 'input-history.jsonl'), { onError: (error) => errors.push(error) });
    history.add('text');
    await history.flush();
    expect(errors).toHaveLength(1);
    expect(history.entries()).toEqual(['text']);
  });
});
