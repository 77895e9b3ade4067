import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookRunner, loadHooks, truncateBytes, type HookDef } from '../../../src/hooks/index.js';
import { RUNNER_ENV, hookFixture, type HookFixture } from './fixture.js';

let fx: HookFixture;
beforeEach(() => {
  fx = hookFixture();
});
afterEach(() => fx.cleanup());

function def(partial: Partial<HookDef> & Pick<HookDef, 'name' | 'command' | 'event'>): HookDef {
  return { timeoutMs: 5000, source: 'user', file: '/x/hooks.toml', ...partial };
}

function runner(hooks: HookDef[], problems: string[] = [], projectPath = fx.project) {
  return createHookRunner({ hooks, seekHome: fx.home, env: { ...RUNNER_ENV, projectPath }, onProblem: (m) => problems.push(m) });
}

describe('pre_tool', () => {
  it('non-zero exit denies with trimmed stdout as the reason; the chain stops at the first denial', async () => {
    const r = runner([
      def({ name: 'first', event: 'pre_tool', command: 'echo "  no rm -rf here  "; exit 2' }),
      def({ name: 'second', event: 'pre_tool', command: 'touch second-ran' }),
    ]);
    expect(await r.preTool({ tool: 'bash', argsJson: '{"command":"rm -rf /"}' })).toEqual({ deny: 'no rm -rf here', hook: 'first' });
    expect(() => readFileSync(path.join(fx.project, 'second-ran'))).toThrow();
  });

  it('without stdout the reason names the hook and the exit code; exit 0 allows', async () => {
    expect(await runner([def({ name: 'quiet', event: 'pre_tool', command: 'exit 3' })]).preTool({ tool: 'bash', argsJson: '{}' })).toEqual({
      deny: 'hook "quiet" exited with code 3',
      hook: 'quiet',
    });
    expect(await runner([def({ name: 'ok', event: 'pre_tool', command: 'echo fine' })]).preTool({ tool: 'bash', argsJson: '{}' })).toEqual({});
  });

  it('a timeout denies, and kills what the hook started', async () => {
    const started = Date.now();
    const outcome = await runner([def({ name: 'slow', event: 'pre_tool', command: 'sleep 5 & sleep 5', timeoutMs: 200 })]).preTool({
      tool: 'bash',
      argsJson: '{}',
    });
    expect(outcome.deny).toBe('hook "slow" timed out after 200ms — treating as deny');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('an exec failure denies (fail closed)', async () => {
    const outcome = await runner([def({ name: 'x', event: 'pre_tool', command: 'true' })], [], path.join(fx.base, 'missing-dir')).preTool({
      tool: 'bash',
      argsJson: '{}',
    });
    expect(outcome.deny).toMatch(/^hook "x" could not run: /);
  });

  it('match: a tool-scoped hook runs only for that tool', async () => {
    const r = runner([def({ name: 'bash-only', event: 'pre_tool', tool: 'bash', command: 'exit 1' })]);
    expect(r.has('pre_tool', 'read_file')).toBe(false);
    expect(await r.preTool({ tool: 'read_file', argsJson: '{}' })).toEqual({});
    expect((await r.preTool({ tool: 'bash', argsJson: '{}' })).deny).toBeDefined();
  });
});

describe('environment and observers', () => {
  const dump = (file: string) =>
    `{ for v in SEEK_VERSION SEEK_SESSION_ID SEEK_PROJECT_ID SEEK_PROJECT_PATH SEEK_EVENT SEEK_TOOL_NAME SEEK_TOOL_ARGS_JSON SEEK_TOOL_RESULT SEEK_TOOL_EXIT_OK SEEK_SUBAGENT_ID; do printf '%s=%s\\n' "$v" "\${!v}"; done; printf 'PWD=%s\\n' "$PWD"; printf 'STDIN=%s\\n' "$(cat)"; } > ${file}`;
  const read = (file: string): Record<string, string> =>
    Object.fromEntries(
      readFileSync(path.join(fx.project, file), 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );

  it('pre_tool sees the session, project and tool variables, runs in the project root with empty stdin', async () => {
    await runner([def({ name: 'env', event: 'pre_tool', command: dump('pre.env') })]).preTool({
      tool: 'bash',
      argsJson: '{\n  "command": "npm test"\n}',
      subagentId: 'sub-42',
    });
    expect(read('pre.env')).toEqual({
      SEEK_VERSION: '9.9.9',
      SEEK_SESSION_ID: 'sess-1',
      SEEK_PROJECT_ID: '0123456789abcdef',
      SEEK_PROJECT_PATH: fx.project,
      SEEK_EVENT: 'pre_tool',
      SEEK_TOOL_NAME: 'bash',
      SEEK_TOOL_ARGS_JSON: '{"command":"npm test"}',
      SEEK_TOOL_RESULT: '',
      SEEK_TOOL_EXIT_OK: '',
      SEEK_SUBAGENT_ID: 'sub-42',
      PWD: fx.project,
      STDIN: '',
    });
  });

  it('post_tool receives the result (capped at 4096 bytes + " [truncated]") and the exit flag', async () => {
    const r = runner([def({ name: 'post', event: 'post_tool', command: dump('post.env') })]);
    await r.postTool({ tool: 'read_file', argsJson: '{"path":"a"}', result: 'file contents', ok: true });
    expect(read('post.env')).toMatchObject({ SEEK_EVENT: 'post_tool', SEEK_TOOL_RESULT: 'file contents', SEEK_TOOL_EXIT_OK: '1', SEEK_SUBAGENT_ID: '' });

    await r.postTool({ tool: 'bash', argsJson: '{}', result: 'é'.repeat(3000), ok: false });
    const vars = read('post.env');
    expect(vars.SEEK_TOOL_EXIT_OK).toBe('0');
    expect(vars.SEEK_TOOL_RESULT).toBe(`${'é'.repeat(2048)} [truncated]`);
    expect(truncateBytes('abc', 2)).toBe('ab [truncated]');
  });

  it('observer failures are reported, never thrown; same-event hooks run serially in order', async () => {
    const problems: string[] = [];
    const r = runner(
      [
        def({ name: 'a', event: 'session_start', command: 'sleep 0.2; echo a >> order.txt' }),
        def({ name: 'b', event: 'session_start', command: 'echo b >> order.txt; echo oops >&2; exit 4' }),
        def({ name: 'c', event: 'session_end', command: 'printf "%s" "$SEEK_EVENT_JSON" > end.json' }),
        def({ name: 'd', event: 'pre_prompt', command: 'printf "%s" "$SEEK_PROMPT" > prompt.txt' }),
      ],
      problems,
    );
    await r.sessionStart();
    expect(readFileSync(path.join(fx.project, 'order.txt'), 'utf8')).toBe('a\nb\n');
    expect(problems).toEqual(['session_start hook "b" exited with code 4: oops']);
    await r.sessionEnd({ turns: 3 });
    expect(JSON.parse(readFileSync(path.join(fx.project, 'end.json'), 'utf8'))).toEqual({ turns: 3 });
    await r.prePrompt('fix the bug');
    expect(readFileSync(path.join(fx.project, 'prompt.txt'), 'utf8')).toBe('fix the bug');
  });

  it('project hooks run before user hooks (through loadHooks, after trust)', async () => {
    const { trustProject } = await import('../../../src/hooks/index.js');
    fx.writeProjectHooks('[[pre_compact]]\nname = "p"\ncommand = "echo project >> order.txt"\n');
    fx.writeUserHooks('[[pre_compact]]\nname = "u"\ncommand = "echo user >> order.txt"\n');
    await trustProject(fx.home, fx.project);
    const loaded = await loadHooks({ seekHome: fx.home, projectRoot: fx.project });
    await createHookRunner({ hooks: loaded, seekHome: fx.home, env: { ...RUNNER_ENV, projectPath: fx.project } }).preCompact();
    expect(readFileSync(path.join(fx.project, 'order.txt'), 'utf8')).toBe('project\nuser\n');
  });
});

describe('audit log', () => {
  it('writes one JSON line per hook run with the spec fields', async () => {
    const r = runner([
      def({ name: 'guard', event: 'pre_tool', command: 'echo denied-by-guard; exit 1' }),
      def({ name: 'after', event: 'post_tool', command: 'true' }),
    ]);
    await r.preTool({ tool: 'bash', argsJson: '{}', subagentId: 'sub-1' });
    await r.postTool({ tool: 'bash', argsJson: '{}', result: 'x', ok: true });
    const lines = fx.readAuditLines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      event: 'pre_tool',
      hook: 'guard',
      tool: 'bash',
      session_id: 'sess-1',
      exit_code: 1,
      denied: true,
      reason: 'denied-by-guard',
      subagent_id: 'sub-1',
    });
    expect(Object.keys(lines[0]!)).toEqual(
      expect.arrayContaining(['ts', 'event', 'hook', 'tool', 'session_id', 'duration_ms', 'exit_code', 'denied', 'reason']),
    );
    expect(lines[1]).toMatchObject({ event: 'post_tool', hook: 'after', exit_code: 0, denied: false, reason: null });
    expect(typeof lines[0]!.duration_ms).toBe('number');
  });
});
