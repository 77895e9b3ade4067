/**
 * Claude Code's commands and skills, unchanged, through the real seek process (issue 37): the
 * files below have the shapes Claude Code documents (its `/commit` example with its exact
 * allowed-tools, a command in a subfolder, a skill run as `/name`), and slash commands headless.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasSandbox } from '../support/sandbox.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** HOME is a temp dir: the developer's own ~/.claude never takes part. */
function env(home: string, userHome: string) {
  return { SEEK_HOME: home, HOME: userHome, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1' };
}

function put(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type WireMessage = any;
const messages = (n: number): WireMessage[] => suite.server.requests[n]!.body.messages;
const toolResults = (n: number): string[] => messages(n).filter((m: WireMessage) => m.role === 'tool').map((m: WireMessage) => m.content as string);
const lastUser = (n: number): string => messages(n).filter((m: WireMessage) => m.role === 'user').at(-1).content as string;
const git = (root: string, ...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

/** Claude Code's documented /commit command, as its users have it in .claude/commands/commit.md. */
const COMMIT_COMMAND = `---
allowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)
description: Create a git commit
---

## Context

- Current git status: !\`git status\`
- Current git diff (staged and unstaged changes): !\`git diff HEAD\`
- Current branch: !\`git branch --show-current\`
- Recent commits: !\`git log --oneline -10\`

## Your task

Based on the above changes, create a single git commit.
`;

describe("Claude Code's allowed-tools: what a command lists runs without asking while it runs", () => {
  it.skipIf(!hasSandbox)('commits headless with /commit in a trusted project, and not in an untrusted one', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    git(root, 'config', 'user.name', 'Tester');
    git(root, 'config', 'user.email', 'tester@example.com');
    put(join(root, '.claude/commands/commit.md'), COMMIT_COMMAND);
    git(root, 'add', '.claude');
    git(root, 'commit', '-qm', 'add the commit command');
    writeFileSync(join(root, 'README.md'), '# demo\n\nA second line.\n');
    const commit = { name: 'bash', arguments: { command: 'git add README.md && git commit -m "docs: a second line"' } };

    // Untrusted: the command's file comes with the repository, so its list grants nothing.
    suite.server.enqueue({ toolCalls: [commit] }, { text: 'could not commit' });
    const untrusted = await runSeek(['-p', '/commit'], { cwd: root, env: env(home, userHome) });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(lastUser(0)).toContain('- Current branch: main');
    expect(lastUser(0)).toContain('+A second line.');
    expect(toolResults(1)[0]).toMatch(/not allowed in this mode/);
    expect(untrusted.stderr).toContain('its allowed-tools (Bash(git add:*), Bash(git status:*), Bash(git commit:*)) are not pre-approved');
    expect(untrusted.stderr).toContain('seek permissions trust');
    expect(git(root, 'log', '--format=%s')).not.toContain('docs: a second line');

    const trust = await runSeek(['permissions', 'trust'], { cwd: root, env: env(home, userHome) });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain('trusted: /commit');
    expect(trust.stdout).toContain('Bash(git add:*), Bash(git status:*), Bash(git commit:*)');

    suite.server.reset();
    suite.server.enqueue({ toolCalls: [commit] }, { text: 'committed' });
    const trusted = await runSeek(['-p', '/commit'], { cwd: root, env: env(home, userHome) });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(toolResults(1)[0]).not.toMatch(/not allowed/);
    expect(git(root, 'log', '-1', '--format=%s')).toBe('docs: a second line\n');

    // Only for that command's turn: an ordinary prompt asking for the same is denied again.
    writeFileSync(join(root, 'README.md'), '# demo\n\nA third line.\n');
    suite.server.reset();
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'git commit -am "docs: a third line"' } }] }, { text: 'no' });
    const plain = await runSeek(['-p', 'commit this'], { cwd: root, env: env(home, userHome) });
    expect(plain.code, plain.stderr).toBe(0);
    expect(toolResults(1)[0]).toMatch(/not allowed in this mode/);
    expect(git(root, 'log', '-1', '--format=%s')).toBe('docs: a second line\n');

    // A changed list is not trusted until trusted again.
    put(join(root, '.claude/commands/commit.md'), COMMIT_COMMAND.replace('Bash(git commit:*)', 'Bash(git commit:*), Bash(git push:*)'));
    suite.server.reset();
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'git commit -am "docs: a third line"' } }] }, { text: 'no' });
    const changed = await runSeek(['-p', '/commit'], { cwd: root, env: env(home, userHome) });
    expect(changed.stderr).toContain('are not pre-approved');
    expect(git(root, 'log', '-1', '--format=%s')).toBe('docs: a second line\n');
  });

  it.skipIf(!hasSandbox)("never past a config file's deny or ask rule; a user-level command's list applies at once", async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(userHome, '.claude/commands/stamp.md'), '---\nallowed-tools: Bash(touch:*)\n---\nStamp the files $ARGUMENTS.\n');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Bash(touch denied*)'], ask: ['Bash(touch asked*)'] } }));
    suite.server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: 'touch stamped' } }, { name: 'bash', arguments: { command: 'touch denied' } }, { name: 'bash', arguments: { command: 'touch asked' } }] },
      { text: 'stamped' },
    );
    const run = await runSeek(['-p', '/stamp three'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(lastUser(0)).toBe('Stamp the files three.');
    const [stamped, denied, asked] = toolResults(1);
    expect(stamped).not.toMatch(/denied|not allowed|approval/);
    expect(denied).toMatch(/denied by a user rule/);
    expect(asked).toMatch(/needs a person's approval: it matches the ask rule Bash\(touch asked\*\)/);
    expect(existsSync(join(root, 'stamped'))).toBe(true);
    expect(existsSync(join(root, 'denied'))).toBe(false);
    expect(existsSync(join(root, 'asked'))).toBe(false);
  });
});

