import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { absentInRoot, existingFoldersOf, moveAsideCreated } from '../../../src/sandbox/absent-denied.js';

const made: string[] = [];
function project(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'seek-absent-')));
  made.push(root);
  mkdirSync(join(root, 'deploy'));
  writeFileSync(join(root, 'deploy', 'staging.yml'), 'replicas: 1\n');
  return root;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('denied paths that do not exist yet', () => {
  it('are found in the root with the folders on the way that exist, and never outside it', () => {
    const root = project();
    const absent = absentInRoot(['./deploy/prod.yml', 'release/keys', 'deploy/staging.yml', '../outside.txt', '/etc/seek-nothing'], root);
    expect(absent).toEqual([
      { path: join(root, 'deploy', 'prod.yml'), existing: 1 },
      { path: join(root, 'release', 'keys'), existing: 0 },
    ]);
    expect(existingFoldersOf(absent, root)).toEqual([join(root, 'deploy')]);
  });

  it('resolves a link among the existing folders, so what is watched is where the file would land', () => {
    const root = project();
    symlinkSync('deploy', join(root, 'deploy-link'));
    expect(absentInRoot(['deploy-link/prod.yml'], root)).toEqual([{ path: join(root, 'deploy', 'prod.yml'), existing: 1 }]);
    symlinkSync(tmpdir(), join(root, 'tmp-link'));
    expect(absentInRoot(['tmp-link/x.yml'], root)).toEqual([]); // lands outside the root
  });

  it('moves aside what a command created (a file, a folder, a link on the way), never deleting, and leaves the rest', () => {
    const root = project();
    const absent = absentInRoot(['deploy/prod.yml', 'release/keys', 'out/secret/key.txt', 'vault'], root);
    expect(moveAsideCreated(absent, root)).toEqual([]); // nothing created: nothing to say
    writeFileSync(join(root, 'deploy', 'prod.yml'), 'pwned\n');
    mkdirSync(join(root, 'release', 'keys'), { recursive: true });
    writeFileSync(join(root, 'release', 'keys', 'a.pem'), 'k\n');
    mkdirSync(join(root, 'other', 'secret'), { recursive: true });
    symlinkSync('other', join(root, 'out'));
    writeFileSync(join(root, 'out', 'secret', 'key.txt'), 'k\n');
    writeFileSync(join(root, 'deploy', 'prod.yml.seek-quarantine'), 'taken\n');
    const lines = moveAsideCreated(absent, root);
    expect(lines).toEqual([
      'moved deploy/prod.yml aside to deploy/prod.yml.seek-quarantine-2: a sandboxed command created it, and a deny rule forbids writing it',
      'moved release/keys aside to release/keys.seek-quarantine: a sandboxed command created it, and a deny rule forbids writing it',
      'moved out aside to out.seek-quarantine: a sandboxed command put a link where a folder on the way to out/secret/key.txt (denied) was missing',
    ]);
    expect(readFileSync(join(root, 'deploy', 'prod.yml.seek-quarantine-2'), 'utf8')).toBe('pwned\n');
    expect(readFileSync(join(root, 'deploy', 'prod.yml.seek-quarantine'), 'utf8')).toBe('taken\n');
    expect(existsSync(join(root, 'release', 'keys.seek-quarantine', 'a.pem'))).toBe(true);
    expect(existsSync(join(root, 'release'))).toBe(true);
    expect(existsSync(join(root, 'other', 'secret', 'key.txt'))).toBe(true);
    expect(readFileSync(join(root, 'deploy', 'staging.yml'), 'utf8')).toBe('replicas: 1\n');
  });

  it('leaves a file standing where a folder on the way would be: nothing can be below it', () => {
    const root = project();
    const absent = absentInRoot(['config/deploy.yml'], root);
    writeFileSync(join(root, 'config'), 'a file\n');
    expect(moveAsideCreated(absent, root)).toEqual([]);
    expect(readFileSync(join(root, 'config'), 'utf8')).toBe('a file\n');
  });
});
