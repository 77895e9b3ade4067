import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ancestorsBelow, deniedInRoot } from '../../../src/sandbox/denied-paths.js';
import { bwrapArguments } from '../../../src/sandbox/bwrap.js';

let base: string;
let root: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-denied-')));
  root = path.join(base, 'p');
  mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(root, 'a', 'b', 'f'), 'x');
  writeFileSync(path.join(base, 'outside'), 'x');
  symlinkSync('../outside', path.join(root, 'link-out'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('denied paths in a root', () => {
  it('resolves relative and absolute entries, keeps existing ones inside the root only', () => {
    expect(deniedInRoot(['a/b/f', path.join(root, 'a'), 'missing', 'link-out', '../outside'], root)).toEqual([path.join(root, 'a', 'b', 'f'), path.join(root, 'a')]);
  });

  it('pins every folder between the root and a path, outermost first, each once', () => {
    expect(ancestorsBelow(root, [path.join(root, 'a', 'b', 'f'), path.join(root, 'a', 'c'), path.join(root, 'top'), '/elsewhere/x'])).toEqual([path.join(root, 'a'), path.join(root, 'a', 'b')]);
  });

  it('bwrap binds the pinned folders after the root and before the read-only paths in them', () => {
    const file = path.join(root, 'a', 'b', 'f');
    const args = bwrapArguments(
      { profile: 'workspace-write', writable: [root], protectedPaths: [file], pinned: ancestorsBelow(root, [file]), hidden: [], scratch: [], readable: [], gitMounts: [], unixSockets: false, visible: [root], network: false },
      root,
      { seccomp: false },
    );
    const at = (...mount: string[]) => args.findIndex((_, i) => mount.every((part, j) => args[i + j] === part));
    expect(at('--bind', root, root)).toBeLessThan(at('--bind', path.join(root, 'a'), path.join(root, 'a')));
    expect(at('--bind', path.join(root, 'a'), path.join(root, 'a'))).toBeLessThan(at('--bind', path.join(root, 'a', 'b'), path.join(root, 'a', 'b')));
    expect(at('--bind', path.join(root, 'a', 'b'), path.join(root, 'a', 'b'))).toBeLessThan(at('--ro-bind', file, file));
  });
});
