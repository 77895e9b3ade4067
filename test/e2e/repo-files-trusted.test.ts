/**
 * What a repository brings (custom commands, skills, subagent definitions, project instructions,
 * a command's @file mentions) is read only from inside the project, through the real seek process
 * against the scripted model server: a file that is a link to /proc/self/environ, to a secret in
 * the user's home or to another project's file is refused with a notice naming it, and nothing of
 * it reaches the model (issue 33, item 3).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();

const ENV_SECRET = 'ghp_ENVIRONSECRET0123456789';
const HOME_SECRET = 'aws_secret_access_key=HOMESECRET0123456789';
const OTHER_SECRET = 'OTHER-PROJECT-PRIVATE-PROMPT-42';

/** A user home with ~/.aws/credentials, and another project with its own command and skill. */
function fixtures(): { userHome: string; credentials: string; other: string } {
  const userHome = tempDir('seek-user-home-');
  mkdirSync(join(userHome, '.aws'));
  const credentials = join(userHome, '.aws', 'credentials');
  writeFileSync(credentials, `[default]\n${HOME_SECRET}\n`);
  const other = tempDir('seek-other-project-');
  put(join(other, '.seek/commands/deploy.md'), `${OTHER_SECRET}: deploy everything\n`);
  put(join(other, '.seek/skills/release/SKILL.md'), `---\nname: release\ndescription: ${OTHER_SECRET}\n---\n${OTHER_SECRET}\n`);
  return { userHome, credentials, other };
}

