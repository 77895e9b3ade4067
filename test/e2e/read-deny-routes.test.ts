import { execFileSync } from 'node:child_process';
import { linkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

/**
 * A `Read(...)` deny rule holds on every route by which seek's own tools could hand a file's
 * content to the model: a prompt-injected model, headless (reads need no approval), tries grep
 * over the whole project with both engines, glob, list_dir, read_file through a symlink, `..`, a
 * trailing slash and a hard link, and git's routes (show REV:PATH, diff, log -p, blame, cat-file by
 * object id, show by blob id, the pickaxe). The secret never appears in what the model receives;
 * the other files are read as before.
 */
let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const git = (subcommand: string, ...args: string[]) => call('git', { subcommand, args });

function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

const RULES = { permissions: { deny: ['Read(.env)', 'Read(./secrets/**)', 'Read(**/*.pem)'] } };

describe('Read deny rules on every route of seek\'s own tools', () => {
  it('grep, glob, list_dir, read_file tricks and git never show a denied file\'s content', async () => {
    const { root, home } = makeProject({
      'README.md': '# demo\nPUBLIC-TOKEN here\n',
      '.seek/config.json': JSON.stringify(RULES),
      '.env': 'TOKEN=SECRET-ENV\n',
      'app/.env': 'TOKEN=SECRET-DEEP\n',
      'secrets/key.txt': 'TOKEN=SECRET-DIR\n',
      'certs/server.pem': 'TOKEN=SECRET-PEM\n',
    });
    // A change in the working tree, for git diff; a symlink and a hard link to the secret.
    writeFileSync(join(root, '.env'), 'TOKEN=SECRET-ENV\nTOKEN2=SECRET-NEW\n');
    symlinkSync('.env', join(root, 'innocent.txt'));
    linkSync(join(root, 'secrets', 'key.txt'), join(root, 'notes.txt'));
    const blob = execFileSync('git', ['rev-parse', 'HEAD:.env'], { cwd: root, encoding: 'utf8' }).trim();
    server.enqueue(
      call('grep', { pattern: 'TOKEN' }),
      call('grep', { pattern: 'SECRET', path: 'secrets' }),
      call('glob', { pattern: '**/*' }),
      call('list_dir', { path: '.', depth: 3 }),
      call('read_file', { path: 'innocent.txt' }),
      call('read_file', { path: 'app/../.env' }),
      call('read_file', { path: 'secrets/key.txt/' }),
      call('read_file', { path: 'notes.txt' }),
      git('show', 'HEAD:.env'),
      git('show', 'HEAD:./app/.env'),
      git('diff'),
      git('log', '-p'),
      git('blame', '.env'),
      git('cat-file', '-p', blob),
      git('show', blob),
      git('log', '-S', 'SECRET-ENV', '--oneline'),
      git('show', '--stat', 'HEAD'),
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'look around'], {
      cwd: root,
      env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(17);
    for (const [i, result] of results.entries()) expect(result, `call ${i}`).not.toMatch(/SECRET-/);
    // What no rule denies comes through; names of denied files are left out of listings.
    expect(results[0]).toContain('PUBLIC-TOKEN');
    expect(results[2]).toContain('README.md');
    expect(results[2]).not.toMatch(/\.env|server\.pem|key\.txt/);
    expect(results[3]).toContain('README.md');
    expect(results[3]).not.toMatch(/server\.pem|key\.txt/);
    for (const i of [4, 5, 6, 7, 8, 9, 12]) expect(results[i], `call ${i}`).toMatch(/denied by/);
    expect(results[10]).toContain('left out');
    expect(results[13]).toMatch(/cat-file/);
    expect(results[14]).toMatch(/object id/);
    expect(results[15]).toMatch(/not allowed/);
    expect(results[16]).toContain('.env'); // names, not content
  });
});