describe('command names and skills as /name, as in Claude Code', () => {
  it('runs /code-review 42 from review/code-review.md: $1, $ARGUMENTS, !`cmd`, @file; the folder shows in /help', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n', 'CONTRIBUTING.md': 'Small commits, tests first.\n' });
    const userHome = tempDir('seek-user-home-');
    put(
      join(root, '.claude/commands/review/code-review.md'),
      '---\ndescription: Review a pull request\nargument-hint: [pr-number]\nallowed-tools: Bash(git log:*), Read\n---\nReview pull request #$1 (arguments: $ARGUMENTS).\nLast commit: !`git log --format=%s -1`\nFollow @CONTRIBUTING.md\n',
    );
    suite.server.enqueue({ text: 'reviewed 42' });
    const run = await runSeek(['-p', '/code-review 42'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('reviewed 42\n');
    expect(lastUser(0)).toBe('Review pull request #42 (arguments: 42).\nLast commit: init\nFollow @CONTRIBUTING.md\n\n<file path="CONTRIBUTING.md">\nSmall commits, tests first.\n</file>');

    const help = await runSeek(['-p', '/help'], { cwd: root, env: env(home, userHome) });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/\/code-review \[pr-number\]\s+Review a pull request \(project:review\)/);
    expect(suite.server.requests).toHaveLength(1);
  });

  it('runs a skill as /pdf with its arguments, and its allowed-tools grant (a user skill: at once)', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    const skill = put(
      join(userHome, '.claude/skills/pdf/SKILL.md'),
      '---\nname: pdf\ndescription: Extract text and tables from PDF files. Use when the user names a PDF.\nargument-hint: <file>\nallowed-tools: Read, Bash(touch:*)\n---\n# PDF\nExtract the text of $ARGUMENTS with the script in this folder.\n',
    );
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch extracted.txt' } }] }, { text: 'extracted' });
    const run = await runSeek(['-p', '/pdf report.pdf'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(lastUser(0)).toBe(`<skill name="pdf" dir="${join(skill, '..')}">\n# PDF\nExtract the text of report.pdf with the script in this folder.\n</skill>`);
    if (hasSandbox) expect(existsSync(join(root, 'extracted.txt'))).toBe(true);
  });
});

describe('slash commands headless', () => {
  it('exits 2 on an unknown /word with the nearest name, sends nothing; paths and // stay prompts', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.claude/commands/review/code-review.md'), '---\ndescription: Review a pull request\n---\nReview $ARGUMENTS\n');
    const typo = await runSeek(['-p', '/code-reviw 42'], { cwd: root, env: env(home, userHome) });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command /code-reviw. Did you mean /code-review?');
    const unknown = await runSeek(['-p', '/unknown'], { cwd: root, env: env(home, userHome) });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command /unknown.');
    expect(unknown.stderr).toContain('//unknown');
    const interactive = await runSeek(['-p', '/model'], { cwd: root, env: env(home, userHome) });
    expect(interactive.code).toBe(2);
    expect(interactive.stderr).toContain('use --model NAME');
    expect(suite.server.requests).toHaveLength(0);

    suite.server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const path = await runSeek(['-p', '/usr/bin/foo is broken'], { cwd: root, env: env(home, userHome) });
    expect(path.code, path.stderr).toBe(0);
    expect(lastUser(0)).toBe('/usr/bin/foo is broken');
    const literal = await runSeek(['-p', '//unknown is a word'], { cwd: root, env: env(home, userHome) });
    expect(literal.code, literal.stderr).toBe(0);
    expect(lastUser(1)).toBe('/unknown is a word');
    const existing = await runSeek(['-p', '/tmp is full'], { cwd: root, env: env(home, userHome) });
    expect(existing.code, existing.stderr).toBe(0);
    expect(lastUser(2)).toBe('/tmp is full');
  });

  it('answers /help, /cost and /skills without the model, in every output format', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.seek/commands/ship.md'), '---\ndescription: Ship it\n---\nShip.\n');
    put(join(root, '.seek/skills/tidy/SKILL.md'), '---\nname: tidy\ndescription: Tidy the imports\n---\nTidy.\n');
    const help = await runSeek(['-p', '/help'], { cwd: root, env: env(home, userHome) });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/\/help\s+the slash commands/);
    expect(help.stdout).toMatch(/\/compact \[FOCUS\]/);
    expect(help.stdout).toMatch(/\/ship\s+Ship it/);
    expect(help.stdout).toMatch(/\/tidy\s+Tidy the imports \(skill\)/);
    const json = await runSeek(['-p', '/cost', '--output-format', 'json'], { cwd: root, env: env(home, userHome) });
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as { subtype: string; result: string; num_turns: number };
    expect(result).toMatchObject({ subtype: 'success', num_turns: 0 });
    expect(result.result).toMatch(/in \(\d+% cache hits\)/);
    const skills = await runSeek(['-p', '/skills'], { cwd: root, env: env(home, userHome) });
    expect(skills.stdout).toContain('tidy  Tidy the imports');
    expect(suite.server.requests).toHaveLength(0);
  });

  it("runs an MCP server's prompt headless; a missing argument exits 2", async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    suite.server.enqueue({ text: 'Sunny in Lisbon.' });
    const run = await runSeek(['-p', '/mcp__everything__args-prompt city=Lisbon'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Sunny in Lisbon.\n');
    expect(lastUser(0)).toBe("What's weather in Lisbon?");
    const missing = await runSeek(['-p', '/mcp__everything__args-prompt'], { cwd: root, env: env(home, userHome) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/mcp__everything__args-prompt needs city');
    expect(suite.server.requests).toHaveLength(1);
  });
});
