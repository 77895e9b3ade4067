import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';

/**
 * Deny rules with globs hold for commands in the OS sandbox, through the real bubblewrap: the files
 * that match `Read(./.env.*)` (glob in the last part), `Read(.env)` and `Read(**\/*.pem)` (any depth)
 * when a command starts are hidden from it, and those that match `Edit(config/*.yml)` are read-only.
 * A prompt-injected model in `--auto`, headless, tries to print and to change them.
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

const RULES = { permissions: { deny: ['Read(./.env.*)', 'Read(.env)', 'Read(**/*.pem)', 'Edit(config/*.yml)'] } };

describe.skipIf(!hasSandbox)('--auto: deny globs hold inside the OS sandbox', () => {
  it('cat and grep -r never print a denied file; a denied Edit glob\'s files stay unchanged', async () => {
    const { root, home } = makeProject({
      'README.md': '# demo\nPUBLIC\n',
      '.seek/config.json': JSON.stringify(RULES),
      '.env.local': 'SECRET-LOCAL\n',
      'app/deep/.env': 'SECRET-DEEP\n',
      'certs/a/server.pem': 'SECRET-PEM\n',
      'config/app.yml': 'replicas: 3\n',
      'config/notes.txt': 'free\n',
    });
    server.enqueue(
      bash('cat .env.local app/deep/.env certs/a/server.pem; grep -r SECRET . ; echo read-done'),
      bash('echo pwned >> config/app.yml; echo more >> config/notes.txt; echo write-done'),
      bash('mv config/app.yml config/x.yml; rm -f config/app.yml; echo move-done'),
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'do the task', '--auto'], {
      cwd: root,
      env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(3);
    expect(results[0]).toContain('read-done');
    for (const result of results) expect(result).not.toMatch(/SECRET-/);
    expect(results[1]).toContain('write-done');
    const content = (file: string) => readFileSync(join(root, file), 'utf8');
    expect(content('config/app.yml')).toBe('replicas: 3\n');
    expect(content('config/notes.txt')).toBe('free\nmore\n');
    expect(results[2]).toContain('move-done');
    expect(content('config/app.yml')).toBe('replicas: 3\n');
    expect(content('.env.local')).toBe('SECRET-LOCAL\n');
  });
});
