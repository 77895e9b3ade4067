/**
 * Every route by which seek itself (outside the OS sandbox) changes a file holds the project's
 * `Edit(...)` deny rules and the protected paths (`.git` at any depth, `.seek/`), as an attacker who
 * controls the model's output in `--auto` would try them: a worktree's merge back into the main
 * tree (exit_worktree, a child's kept worktree), a relative deny rule inside a worktree and inside
 * an isolated child's worktree. Real `seek`, scripted model server, real git in temp repos.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { StreamJsonSeek, type Line } from '../support/stream-json-client.js';
import { hasSandbox } from '../support/sandbox.js';

const suite = useScriptedServer();

interface Msg {
  role: string;
  content?: string;
}
interface Req {
  child: boolean;
  turn: number;
  lastTool: string;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Msg[];
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  const tools = messages.filter((m) => m.role === 'tool');
  return { child: system.includes('\n# Subagent\n'), turn: messages.filter((m) => m.role === 'assistant').length, lastTool: String(tools.at(-1)?.content ?? '') };
}
/** Every tool result the parent (not a child) got, in order. */
function parentResults(): string[] {
  const last = [...suite.server.requests].reverse().find((r) => !view(r).child)!;
  return (last.body.messages as Msg[]).filter((m) => m.role === 'tool').map((m) => String(m.content));
}
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });
const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
const createdPath = (text: string): string => /\[worktree: created path=(\S+)/.exec(text)?.[1] ?? '';

const PROD = 'replicas: 2\n';
const RULES = '{ "permissions": { "deny": ["Edit(./deploy/prod.yml)"] } }\n';

/** A project whose config denies edits to deploy/prod.yml, and a branch `evil` (someone's pushed
 * work, or one the model made) that changes that file and the project's seek configuration. */
function project(): { root: string; home: string } {
  const made = makeProject({ 'README.md': '# demo\n', 'deploy/prod.yml': PROD, '.seek/config.json': RULES });
  const { root } = made;
  git(root, 'checkout', '-q', '-b', 'evil');
  execFileSync('sh', ['-c', 'echo "replicas: 0" > deploy/prod.yml && echo "{}" > .seek/config.json'], { cwd: root });
  git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'evil');
  git(root, 'checkout', '-q', 'main');
  return made;
}

function seek(root: string, home: string, flags: string[]) {
  return runSeek(['-p', 'do the task', ...flags], { cwd: root, env: suite.env(home), timeoutMs: 120_000 });
}

