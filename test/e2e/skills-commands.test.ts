import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();

/** A DeepSeek run against the scripted server; HOME is a temp dir, so the developer's own
 * ~/.claude/skills and ~/.claude/commands never take part. */
function env(home: string, userHome: string) {
  return { SEEK_HOME: home, HOME: userHome, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: suite.server.url, SEEK_RETRY_BASE_MS: '1' };
}

function put(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type WireMessage = any;
const messages = (n: number): WireMessage[] => suite.server.requests[n]!.body.messages;
const toolResults = (n: number): string[] => messages(n).filter((m: WireMessage) => m.role === 'tool').map((m: WireMessage) => m.content as string);
const lastUser = (n: number): string => messages(n).filter((m: WireMessage) => m.role === 'user').at(-1).content as string;
const toolNames = (n: number): string[] => suite.server.requests[n]!.body.tools.map((tool: WireMessage) => tool.function.name);

const SKILL_BODY_MARKER = 'STEP-BY-STEP-RELEASE-CHECKLIST';

/** Twenty skills and twenty commands with realistic names and descriptions, half in the project
 * (.seek and .claude) and half for the user (~/.seek via SEEK_HOME, ~/.claude via HOME). */
function installMany(root: string, home: string, userHome: string): void {
  const topics = ['release', 'changelog', 'migrations', 'api-docs', 'perf-profiling', 'security-review', 'i18n', 'accessibility', 'flaky-tests', 'dependency-upgrade'];
  topics.forEach((topic, i) => {
    const description = `Use when the task involves ${topic.replace('-', ' ')}: explains the project's conventions, the commands to run, the checks to pass and the mistakes to avoid.`;
    put(join(i % 2 ? join(root, '.claude') : join(root, '.seek'), 'skills', topic, 'SKILL.md'), `---\nname: ${topic}\ndescription: "${description}"\n---\n# ${topic}\n${SKILL_BODY_MARKER} ${'Do this carefully. '.repeat(40)}\n`);
    put(join(i % 2 ? join(userHome, '.claude') : home, 'skills', `${topic}-user`, 'SKILL.md'), `---\nname: ${topic}-user\ndescription: "${description}"\n---\nUser body.\n`);
    put(join(root, '.seek', 'commands', `${topic}.md`), `---\ndescription: Run the ${topic} routine\nargument-hint: "[target]"\n---\nDo the ${topic} routine for $ARGUMENTS.\n`);
    put(join(i % 2 ? join(userHome, '.claude') : home, 'commands', 'team', `${topic}.md`), `Team ${topic} routine for $1.\n`);
  });
}

describe('skills through the real seek', () => {
  it('costs the first request under 1 KB with 20 skills and 20 commands, and loads a body only on demand', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    // Baseline: nothing installed.
    suite.server.enqueue({ text: 'ok' });
    const bare = await runSeek(['-p', 'hello'], { cwd: root, env: env(home, userHome) });
    expect(bare.code, bare.stderr).toBe(0);
    const baseline = suite.server.requests[0]!.raw.length;
    expect(toolNames(0)).not.toContain('skill');
    expect(suite.server.requests[0]!.raw).not.toContain('skill');

    installMany(root, home, userHome);
    suite.server.reset();
    suite.server.enqueue({ toolCalls: [{ name: 'skill', arguments: { name: 'release' } }] }, { text: 'done' });
    const run = await runSeek(['-p', 'hello'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/^seek: skill /m); // every skill loaded, no notices about one
    // The commands named like skills are reported, naming both files (skills win, as in Claude Code).
    expect(run.stderr).toMatch(/commands\/release\.md: \/release is the skill .*release\/SKILL\.md, which wins/);
    const delta = suite.server.requests[0]!.raw.length - baseline;
    console.log(`first-request bytes: ${baseline} without skills, ${baseline + delta} with 20 skills and 20 commands (+${delta})`);
    expect(delta).toBeGreaterThan(0);
    expect(delta).toBeLessThan(1024);

    // The catalog names every skill; no body is in the first request; commands cost nothing.
    const first = suite.server.requests[0]!.raw;
    // skill is loaded on demand: the catalog of tools (tool_search) names it and every skill.
    const searchTool = suite.server.requests[0]!.body.tools.find((tool: WireMessage) => tool.function.name === 'tool_search');
    expect(searchTool.function.description).toMatch(/\bskill \(skills, load one when a task fits: .*\brelease: /);
    for (const name of ['release', 'changelog', 'i18n-user', 'dependency-upgrade-user']) expect(first).toContain(name);
    expect(first).not.toContain(SKILL_BODY_MARKER);
    expect(first).not.toContain('routine');
    // After the model loads the skill, its body is in the next request; tools and system prompt
    // are byte-identical (the catalog was computed once).
    expect(suite.server.requests[1]!.raw).toContain(SKILL_BODY_MARKER);
    expect(toolResults(1)[0]).toContain(`<skill name="release" dir="${join(root, '.seek', 'skills', 'release')}">`);
    expect(JSON.stringify(suite.server.requests[1]!.body.tools)).toBe(JSON.stringify(suite.server.requests[0]!.body.tools));
    expect(messages(1)[0]).toEqual(messages(0)[0]);
  });

  it('lists the other files of a skill folder for read_file, and lists every skill for an unknown name', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.claude/skills/pdf/SKILL.md'), '---\nname: pdf\ndescription: Fill PDF forms\n---\nRead reference.md first.\n');
    put(join(root, '.claude/skills/pdf/reference.md'), 'the reference');
    put(join(root, '.claude/skills/pdf/scripts/fill.py'), 'print(1)');
    suite.server.enqueue(
      { toolCalls: [{ name: 'skill', arguments: { name: 'pdf' } }, { name: 'skill', arguments: { name: 'nope' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: join(root, '.claude/skills/pdf/reference.md') } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'fill the form'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    const [loaded, unknown] = toolResults(1);
    expect(loaded).toContain('Read reference.md first.');
    expect(loaded).toMatch(/read_file[^\n]*:\nreference\.md\nscripts\/fill\.py$/);
    expect(unknown).toBe('No skill named "nope". The installed skills:\n- pdf: Fill PDF forms');
    expect(toolResults(2).at(-1)).toContain('the reference');
  });

  it("reads a user-level skill and its files without asking, even headless; a deny rule still holds", async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(userHome, '.claude/skills/notes/SKILL.md'), '---\nname: notes\ndescription: Keep notes\n---\nNOTES-BODY\n');
    put(join(userHome, '.claude/skills/notes/style.md'), 'STYLE-GUIDE\n');
    const script = () =>
      suite.server.enqueue(
        { toolCalls: [{ name: 'skill', arguments: { name: 'notes' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: join(userHome, '.claude/skills/notes/style.md') } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: join(userHome, '.bashrc') } }] },
        { text: 'ok' },
      );
    script();
    const run = await runSeek(['-p', 'take notes'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(1)[0]).toContain('NOTES-BODY');
    expect(toolResults(2).at(-1)).toContain('STYLE-GUIDE');
    // Only the skill folders: another file outside the project is still refused headless.
    expect(toolResults(3).at(-1)).toMatch(/not allowed in this mode/);

    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Read(~/.claude/skills/**)'] } }));
    suite.server.reset();
    script();
    const denied = await runSeek(['-p', 'take notes'], { cwd: root, env: env(home, userHome) });
    expect(denied.code, denied.stderr).toBe(0);
    expect(toolResults(1)[0]).toMatch(/denied by a user rule/);
    expect(suite.server.requests[1]!.raw).not.toContain('NOTES-BODY');
  });

  it("narrows the turn's tools to a skill's allowed-tools, even under --yolo, and only for that turn", async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.seek/skills/inspect/SKILL.md'), '---\nname: inspect\ndescription: Look, never touch\nallowed-tools: Read, Grep\n---\nOnly look.\n');
    suite.server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo before' } }] },
      { toolCalls: [{ name: 'skill', arguments: { name: 'inspect' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'touch touched' } }, { name: 'read_file', arguments: { path: 'README.md' } }] },
      { text: 'looked' },
    );
    const run = await runSeek(['-p', 'inspect', '--yolo'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(1)[0]).toContain('before'); // no limit before the skill is loaded
    expect(toolResults(2)[1]).toContain('only these tools run: read_file, grep');
    const [bash, read] = toolResults(3).slice(2);
    expect(bash).toMatch(/^bash is refused: skill "inspect" allows only read_file, grep while it is active/);
    expect(read).toContain('# demo');
    expect(existsSync(join(root, 'touched'))).toBe(false);

    // The next prompt starts without the limit.
    suite.server.reset();
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch touched' } }] }, { text: 'ok' });
    const next = await runSeek(['-p', 'touch it', '--yolo', '--continue'], { cwd: root, env: env(home, userHome) });
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(join(root, 'touched'))).toBe(true);
  });
});

describe('custom commands through the real seek', () => {
  it('runs `seek -p "/name args"`: arguments substituted, @file included', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.claude/commands/frontend/review.md'), '---\ndescription: Review one file\nargument-hint: "<file> [focus]"\n---\nReview @$1 with a focus on $2.\nAll arguments: $ARGUMENTS\n');
    suite.server.enqueue({ text: 'reviewed' });
    const run = await runSeek(['-p', '/frontend:review src/a.ts "error handling"'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('reviewed');
    expect(lastUser(0)).toBe('Review @src/a.ts with a focus on error handling.\nAll arguments: src/a.ts "error handling"\n\n<file path="src/a.ts">\nexport const a = 1;\n</file>');
  });

  it('refuses !`cmd` headless without approval: clear message, exit 1, no request, nothing run', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(home, 'commands/ctx.md'), 'Context: !`touch made-by-command && echo shell-says-hi`\nNow go.\n');
    const run = await runSeek(['-p', '/ctx'], { cwd: root, env: env(home, userHome) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('/ctx: !`touch made-by-command && echo shell-says-hi` was not run:');
    expect(run.stderr).toContain('--yolo');
    expect(suite.server.requests).toHaveLength(0);
    expect(existsSync(join(root, 'made-by-command'))).toBe(false);

    // Allowed (--yolo here), the output takes the directive's place.
    suite.server.enqueue({ text: 'ok' });
    const allowed = await runSeek(['-p', '/ctx', '--yolo'], { cwd: root, env: env(home, userHome) });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(lastUser(0)).toBe('Context: shell-says-hi\nNow go.');
    expect(existsSync(join(root, 'made-by-command'))).toBe(true);
  });

  it("limits the command's turn to its allowed-tools and runs it on its model", async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.seek/commands/look.md'), '---\nallowed-tools: [Read]\nmodel: deepseek-v4-pro\n---\nLook at $ARGUMENTS only.\n');
    suite.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'no' } }] }, { text: 'ok' });
    const run = await runSeek(['-p', '/look README.md', '--yolo'], { cwd: root, env: env(home, userHome) });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(1)[0]).toMatch(/^write_file is refused: command \/look allows only read_file/);
    // The command's model for its turn (the session's own is the flash model by default).
    expect(suite.server.requests.map((request) => request.body.model)).toEqual(['deepseek-v4-pro', 'deepseek-v4-pro']);
    expect(existsSync(join(root, 'x.txt'))).toBe(false);
  });
});

describe('skills and commands in the plain line mode', () => {
  it('lists them in /help and /skills, and asks before a command\'s !`cmd` runs', async () => {
    const { root, home } = makeProject();
    const userHome = tempDir('seek-user-home-');
    put(join(root, '.seek/skills/tidy/SKILL.md'), '---\nname: tidy\ndescription: Tidy the imports\nallowed-tools: Read\n---\nTidy.\n');
    put(join(root, '.seek/commands/ctx.md'), '---\ndescription: Status for the model\n---\nStatus: !`touch approved-run && echo approved-output`\n');
    suite.server.enqueue({ text: 'got the status' });
    const run = await runSeek([], { cwd: root, env: env(home, userHome), input: '/help\n/skills\n/ctx\ny\n/exit\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Custom commands\n\s+\/ctx\s+Status for the model/);
    expect(run.stdout).toContain('Skills (1; the model loads one with the skill tool when a task fits):\n  tidy  Tidy the imports');
    expect(run.stdout).toContain('allowed-tools: read_file');
    expect(run.stdout).toContain('got the status');
    expect(lastUser(0)).toBe('Status: approved-output');
    expect(existsSync(join(root, 'approved-run'))).toBe(true);
  });
});
