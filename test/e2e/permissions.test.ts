import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';

/** Permission rules from config files, end to end: the real seek, the scripted model, real files. */
let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const env = (home: string) => ({ SEEK_HOME: home, DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' });

function toolResults(): string[] {
  const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return last.filter((m) => m.role === 'tool').map((m) => m.content);
}

function projectConfig(root: string, permissions: unknown, file = 'config.json'): void {
  mkdirSync(join(root, '.seek'), { recursive: true });
  writeFileSync(join(root, '.seek', file), JSON.stringify({ permissions }));
}

describe('config rules allow, ask and deny as documented, with project trust', () => {
  it.skipIf(!hasSandbox)('a project allow rule applies only after `seek permissions trust`, and its command runs sandboxed', async () => {
    const { root, home } = makeProject();
    projectConfig(root, { allow: ['Bash(touch:*)'] });
    const script = () => server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch made.txt' } }] }, { text: 'done' });

    script();
    const untrusted = await runSeek(['-p', 'make it'], { cwd: root, env: env(home) });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toMatch(/not applied: the project is not trusted/);
    expect(existsSync(join(root, 'made.txt'))).toBe(false);

    const trust = await runSeek(['permissions', 'trust'], { cwd: root, env: env(home) });
    expect(trust.code).toBe(0);
    expect(trust.stdout).toMatch(/trusted: Bash\(touch:\*\)/);

    server.reset();
    script();
    const trusted = await runSeek(['-p', 'make it'], { cwd: root, env: env(home) });
    expect(trusted.code).toBe(0);
    expect(existsSync(join(root, 'made.txt'))).toBe(true);

    // A changed allow list (say, a hostile commit) is held back again.
    projectConfig(root, { allow: ['Bash'] });
    const list = await runSeek(['permissions', 'list'], { cwd: root, env: env(home) });
    expect(list.stdout).toMatch(/allow\s+Bash\s+project .*not applied: project not trusted/);
  });

  it.skipIf(!hasSandbox)('a deny rule on a file holds for the read tool and for commands (the sandbox hides the file)', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(root, '.env'), 'API_TOKEN=do-not-leak\n');
    projectConfig(root, { deny: ['Read(./.env)'] });
    server.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: '.env' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'cat .env; grep -r TOKEN .' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'read the env', '--auto'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const [viaTool, viaBash] = toolResults();
    expect(viaTool).toMatch(/denied by a project rule: Read\(\.\/\.env\)/);
    expect(viaBash).not.toContain('do-not-leak');
    expect(readFileSync(join(root, '.env'), 'utf8')).toContain('do-not-leak');
  });

  it.skipIf(!hasSandbox)('user rules apply without trust; deny beats allow; `permissions check` names the deciding rule and its file', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test:*)', 'Bash(git push:*)'], deny: ['Bash(git push --force:*)'] } }));
    const allowed = await runSeek(['permissions', 'check', 'Bash', 'npm test -- --run'], { cwd: root, env: env(home) });
    expect(allowed.stdout).toMatch(/decision: allow \(in the workspace-write sandbox\)/);
    expect(allowed.stdout).toMatch(/rule: Bash\(npm test:\*\) from user \(.*config\.json\)/);
    const denied = await runSeek(['permissions', 'check', 'bash', 'git push --force origin main'], { cwd: root, env: env(home) });
    expect(denied.stdout).toMatch(/decision: deny\nrule: Bash\(git push --force:\*\)/);
    const asked = await runSeek(['permissions', 'check', 'Edit', 'src/a.ts', '--mode', 'ask'], { cwd: root, env: env(home) });
    expect(asked.stdout).toMatch(/decision: ask/);
    expect(asked.stdout).toMatch(/"always" would add edit_file\(src\/\*\*\)/);
  });

  it('a config file that does not parse stops seek with exit 2 before any model call', async () => {
    const { root, home } = makeProject();
    projectConfig(root, { deny: ['Raed(./.env)'] });
    const run = await runSeek(['-p', 'hi'], { cwd: root, env: env(home) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\.seek\/config\.json: permissions\.deny: "Raed\(\.\/\.env\)": unknown tool Raed/);
    expect(server.requests).toHaveLength(0);
  });
});
