import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

/**
 * seek's own file tools (write_file, edit_file) run outside the OS sandbox, in seek's process. The
 * sandbox keeps git metadata and `.seek/` read-only for commands; these tools must not be the way
 * around it: in `--auto` a prompt-injected model writes the files git and seek later trust, and the
 * user's own `git status` or next session runs what it planted. Each write below is refused
 * headless (nobody to ask), the files are unchanged, and the user's git runs nothing.
 */
let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const write = (path: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
const edit = (path: string, oldString: string, newString: string) => ({
  toolCalls: [{ name: 'edit_file', arguments: { path, old_string: oldString, new_string: newString } }],
});

function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

const fsmonitor = (marker: string): string => `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch ${marker}; false\n`;
const DENY_PUSH = '{ "permissions": { "deny": ["Bash(git push:*)"] } }\n';

function seek(root: string, home: string, flags: string[]) {
  return runSeek(['-p', 'do the task', ...flags], {
    cwd: root,
    env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
    timeoutMs: 90_000,
  });
}

/** A repository with a nested one, `.seek/config.json` denying pushes, and a link into `.git`. */
function project(): { root: string; home: string; marker: string; before: Record<string, string> } {
  const { root, home } = makeProject({ 'README.md': '# demo\n', '.seek/config.json': DENY_PUSH });
  execFileSync('git', ['init', '-q', join(root, 'vendor', 'lib')]);
  symlinkSync('.git', join(root, 'meta'));
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  const marker = join(root, '..', 'planted-ran');
  const files = ['.git/config', 'vendor/lib/.git/config', '.seek/config.json'];
  const before = Object.fromEntries(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  return { root, home, marker, before };
}

function attacks(marker: string) {
  return [
    write('.git/config', fsmonitor(marker)),
    write('.git/hooks/post-commit', `#!/bin/sh\ntouch ${marker}\n`),
    write('vendor/lib/.git/config', fsmonitor(marker)),
    write('meta/hooks/pre-commit', `#!/bin/sh\ntouch ${marker}\n`),
    edit('.seek/config.json', '"Bash(git push:*)"', '"Bash(nothing-at-all)"'),
    write('.seek/hooks.toml', '# planted\n'),
    write('.GIT/config', fsmonitor(marker)),
  ];
}

describe('--auto: seek\'s own file tools do not write what the sandbox keeps read-only', () => {
  it('git metadata (any repository, through a link too) and .seek/ are refused headless; other files are written', async () => {
    const { root, home, marker, before } = project();
    server.enqueue(...attacks(marker), write('src/ok.ts', 'export const ok = 1;\n'), { text: 'done' });
    const run = await seek(root, home, ['--auto']);
    expect(run.code).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(8);
    for (const result of results.slice(0, 7)) expect(result).toMatch(/is (git metadata|the project's seek configuration).*only with a person's approval/);
    expect(results[0]).toContain('.git/config is git metadata');
    expect(results[4]).toContain(".seek/config.json is the project's seek configuration");
    expect(results[7]).toMatch(/^Created src\/ok\.ts/);
    for (const [file, content] of Object.entries(before)) expect(readFileSync(join(root, file), 'utf8')).toBe(content);
    for (const file of ['.git/hooks/post-commit', '.git/hooks/pre-commit', '.seek/hooks.toml', '.GIT']) expect(existsSync(join(root, file))).toBe(false);
    // The user's own git, outside any sandbox: nothing planted runs.
    for (const cwd of [root, join(root, 'vendor', 'lib')]) spawnSync('git', ['status'], { cwd, stdio: 'ignore' });
    spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@u', 'commit', '-qm', 'user', '--allow-empty'], { cwd: root, stdio: 'ignore' });
    expect(existsSync(marker)).toBe(false);
  });

  it('--yolo still writes them (the user chose to allow everything)', async () => {
    const { root, home } = project();
    server.enqueue(write('.git/info/exclude', 'ignored-by-yolo\n'), { text: 'done' });
    const run = await seek(root, home, ['--yolo']);
    expect(run.code).toBe(0);
    expect(toolResults()[0]).toMatch(/^(Created|Overwrote) \.git\/info\/exclude/);
    expect(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8')).toBe('ignored-by-yolo\n');
  });
});
