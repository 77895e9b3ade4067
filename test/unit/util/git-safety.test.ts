import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_CONFIG_LISTING_ARGS, repositoryIncludes } from '../../../src/util/git-safety.js';
import { tempDir } from '../../support/temp-dirs.js';

/** A repository, its listing by real git (with `global` as the user's global config file). */
function listing(setup: (root: string) => void, global = ''): string {
  const base = tempDir('seek-git-safety-');
  const root = join(base, 'repo');
  execFileSync('git', ['init', '-q', root]);
  const globalFile = join(base, 'global-config');
  writeFileSync(globalFile, global);
  writeFileSync(join(base, 'extra.cfg'), '[user]\n\tname = from an included file\n');
  setup(root);
  return execFileSync('git', [...GIT_CONFIG_LISTING_ARGS], { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: globalFile, GIT_CONFIG_NOSYSTEM: '1' } });
}
const git = (root: string, ...args: string[]): void => void execFileSync('git', args, { cwd: root });

describe('repositoryIncludes', () => {
  it("sees include.path and includeIf in the repository's own config", () => {
    expect(repositoryIncludes(listing((root) => git(root, 'config', 'include.path', '../extra.cfg')))).toBe(true);
    expect(repositoryIncludes(listing((root) => git(root, 'config', 'includeIf.gitdir:/nowhere/.path', '../extra.cfg')))).toBe(true);
  });

  it('is false without them, and for an include in the user\'s global config', () => {
    expect(repositoryIncludes(listing((root) => git(root, 'config', 'user.name', 'plain')))).toBe(false);
    expect(repositoryIncludes(listing(() => undefined, '[include]\n\tpath = /nowhere/else.cfg\n'))).toBe(false);
  });
});