describe('--auto: a worktree merged back brings no change to a denied or protected path', () => {
  it('exit_worktree(if_dirty=merge) from the project of a worktree based on a branch that changes them is refused, naming both files; the main tree is unchanged', async () => {
    const { root, home } = project();
    const head = git(root, 'rev-parse', 'HEAD');
    let path = '';
    suite.server.setFallback((request) => {
      const req = view(request);
      if (req.turn === 0) return call('enter_worktree', { base: 'evil' });
      if (req.turn === 1) {
        path = createdPath(req.lastTool);
        return call('write_file', { path: 'notes.txt', content: 'harmless\n' });
      }
      // Back in the project first (the worktree is kept), so the merge is a write inside the root.
      if (req.turn === 2) return call('exit_worktree', { path, if_dirty: 'keep' });
      if (req.turn === 3) return call('exit_worktree', { path, if_dirty: 'merge' });
      return { text: 'done' };
    });
    const run = await seek(root, home, ['--auto']);
    expect(run.code).toBe(0);
    const results = parentResults();
    expect(results[0]).toMatch(/^\[worktree: created path=/);
    expect(results[1]).toMatch(/^Created notes\.txt/);
    expect(results[2]).toMatch(/^\[worktree: kept path=/);
    expect(results[3]).toMatch(/^\[worktree: merge_conflict files=2\]\nmerge refused/);
    expect(results[3]).toContain('deploy/prod.yml');
    expect(results[3]).toContain('.seek/config.json');
    expect(results[3]).toContain('Edit(./deploy/prod.yml)');
    expect(readFileSync(join(root, 'deploy/prod.yml'), 'utf8')).toBe(PROD);
    expect(readFileSync(join(root, '.seek/config.json'), 'utf8')).toBe(RULES);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(root, 'status', '--porcelain')).toBe('');
    // The worktree is kept for a person to review; `seek worktree merge` is their own yes.
    expect(readFileSync(join(path, 'notes.txt'), 'utf8')).toBe('harmless\n');
    const merged = await runSeek(['worktree', 'merge', path], { cwd: root, env: suite.env(home) });
    expect(merged.code, merged.stderr).toBe(0);
    expect(readFileSync(join(root, 'deploy/prod.yml'), 'utf8')).toBe('replicas: 0\n');
  });
});

describe('--auto: a relative deny rule holds inside a worktree', () => {
  it('after enter_worktree, and in an isolated child\'s worktree, edits to ./deploy/prod.yml are denied', async () => {
    const { root, home } = project();
    let path = '';
    suite.server.setFallback((request) => {
      const req = view(request);
      if (req.child) return req.turn === 0 ? call('edit_file', { path: 'deploy/prod.yml', old_string: 'replicas: 2', new_string: 'replicas: 9' }) : { text: `child saw: ${req.lastTool}` };
      if (req.turn === 0) return call('agent', { description: 'tune', prompt: 'edit deploy/prod.yml', subagent_type: 'general-purpose', isolation: 'worktree' });
      if (req.turn === 1) return call('enter_worktree', {});
      if (req.turn === 2) {
        path = createdPath(req.lastTool);
        return call('write_file', { path: 'deploy/prod.yml', content: 'replicas: 7\n' });
      }
      return { text: 'done' };
    });
    const run = await seek(root, home, ['--auto']);
    expect(run.code).toBe(0);
    const results = parentResults();
    expect(results[0]).toMatch(/child saw: edit_file is denied by a project rule: Edit\(\.\/deploy\/prod\.yml\)/);
    expect(results[2]).toMatch(/^write_file is denied by a project rule: Edit\(\.\/deploy\/prod\.yml\)/);
    expect(readFileSync(join(path, 'deploy/prod.yml'), 'utf8')).toBe(PROD);
    expect(readFileSync(join(root, 'deploy/prod.yml'), 'utf8')).toBe(PROD);
  });
});

describe('a link planted while the person is asked does not redirect the approved write', () => {
  const running: StreamJsonSeek[] = [];
  afterEach(() => {
    for (const one of running.splice(0)) one.kill();
  });
  const isCanUseTool = (line: Line) => line.type === 'control_request' && line.request?.subtype === 'can_use_tool';
  const allow = (requestId: string) => ({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response: { behavior: 'allow' } } });

  it('write_file and edit_file of notes.txt, approved, then notes.txt swapped for a link to deploy/prod.yml or .git/config: refused, nothing written there', async () => {
    const { root, home } = project();
    writeFileSync(join(root, 'notes.txt'), 'notes\n');
    writeFileSync(join(root, 'todo.txt'), 'old\n');
    const gitConfig = readFileSync(join(root, '.git/config'), 'utf8');
    suite.server.enqueue(
      call('write_file', { path: 'notes.txt', content: 'replicas: 0\n' }),
      call('edit_file', { path: 'todo.txt', old_string: 'old', new_string: '[core]\n\tfsmonitor = touch planted' }),
      { text: 'done' },
    );
    const seek = StreamJsonSeek.start({ cwd: root, env: suite.env(home), args: ['--permission-prompt-tool', 'stdio'] });
    running.push(seek);
    seek.user('update the notes');
    const ask1 = await seek.waitFor(isCanUseTool);
    expect(ask1.request).toMatchObject({ tool_name: 'write_file', input: { path: 'notes.txt' } });
    // What a sandboxed background command of the model's could do while the person reads the prompt.
    rmSync(join(root, 'notes.txt'));
    symlinkSync('deploy/prod.yml', join(root, 'notes.txt'));
    seek.send(allow(ask1.request_id));
    const ask2 = await seek.waitFor((line) => isCanUseTool(line) && line.request_id !== ask1.request_id);
    expect(ask2.request).toMatchObject({ tool_name: 'edit_file', input: { path: 'todo.txt' } });
    writeFileSync(join(root, '.git/config'), `${gitConfig}# old\n`);
    rmSync(join(root, 'todo.txt'));
    symlinkSync('.git/config', join(root, 'todo.txt'));
    seek.send(allow(ask2.request_id));
    const result = await seek.waitFor((line) => line.type === 'result');
    expect(result.result).toBe('done');
    const results = parentResults();
    expect(results[0]).toMatch(/^Cannot write notes\.txt: .*deploy\/prod\.yml.*not the file that was approved/);
    expect(results[1]).toMatch(/todo\.txt: .*\.git\/config.*not the file that was approved/);
    expect(readFileSync(join(root, 'deploy/prod.yml'), 'utf8')).toBe(PROD);
    expect(readFileSync(join(root, '.git/config'), 'utf8')).toBe(`${gitConfig}# old\n`);
    seek.close();
    expect(await seek.exited).toBe(0);
  });
});

