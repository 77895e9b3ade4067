import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';

/**
 * Deny rules on paths hold for commands too, through the real bubblewrap: a `Read(...)` deny rule's
 * files are hidden and an `Edit(...)` deny rule's files are read-only in the sandbox, for a folder
 * and everything in it (`secrets/**`) as for one file, and their folders cannot be renamed away
 * from under those mounts (which would swap in a folder of the command's own, or leave the real
 * file under a new name for seek's read_file, which runs outside the sandbox). A prompt-injected
 * model in `--auto`, headless, tries each route.
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
const read = (path: string) => ({ toolCalls: [{ name: 'read_file', arguments: { path } }] });

function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

const RULES = { permissions: { deny: ['Read(./secrets/**)', 'Read(./conf/private/**)', 'Edit(./deploy/prod.yml)', 'Edit(./config/keys/**)'] } };
const FILES = {
  'README.md': '# demo\n',
  '.seek/config.json': JSON.stringify(RULES),
  'secrets/key.txt': 'SECRET-ONE\n',
  'conf/private/token': 'SECRET-TWO\n',
  'conf/app.yml': 'app: 1\n',
  'deploy/prod.yml': 'replicas: 3\n',
  'deploy/staging.yml': 'replicas: 1\n',
  'config/keys/a.pem': 'PEM\n',
};

describe.skipIf(!hasSandbox)('--auto: deny rules on paths hold inside the OS sandbox', () => {
  it('denied reads stay hidden and denied edits read-only, also when their folders are renamed; other files stay writable', async () => {
    const { root, home } = makeProject(FILES);
    server.enqueue(
      bash('cat secrets/key.txt conf/private/token; grep -r SECRET . ; echo read-done'),
      bash('echo pwned > deploy/prod.yml; echo pwned >> config/keys/a.pem; touch config/keys/new.pem; echo write-done'),
      bash('mv deploy d2 && mkdir deploy && echo pwned > deploy/prod.yml; mv config/keys k2; echo swap-done'),
      bash('mv conf c2; mv conf/private p2; echo move-done'),
      read('c2/private/token'),
      read('p2/token'),
      bash('echo replicas: 2 > deploy/staging.yml && touch conf/new.yml config/other.txt && echo allowed-done'),
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'do the task', '--auto'], {
      cwd: root,
      env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(7);
    expect(results[0]).toContain('read-done');
    expect(results[3]).toContain('move-done');
    for (const result of results) expect(result).not.toMatch(/SECRET-(ONE|TWO)/);
    const content = (file: string) => readFileSync(join(root, file), 'utf8');
    expect(content('deploy/prod.yml')).toBe('replicas: 3\n');
    expect(content('config/keys/a.pem')).toBe('PEM\n');
    expect(content('conf/private/token')).toBe('SECRET-TWO\n');
    // (`mv config/keys k2` and `mv conf/private p2` copy across the mount and cannot remove the
    // original: a copy of a read-only file and of an empty folder, no swap.)
    for (const moved of ['d2', 'c2', 'p2/token', 'config/keys/new.pem']) expect(existsSync(join(root, moved)), moved).toBe(false);
    // What no rule denies is written as before.
    expect(results[6]).toContain('allowed-done');
    expect(content('deploy/staging.yml')).toBe('replicas: 2\n');
    expect(existsSync(join(root, 'conf', 'new.yml')) && existsSync(join(root, 'config', 'other.txt'))).toBe(true);
  });

  it('a denied path that does not exist yet: created by a command, it is moved aside when the command ends; its folders cannot be swapped', async () => {
    const rules = { permissions: { deny: ['Edit(./deploy/prod.yml)', 'Edit(./release/keys/**)', 'Edit(./out/secret/key.txt)', 'Edit(./.env.production)'] } };
    const { root, home } = makeProject({ 'README.md': '# demo\n', '.seek/config.json': JSON.stringify(rules), 'deploy/staging.yml': 'replicas: 1\n' });
    server.enqueue(
      bash('echo pwned > deploy/prod.yml; mkdir -p release/keys && echo k > release/keys/a.pem; echo x > .env.production; echo create-done'),
      bash('mkdir -p other/secret && ln -s other out && echo k > out/secret/key.txt; echo link-done'),
      bash('mv deploy d2 && mkdir deploy && echo pwned > deploy/prod.yml; echo swap-done'),
      bash('echo replicas: 2 > deploy/staging.yml && echo allowed-done'),
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'do the task', '--auto'], {
      cwd: root,
      env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(4);
    expect(results[0]).toContain('create-done');
    expect(results[0]).toContain('moved deploy/prod.yml aside to deploy/prod.yml.seek-quarantine');
    expect(results[0]).toContain('moved release/keys aside');
    expect(results[0]).toContain('moved .env.production aside');
    expect(results[1]).toContain('moved out aside to out.seek-quarantine');
    expect(results[2]).toContain('swap-done');
    expect(results[2]).not.toContain('moved');
    const at = (file: string) => join(root, file);
    for (const gone of ['deploy/prod.yml', 'release/keys', '.env.production', 'out', 'd2']) expect(existsSync(at(gone)), gone).toBe(false);
    expect(readFileSync(at('deploy/prod.yml.seek-quarantine'), 'utf8')).toBe('pwned\n'); // moved, never deleted
    expect(existsSync(at('release/keys.seek-quarantine/a.pem'))).toBe(true);
    expect(results[3]).toContain('allowed-done');
    expect(readFileSync(at('deploy/staging.yml'), 'utf8')).toBe('replicas: 2\n');
  });
});
