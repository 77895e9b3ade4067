import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childOf, isNormalAbsolute } from '../../../src/util/normal-path.js';

// Every answer these functions give must be node:path's own; "don't know" is always allowed.
const SAMPLES = [
  '/', '/a', '/a/b', '/a/b/', '/a//b', '/a/./b', '/a/../b', '/a/b/.', '/a/b/..', '/..', '/.', '//',
  'a/b', '', '.', '/a/.b', '/a/..b', '/a/b.', '/a/b..', '/a/...', '/a/ b', '/root/proj', '/root/proj/src/x.ts',
  '/root/projx/y', '/root/proj/../etc', '/root/proj/./a', '/root/proj//a', '/a/b/c/d.txt',
];

describe('isNormalAbsolute', () => {
  it('says yes only for what path.resolve leaves as it is', () => {
    for (const p of SAMPLES) {
      if (isNormalAbsolute(p)) expect(path.resolve(p), p).toBe(p);
    }
    expect(SAMPLES.filter((p) => isNormalAbsolute(p))).toEqual(['/', '/a', '/a/b', '/a/.b', '/a/..b', '/a/b.', '/a/b..', '/a/...', '/a/ b', '/root/proj', '/root/proj/src/x.ts', '/root/projx/y', '/a/b/c/d.txt']);
  });
});

describe('childOf', () => {
  it('gives what path.relative gives, for targets strictly below the directory', () => {
    let answered = 0;
    for (const dir of SAMPLES) {
      for (const target of SAMPLES) {
        const child = childOf(dir, target);
        if (child === undefined) continue;
        answered += 1;
        expect(child, `${dir} -> ${target}`).toBe(path.relative(dir, target));
        expect(child === '..' || child.startsWith('../')).toBe(false);
      }
    }
    expect(answered).toBeGreaterThan(20);
  });

  it('does not take a sibling with a longer name, or the directory itself, for a child', () => {
    expect(childOf('/root/proj', '/root/projx/y')).toBeUndefined();
    expect(childOf('/root/proj', '/root/proj')).toBeUndefined();
    expect(childOf('/root/proj', '/root/proj/../etc')).toBeUndefined();
    expect(childOf('/root/proj', '/root/proj/src/x.ts')).toBe('src/x.ts');
    expect(childOf('/', '/etc')).toBe('etc');
  });
});
