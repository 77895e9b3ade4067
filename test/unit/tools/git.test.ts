import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkGitArgs, createGitTool, GIT_MAX_LINES } from '../../../src/tools/git.js';
import { git, initRepo, makeCtx, run, writeTree } from './helpers.js';

const tool = createGitTool();

describe('git', () => {
  it('runs read-only subcommands in ctx.cwd without color', async () => {
    const repo = initRepo({ 'a.txt': 'one\n' });
    writeTree(repo, { 'a.txt': 'two\n' });
    const status = await run(tool, { subcommand: 'status', args: ['--short'] }, makeCtx(repo));
    expect(status.content).toBe(' M a.txt');
    const diff = await run(tool, { subcommand: 'diff' }, makeCtx(repo));
    expect(diff.content).toContain('-one\n+two');
    expect(diff.content).not.toContain('\u001b[');
    const log = await run(tool, { subcommand: 'log', args: ['--format=%s'] }, makeCtx(repo));
    expect(log.content).toBe('initial');
  });

  it('lists branches and tags', async () => {
    const repo = initRepo();
    git(repo, 'branch', 'feature');
    git(repo, 'tag', 'v1.0');
    expect((await run(tool, { subcommand: 'branch' }, makeCtx(repo))).content).toBe('  feature\n* main');
    expect((await run(tool, { subcommand: 'branch', args: ['--list', 'feat*'] }, makeCtx(repo))).content).toBe('  feature');
    expect((await run(tool, { subcommand: 'branch', args: ['--contains', 'HEAD', '-a'] }, makeCtx(repo))).isError).toBeUndefined();
    expect((await run(tool, { subcommand: 'tag', args: ['-l', 'v*'] }, makeCtx(repo))).content).toBe('v1.0');
  });

  it('refuses writes: branch -D, branch NAME, tag NAME, diff --output, -c, reflog expire', async () => {
    const repo = initRepo();
    git(repo, 'branch', 'feature');
    const refused = async (args: { subcommand: string; args: string[] }): Promise<string> => {
      const result = await run(tool, args, makeCtx(repo));
      expect(result.isError).toBe(true);
      return result.content;
    };
    expect(await refused({ subcommand: 'branch', args: ['-D', 'feature'] })).toContain('-D is not allowed');
    expect(await refused({ subcommand: 'branch', args: ['new-branch'] })).toContain('creates or changes a branch');
    expect(await refused({ subcommand: 'branch', args: ['--set-upstream-to=origin/main'] })).toContain('not allowed');
    expect(await refused({ subcommand: 'tag', args: ['v2'] })).toContain('creates or changes a tag');
    expect(await refused({ subcommand: 'tag', args: ['-d', 'v1'] })).toContain('-d is not allowed');
    expect(await refused({ subcommand: 'diff', args: ['--output=out.patch'] })).toContain('writes a file');
    expect(await refused({ subcommand: 'log', args: ['-o', 'out.patch'] })).toContain('writes a file');
    expect(await refused({ subcommand: 'log', args: ['-c', 'core.pager=evil'] })).toContain('config overrides');
    expect(await refused({ subcommand: 'show', args: ['--config-env=x=y'] })).toContain('config overrides');
    expect(await refused({ subcommand: 'diff', args: ['--ext-diff'] })).toContain('external');
    expect(await refused({ subcommand: 'log', args: ['--upload-pack=touch /tmp/x', 'origin'] })).toContain('runs a program');
    expect(await refused({ subcommand: 'reflog', args: ['expire', '--all'] })).toContain('changes the reflog');
    expect(git(repo, 'branch', '--list')).toContain('feature');
    expect(existsSync(path.join(repo, 'out.patch'))).toBe(false);
  });

  it('rejects subcommands outside the read-only list at validation', () => {
    expect(tool.schema.safeParse({ subcommand: 'push' }).success).toBe(false);
    expect(tool.schema.safeParse({ subcommand: 'commit', args: ['-m', 'x'] }).success).toBe(false);
    // ls-remote <URL> would contact any host: not a read-only subcommand.
    expect(tool.schema.safeParse({ subcommand: 'ls-remote', args: ['https://example.com/x.git'] }).success).toBe(false);
  });

  it('allows paths after -- even when they look like options', () => {
    expect(checkGitArgs('log', ['--', '-c'])).toBeNull();
    expect(checkGitArgs('diff', ['--cached', '--stat'])).toBeNull();
    expect(checkGitArgs('ls-files', ['-o', '--exclude-standard'])).toBeNull();
    expect(checkGitArgs('reflog', ['show', 'main'])).toBeNull();
  });

  it('caps output at 500 lines and reports failures with stderr', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < GIT_MAX_LINES + 25; index += 1) files[`f${index}.txt`] = '';
    const repo = initRepo(files);
    const listed = await run(tool, { subcommand: 'ls-files' }, makeCtx(repo));
    const lines = listed.content.split('\n');
    expect(lines).toHaveLength(GIT_MAX_LINES + 1);
    expect(lines.at(-1)).toContain('25 more lines not shown');

    const failed = await run(tool, { subcommand: 'show', args: ['no-such-ref'] }, makeCtx(repo));
    expect(failed.isError).toBe(true);
    expect(failed.content).toMatch(/^git show failed \(exit code 128\):\nfatal: /);
  });

  it('describes itself as a git action and is read-only', async () => {
    const request = await tool.describe!({ subcommand: 'log', args: ['-n', '5', 'a b'] }, makeCtx('/work/p'));
    expect(request).toMatchObject({ kind: 'git', command: "git log -n 5 'a b'" });
    expect(tool.readOnly).toBe(true);
  });
});