function put(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function link(target: string, path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  symlinkSync(target, path);
}

function env(home: string, userHome: string): Record<string, string> {
  return { ...suite.env(home), HOME: userHome, GITHUB_TOKEN: ENV_SECRET, SEEK_MAX_RETRIES: '0' };
}

/** Everything any request carried to the model. */
const sent = (): string => suite.server.requests.map((request) => request.raw).join('\n');

describe('files a repository brings are read only inside the project', () => {
  it('a command linked to /proc/self/environ is refused: /review fails naming the file, nothing is sent', async () => {
    const { root, home } = makeProject();
    const { userHome } = fixtures();
    const command = join(root, '.claude/commands/review.md');
    link('/proc/self/environ', command);
    suite.server.enqueue({ text: 'reviewed' });
    const run = await runSeek(['-p', '/review'], { cwd: root, env: env(home, userHome) });
    expect(sent()).not.toContain(ENV_SECRET);
    expect(suite.server.requests).toHaveLength(0);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`command ${command}: refused: it links to /proc/`);
    expect(run.stderr).toContain('files under /proc, /sys and /dev are never read');
    expect(run.stderr).toContain('/review was not run');
    expect(run.stdout + run.stderr).not.toContain(ENV_SECRET);
  });

  it('a command linked to a home secret or to another project is refused; the rest of the session goes on', async () => {
    const { root, home } = makeProject();
    const { userHome, credentials, other } = fixtures();
    const lint = join(root, '.seek/commands/lint.md');
    const deploy = join(root, '.seek/commands/deploy.md');
    link(credentials, lint);
    link(join(other, '.seek/commands/deploy.md'), deploy);

    const refused = await runSeek(['-p', '/lint'], { cwd: root, env: env(home, userHome) });
    expect(sent()).not.toContain('HOMESECRET');
    expect(suite.server.requests).toHaveLength(0);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(`command ${lint}: refused: it links to ${credentials}, outside the project (${root})`);
    expect(refused.stderr).toContain(`command ${deploy}: refused: it links to ${join(other, '.seek/commands/deploy.md')}, outside the project (${root})`);
    expect(refused.stdout + refused.stderr).not.toContain('HOMESECRET');

    suite.server.enqueue({ text: 'ok' });
    const plain = await runSeek(['-p', 'hello'], { cwd: root, env: env(home, userHome) });
    expect(plain.code, plain.stderr).toBe(0);
    expect(suite.server.requests).toHaveLength(1);
    expect(sent()).not.toContain('HOMESECRET');
    expect(sent()).not.toContain(OTHER_SECRET);
  });

  it('skills, subagent definitions and AGENTS.md linked out of the project are not loaded and never reach the model', async () => {
    const { root, home } = makeProject();
    const { userHome, credentials, other } = fixtures();
    const skill = join(root, '.claude/skills/release/SKILL.md');
    const agent = join(root, '.seek/agents/reviewer.md');
    const instructions = join(root, 'AGENTS.md');
    link(join(other, '.seek/skills/release/SKILL.md'), skill);
    link(credentials, agent);
    link('/proc/self/environ', instructions);
    // A skill folder linked as a whole to the other project's is refused the same way.
    link(join(other, '.seek/skills/release'), join(root, '.seek/skills/shipit'));
    suite.server.enqueue({ text: 'done' });
    const run = await runSeek(['-p', 'cut a release'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(sent()).not.toContain(ENV_SECRET);
    expect(sent()).not.toContain(OTHER_SECRET);
    expect(run.stderr).toContain(`skill ${skill}: refused: it links to ${join(other, '.seek/skills/release/SKILL.md')}, outside the project (${root})`);
    expect(run.stderr).toContain(`skill ${join(root, '.seek/skills/shipit/SKILL.md')}: refused`);
    expect(run.stderr).toContain(`subagent definition ${agent}: refused: it links to ${credentials}, outside the project (${root})`);
    expect(run.stderr).toContain(`project instructions ${instructions}: refused: it links to /proc/`);
    const all = sent();
    expect(all).not.toContain(OTHER_SECRET);
    expect(all).not.toContain('HOMESECRET');
    expect(all).not.toContain(ENV_SECRET);
    expect(all).not.toContain('# Project instructions');
    // No skill was installed: the catalog offers none.
    expect(suite.server.requests[0]!.raw).not.toContain('load one when a task fits');
  });

  it("a command's @file linked to a home secret is not read, even under --yolo: nothing is sent", async () => {
    const { root, home } = makeProject();
    const { userHome, credentials } = fixtures();
    put(join(root, '.seek/commands/ctx.md'), 'Summarise @notes.txt and @README.md\n');
    link(credentials, join(root, 'notes.txt'));
    suite.server.enqueue({ text: 'summary' });
    const run = await runSeek(['-p', '/ctx', '--yolo'], { cwd: root, env: env(home, userHome) });
    expect(sent()).not.toContain('HOMESECRET');
    expect(suite.server.requests).toHaveLength(0);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`/ctx: @notes.txt was not read: it links to ${credentials}, outside the project (${root})`);
    expect(run.stdout + run.stderr).not.toContain('HOMESECRET');
  });

  it('files inside the project, links within it included, still load', async () => {
    const { root, home } = makeProject();
    const { userHome } = fixtures();
    put(join(root, 'docs/review-prompt.md'), 'Review the diff carefully, INSIDE-MARKER.\n');
    link(join(root, 'docs/review-prompt.md'), join(root, '.claude/commands/review.md'));
    suite.server.enqueue({ text: 'reviewed' });
    const run = await runSeek(['-p', '/review'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('refused');
    expect(sent()).toContain('INSIDE-MARKER');
  });

  it('rules, MCP and hooks files linked out of the project are refused without quoting what they point at', async () => {
    const { root, home } = makeProject();
    const { userHome, credentials, other } = fixtures();
    // The rules file: seek stops (exit 2) rather than run without it, naming the file and the link.
    const rules = join(root, '.seek/config.json');
    link('/proc/self/environ', rules);
    const stopped = await runSeek(['-p', 'hello'], { cwd: root, env: env(home, userHome) });
    expect(stopped.code, stopped.stderr).toBe(2);
    expect(stopped.stderr).toContain(`${rules} links to /proc/`);
    expect(stopped.stdout + stopped.stderr).not.toContain(ENV_SECRET);
    expect(suite.server.requests).toHaveLength(0);

    // .mcp.json: its servers are ignored, the session goes on.
    rmSync(rules);
    put(join(other, 'mcp.json'), JSON.stringify({ mcpServers: { [OTHER_SECRET.toLowerCase()]: { command: 'node', args: ['x.js'] } } }));
    link(join(other, 'mcp.json'), join(root, '.mcp.json'));
    link(credentials, join(root, '.seek/mcp.json'));
    suite.server.enqueue({ text: 'ok' });
    const run = await runSeek(['-p', 'hello'], { cwd: root, env: env(home, userHome) });
    expect(run.stderr).toContain(`${join(root, '.mcp.json')} links to ${join(other, 'mcp.json')}, outside the project (${root}); its MCP servers are ignored`);
    expect(run.stderr).toContain(`${join(root, '.seek/mcp.json')} links to ${credentials}, outside the project (${root})`);
    expect(run.code, run.stderr).toBe(0);
    const printed = run.stdout + run.stderr;
    expect(printed).not.toContain(ENV_SECRET);
    expect(printed).not.toContain('HOMESECRET');
    expect(printed.toLowerCase()).not.toContain(OTHER_SECRET.toLowerCase());
    expect(sent()).not.toContain('HOMESECRET');
    expect(sent()).not.toContain(ENV_SECRET);

    // hooks.toml: seek stops rather than run without its hooks, naming the file and the link.
    const hooks = join(root, '.seek/hooks.toml');
    link('/proc/self/environ', hooks);
    const noHooks = await runSeek(['-p', 'hello'], { cwd: root, env: env(home, userHome) });
    expect(noHooks.code, noHooks.stderr).not.toBe(0);
    expect(noHooks.stderr).toContain(`${hooks} links to /proc/`);
    expect(noHooks.stdout + noHooks.stderr).not.toContain(ENV_SECRET);
    expect(suite.server.requests).toHaveLength(1);
  });
});
