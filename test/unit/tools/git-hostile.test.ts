import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGitTool } from '../../../src/tools/git.js';
import { makeCtx, run, tempDir } from './helpers.js';
import { makeHostileRepo } from './hostile-repo.js';

const tool = createGitTool();
const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

describe('the git tool in a repository whose config names programs', () => {
  it('runs status, diff, log, show and blame without running any of them', async () => {
    const repo = makeHostileRepo(tempDir('seek-git-hostile-'), tempDir('seek-git-outside-'), env);
    writeFileSync(path.join(repo.root, 'a.txt'), 'one\ntwo (changed)\nthree\n');
    writeFileSync(path.join(repo.root, 'new.inc'), 'new\n');
    // Armed: plain git runs the program (fsmonitor, clean filter, post-index-change hook).
    execFileSync('git', ['status'], { cwd: repo.root, env, stdio: 'ignore' });
    expect(repo.runs()).not.toBe('');
    repo.clear();

    const ctx = makeCtx(repo.root);
    const status = await run(tool, { subcommand: 'status', args: ['--short'] }, ctx);
    expect(status.content).toContain('M a.txt');
    expect(status.content).toContain('?? new.inc');
    const diff = await run(tool, { subcommand: 'diff' }, ctx);
    expect(diff.content).toContain('+two (changed)');
    for (const call of [
      { subcommand: 'status' },
      { subcommand: 'diff', args: ['--stat'] },
      { subcommand: 'log', args: ['-p'] },
      { subcommand: 'show', args: ['HEAD'] },
      { subcommand: 'blame', args: ['a.txt'] },
      { subcommand: 'ls-files', args: ['--modified'] },
      { subcommand: 'shortlog', args: ['HEAD'] },
    ]) {
      const result = await run(tool, call, ctx);
      expect(result.isError, `${call.subcommand}: ${result.content}`).toBeUndefined();
    }
    expect(repo.runs()).toBe('');
  });
});
