import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

/**
 * A deny rule on `git push` holds in every mode, `--yolo` included (where nothing is sandboxed, so
 * the rule is all that stands between the model and the remote). git's own options before the
 * subcommand, and an alias given on its command line, must not carry a push past it. The remote is
 * a bare repository on disk: a push that got through would land there.
 */
let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });

function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe('--yolo: a deny rule on git push is not passed by git\'s global options', () => {
  it('-C, --no-pager, -c and a command-line alias are all denied; the remote gets nothing; other git commands run', async () => {
    const { root, home } = makeProject();
    const remote = join(root, '..', 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);
    execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: root });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Bash(git push:*)'] } }));
    server.enqueue(
      bash('git -C . push origin main'),
      bash('git --no-pager push origin main'),
      bash('git -c push.default=current push'),
      bash("git -c alias.publish='push origin main' publish"),
      bash("git -c 'alias.up=!git push origin main' up"),
      bash('git -C . log --oneline | wc -l'),
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'ship it', '--yolo'], {
      cwd: root,
      env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
      timeoutMs: 90_000,
    });
    expect(run.code).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(6);
    for (const result of results.slice(0, 3)) expect(result).toMatch(/denied by a user rule: Bash\(git push:\*\) \(it runs `git → git push/);
    for (const result of results.slice(3, 5)) expect(result).toMatch(/denied by a user rule: Bash\(git push:\*\) \(seek cannot tell what this command runs: git is given an alias/);
    expect(results[5]).toMatch(/^1\n/);
    const refs = execFileSync('git', ['for-each-ref'], { cwd: remote, encoding: 'utf8' });
    expect(refs).toBe('');
  });
});