describe('--auto: the spellings of a denied or protected path all reach the same refusal', () => {
  it('//, .., a trailing slash, an absolute path, a linked folder, a linked file and the edits array are denied; a hard link is written by rename, never through', async () => {
    const { root, home } = project();
    symlinkSync('deploy', join(root, 'd'));
    symlinkSync('deploy/prod.yml', join(root, 'alias.yml'));
    linkSync(join(root, 'deploy/prod.yml'), join(root, 'hard.yml'));
    linkSync(join(root, '.git/config'), join(root, 'hardcfg'));
    const gitConfig = readFileSync(join(root, '.git/config'), 'utf8');
    const write = (path: string) => call('write_file', { path, content: 'replicas: 0\n' });
    suite.server.enqueue(
      write('deploy//prod.yml'),
      write('./deploy/../deploy/prod.yml'),
      write('deploy/prod.yml/'),
      write(join(root, 'deploy/prod.yml')),
      write('d/prod.yml'),
      write('alias.yml'),
      call('edit_file', { path: 'alias.yml', edits: [{ old_string: 'replicas: 2', new_string: 'replicas: 0' }] }),
      write('hard.yml'),
      write('hardcfg'),
      { text: 'done' },
    );
    const run = await seek(root, home, ['--auto']);
    expect(run.code).toBe(0);
    const results = parentResults();
    expect(results).toHaveLength(9);
    for (const result of results.slice(0, 7)) expect(result).toMatch(/^(write_file|edit_file) is denied by a project rule: Edit\(\.\/deploy\/prod\.yml\)/);
    expect(results[7]).toMatch(/^Overwrote hard\.yml/);
    expect(results[8]).toMatch(/^Overwrote hardcfg/);
    expect(readFileSync(join(root, 'deploy/prod.yml'), 'utf8')).toBe(PROD);
    expect(readFileSync(join(root, '.git/config'), 'utf8')).toBe(gitConfig);
    expect(readFileSync(join(root, 'hard.yml'), 'utf8')).toBe('replicas: 0\n');
  });
});

describe('a plan\'s editor merged back brings no change to a denied path', () => {
  it('--yolo: an editor that changed deploy/prod.yml in its worktree (by an unsandboxed command) fails with merge_conflict; the other editor\'s work merges', async () => {
    const { root, home } = project();
    const taskOf = (request: RecordedRequest): string | undefined => {
      const first = (request.body.messages as Msg[]).find((m) => m.role === 'user')?.content ?? '';
      return /^## Your task \(([^,]+), /m.exec(String(first))?.[1];
    };
    suite.server.setFallback((request) => {
      const task = taskOf(request);
      const { turn } = view(request);
      if (task === 'e1') return turn === 0 ? call('bash', { command: "printf 'replicas: 0\\n' > deploy/prod.yml" }) : { text: 'scaled down' };
      if (task === 'e2') return turn === 0 ? call('write_file', { path: 'two.txt', content: 'second editor\n' }) : { text: 'wrote two.txt' };
      return turn === 0
        ? call('delegate_tasks', { tasks: [{ id: 'e1', task: 'scale down', role: 'editor', depends_on: [] }, { id: 'e2', task: 'add two.txt', role: 'editor', depends_on: [] }] })
        : { text: 'done' };
    });
    const run = await seek(root, home, ['--yolo']);
    expect(run.code, run.stderr).toBe(0);
    const result = parentResults()[0]!;
    expect(result).toMatch(/merge_conflict/);
    expect(result).toMatch(/merge refused: it would change 1 file .*deploy\/prod\.yml: denied by Edit\(\.\/deploy\/prod\.yml\)/);
    expect(readFileSync(join(root, 'deploy/prod.yml'), 'utf8')).toBe(PROD);
    expect(readFileSync(join(root, 'two.txt'), 'utf8')).toBe('second editor\n');
    expect(git(root, 'status', '--porcelain')).toBe('');
  });
});

describe.skipIf(!hasSandbox)('--auto: git run by bash (sandboxed) does not bring a change to a denied file', () => {
  it('checkout, restore, merge, cherry-pick, reset --hard, apply and stash pop of a change to deploy/prod.yml leave it as it was', async () => {
    const { root, home } = project();
    git(root, 'format-patch', '-q', '-1', 'evil', '-o', join(root, 'patches'));
    writeFileSync(join(root, 'deploy/prod.yml'), 'replicas: 5\n');
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'stash', '-q');
    const head = git(root, 'rev-parse', 'HEAD');
    const steps = [
      'git checkout evil -- deploy/prod.yml',
      'git restore --source=evil deploy/prod.yml',
      'git -c user.name=m -c user.email=m@m merge --no-edit evil',
      'git -c user.name=m -c user.email=m@m cherry-pick evil',
      'git reset --hard evil',
      'git apply patches/*.patch',
      'git stash pop',
    ];
    suite.server.enqueue(...steps.map((command) => call('bash', { command: `${command}; echo exit=$?` })), { text: 'done' });
    const run = await seek(root, home, ['--auto']);
    expect(run.code).toBe(0);
    const results = parentResults();
    expect(results).toHaveLength(steps.length);
    for (const result of results) expect(result).toMatch(/exit=[1-9]/);
    expect(readFileSync(join(root, 'deploy/prod.yml'), 'utf8')).toBe(PROD);
    expect(readFileSync(join(root, '.seek/config.json'), 'utf8')).toBe(RULES);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
  });
});
