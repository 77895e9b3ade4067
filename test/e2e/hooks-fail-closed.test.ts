import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

// Hooks fail closed (the real seek process against the scripted model server): an unusable hooks
// file stops seek with exit status 2 before any request; a trusted hook's script that changes is
// not run until trusted again.
const suite = useScriptedServer();

function sessionFiles(home: string): string[] {
  const projects = join(home, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl') && f.includes('sessions'));
}

function writeProjectHooks(root: string, toml: string): void {
  mkdirSync(join(root, '.seek'), { recursive: true });
  writeFileSync(join(root, '.seek', 'hooks.toml'), toml);
}

function writeGuard(root: string, body: string): void {
  mkdirSync(join(root, 'scripts'), { recursive: true });
  writeFileSync(join(root, 'scripts', 'guard.sh'), `#!/bin/bash\n${body}\n`);
  chmodSync(join(root, 'scripts', 'guard.sh'), 0o755);
}

/** The tool results the model was sent, in order. */
function toolResults(): string[] {
  return suite.server.requests.flatMap((r) => r.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content)).filter((c, i, all) => all.indexOf(c) === i);
}

describe('a hooks file that cannot be used stops seek (exit 2, no request)', () => {
  it('headless: a user hooks.toml with a TOML error names file:line:column and the error', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'hooks.toml'), '# guard\n[[pre_tool]\nname = "g"\ncommand = "exit 1"\n');
    suite.server.enqueue({ text: 'should never be asked' });
    const run = await runSeek(['-p', 'hello', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${home}/hooks.toml:2:12: invalid TOML: expected end of table array declaration`);
    expect(run.stderr).toContain('seek stops rather than run without its hooks');
    expect(run.stdout).toBe('');
    expect(suite.server.requests).toHaveLength(0);
    expect(sessionFiles(home)).toEqual([]);
  });

  it('interactive (plain line mode): a project hooks.toml that does not validate stops it the same way', async () => {
    const { root, home } = makeProject();
    writeProjectHooks(root, '[[pre_tool]]\nname = "g"\ncommand = "exit 1"\ntimeout = 5\n');
    suite.server.enqueue({ text: 'should never be asked' });
    const run = await runSeek([], { cwd: root, env: suite.env(home), input: 'hello\n/exit\n' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${root}/.seek/hooks.toml:4:1: pre_tool[0]: unknown field timeout`);
    expect(suite.server.requests).toHaveLength(0);
    expect(sessionFiles(home)).toEqual([]);
  });

  it('a matcher naming an unknown tool is an error naming the known tools, for seek -p and seek hooks list|check', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'hooks.toml'), '[[pre_tool]]\nname = "g"\ncommand = "exit 1"\nmatch = { tool = "Bash|Write|NotebookEdit" }\n');
    suite.server.enqueue({ text: 'should never be asked' });
    const run = await runSeek(['-p', 'hello'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${home}/hooks.toml:4:11: pre_tool[0].match.tool: unknown tool "NotebookEdit". Known tools: `);
    expect(run.stderr).toMatch(/Known tools: [a-z_, ]*\bbash\b[a-z_, ]*\bwrite_file\b/);
    expect(suite.server.requests).toHaveLength(0);

    for (const sub of ['list', 'check']) {
      const hooks = await runSeek(['hooks', sub], { cwd: root, env: suite.env(home) });
      expect(hooks.code, sub).toBe(2);
      expect(hooks.stderr, sub).toContain('unknown tool "NotebookEdit"');
    }

    // Claude Code names are fine: the same file with known names runs.
    writeFileSync(join(home, 'hooks.toml'), '[[pre_tool]]\nname = "g"\ncommand = "exit 0"\nmatch = { tool = "Bash|Write" }\n');
    suite.server.reset();
    suite.server.enqueue({ text: 'fine' });
    const ok = await runSeek(['-p', 'hello'], { cwd: root, env: suite.env(home) });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('fine\n');
  });
});

describe('trusting project hooks covers the scripts they run', () => {
  const HOOKS = '[[pre_tool]]\nname = "guard"\ncommand = "./scripts/guard.sh"\nmatch = { tool = "Bash" }\n';
  const bashThenDone = (command: string) => suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' });
  const runs = (root: string) => (existsSync(join(root, 'guard-runs.txt')) ? readFileSync(join(root, 'guard-runs.txt'), 'utf8') : '');

  it('a trusted hook whose script changes is not run until trusted again', async () => {
    const { root, home } = makeProject();
    writeProjectHooks(root, HOOKS);
    writeGuard(root, 'echo v1 >> guard-runs.txt; exit 0');
    const trust = await runSeek(['hooks', 'trust'], { cwd: root, env: suite.env(home) });
    expect(trust.code).toBe(0);
    expect(trust.stdout).toMatch(/ {2}scripts\/guard\.sh \(sha256 [0-9a-f]{12}…\)/);

    bashThenDone('echo first');
    expect((await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) })).code).toBe(0);
    expect(runs(root)).toBe('v1\n');

    // The script changes: it would now deny every call and leave a mark. It must not run.
    writeGuard(root, 'echo v2 >> guard-runs.txt; echo "blocked by v2"; exit 1');
    suite.server.reset();
    bashThenDone('echo second');
    const changed = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(changed.code).toBe(0);
    expect(changed.stderr).toContain('project hook "guard" not run: script changed: scripts/guard.sh');
    expect(runs(root)).toBe('v1\n');
    expect(toolResults().join('\n')).toContain('second');
    expect(toolResults().join('\n')).not.toContain('blocked by v2');

    const list = await runSeek(['hooks', 'list'], { cwd: root, env: suite.env(home) });
    expect(list.stdout).toMatch(/pre_tool\s+guard\s+project\s+bash\s+5000ms\s+untrusted \(script changed: scripts\/guard\.sh\)/);

    // Trusted again: the new script runs (and denies).
    expect((await runSeek(['hooks', 'trust'], { cwd: root, env: suite.env(home) })).code).toBe(0);
    suite.server.reset();
    bashThenDone('echo third');
    expect((await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) })).code).toBe(0);
    expect(runs(root)).toBe('v1\nv2\n');
    expect(toolResults().join('\n')).toContain('blocked by v2');
  });

  it('a hook that runs `npm run X` is asked again when that scripts entry changes, not when the rest of package.json does', async () => {
    const { root, home } = makeProject();
    writeProjectHooks(root, '[[pre_tool]]\nname = "guard"\ncommand = "npm run --silent guard"\nmatch = { tool = "Bash" }\ntimeout_ms = 20000\n');
    const pkg = (guard: string, extra: Record<string, unknown> = {}) =>
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0', private: true, ...extra, scripts: { guard, test: 'exit 0' } }, null, 2));
    pkg('echo v1 >> guard-runs.txt');
    const trust = await runSeek(['hooks', 'trust'], { cwd: root, env: suite.env(home) });
    expect(trust.code).toBe(0);
    expect(trust.stdout).toMatch(/ {2}package\.json#scripts\.guard \(sha256 [0-9a-f]{12}…\)/);

    bashThenDone('echo first');
    expect((await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) })).code).toBe(0);
    expect(runs(root)).toBe('v1\n');

    // Another field, another script: the hook still runs.
    pkg('echo v1 >> guard-runs.txt', { version: '1.0.1', description: 'bumped' });
    suite.server.reset();
    bashThenDone('echo second');
    const other = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(other.code).toBe(0);
    expect(other.stderr).not.toContain('not run');
    expect(runs(root)).toBe('v1\nv1\n');

    // The entry the hook runs changes: it must not run until trusted again.
    pkg('echo v2 >> guard-runs.txt; echo "blocked by v2"; exit 1');
    suite.server.reset();
    bashThenDone('echo third');
    const changed = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(changed.code).toBe(0);
    expect(changed.stderr).toContain('project hook "guard" not run: script changed: package.json#scripts.guard');
    expect(runs(root)).toBe('v1\nv1\n');
    expect(toolResults().join('\n')).toContain('third');
    const list = await runSeek(['hooks', 'list'], { cwd: root, env: suite.env(home) });
    expect(list.stdout).toContain('untrusted (script changed: package.json#scripts.guard)');

    // A pre script added next to it is not covered either.
    pkg('echo v1 >> guard-runs.txt');
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'demo', scripts: { preguard: 'echo pre >> guard-runs.txt', guard: 'echo v1 >> guard-runs.txt', test: 'exit 0' } }));
    suite.server.reset();
    bashThenDone('echo fourth');
    const pre = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(pre.stderr).toContain('project hook "guard" not run: script not covered by the trust: package.json#scripts.preguard');
    expect(runs(root)).toBe('v1\nv1\n');
  });

  it('a script changed during the session stops running from the next call on', async () => {
    const { root, home } = makeProject();
    writeProjectHooks(root, HOOKS);
    writeGuard(root, 'echo v1 >> guard-runs.txt; exit 0');
    expect((await runSeek(['hooks', 'trust'], { cwd: root, env: suite.env(home) })).code).toBe(0);

    suite.server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: `printf '#!/bin/bash\\necho v2 >> guard-runs.txt; echo "blocked by v2"; exit 1\\n' > scripts/guard.sh` } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo after-change' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, 'scripts', 'guard.sh'), 'utf8')).toContain('v2'); // the first call did change it
    expect(runs(root)).toBe('v1\n'); // v1 ran before the first call; v2 never ran
    expect(run.stderr).toContain('project hook "guard" not run: script changed since trusted: scripts/guard.sh');
    expect(toolResults().join('\n')).toContain('after-change');
    expect(toolResults().join('\n')).not.toContain('blocked by v2');
  });
});
