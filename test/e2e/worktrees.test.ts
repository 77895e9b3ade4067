/**
 * Worktrees through the real `seek` process against the scripted model server: an isolated child's
 * work stays in its worktree until `seek worktree merge` brings it back; `--resume` of a session
 * that stopped inside a worktree goes back into it (or says it is gone); hooks see project paths
 * and SEEK_WORKTREE_PATH; outside git, isolation fails with spawn_error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();
const env = (home: string) => suite.env(home);

interface Msg {
  role: string;
  content?: string;
}
interface Req {
  child: boolean;
  messages: Msg[];
  tools: string[];
  firstUser: string;
  /** Assistant messages so far: 0 for the first request of a conversation. */
  turn: number;
  /** The content of the newest tool result, or ''. */
  lastTool: string;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Msg[];
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  const tools = messages.filter((m) => m.role === 'tool');
  return {
    child: system.includes('\n# Subagent\n'),
    messages,
    tools: ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
    firstUser: String(messages.find((m) => m.role === 'user')?.content ?? ''),
    turn: messages.filter((m) => m.role === 'assistant').length,
    lastTool: String(tools.at(-1)?.content ?? ''),
  };
}
function route(handler: (req: Req) => ScriptedReply): void {
  suite.server.setFallback((request) => handler(view(request)));
}
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });
const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
const createdPath = (text: string): string => /\[worktree: created path=(\S+)/.exec(text)?.[1] ?? '';

describe('worktrees end to end', () => {
  it('an isolated child writes only in its worktree; list shows it with its owner; merge brings the work back', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    route((req) => {
      if (req.child) return req.turn === 0 ? call('write_file', { path: 'feature.txt', content: 'from the child\n' }) : { text: 'wrote feature.txt' };
      if (req.turn === 0) return call('agent', { description: 'add feature', prompt: 'add feature.txt', subagent_type: 'general-purpose', isolation: 'worktree' });
      return { text: 'the child is done' };
    });
    const run = await runSeek(['-p', 'add a feature in isolation', '--yolo', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(suite.server.violations).toEqual([]);
    const parentResult = view(suite.server.requests.at(-1)!).lastTool;
    const line = /\n— worktree: (\S+) \(branch (seek\/wt\/\S+), 1 changes\)$/.exec(parentResult);
    expect(line, parentResult).not.toBeNull();
    const [, path, branch] = line!;
    expect(readFileSync(join(path!, 'feature.txt'), 'utf8')).toBe('from the child\n');
    expect(existsSync(join(root, 'feature.txt'))).toBe(false);
    expect(git(root, 'status', '--porcelain')).toBe('');

    const subSid = JSON.parse(run.stdout).subagents[0].id as string;
    const listed = await runSeek(['worktree', 'list', '--json'], { cwd: root, env: env(home) });
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path, branch, changes: 1, ownerSubSid: subSid });

    const merged = await runSeek(['worktree', 'merge', String(rows[0]!.id)], { cwd: root, env: env(home) });
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toMatch(new RegExp(`^\\[worktree: merged branch=${branch} commit=[0-9a-f]{40}\\]`));
    expect(readFileSync(join(root, 'feature.txt'), 'utf8')).toBe('from the child\n');
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(existsSync(path!)).toBe(false);
  });

  it('--resume of a session that stopped inside a worktree works in it again, then merges it', async () => {
    const { root, home } = makeProject();
    let path = '';
    route((req) => {
      if (req.turn === 0) return call('enter_worktree', { branch: 'feature/resume' });
      if (req.turn === 1) {
        path = createdPath(req.lastTool);
        return call('write_file', { path: 'first.txt', content: 'one\n' });
      }
      return { text: 'first part done' };
    });
    const first = await runSeek(['-p', 'start in a worktree', '--yolo', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(first.code).toBe(0);
    const sid = JSON.parse(first.stdout).session_id as string;
    expect(readFileSync(join(path, 'first.txt'), 'utf8')).toBe('one\n');

    suite.server.reset();
    const steps = [call('write_file', { path: 'second.txt', content: 'two\n' }), call('exit_worktree', { path, if_dirty: 'merge' }), { text: 'merged' }];
    route(() => steps.shift() ?? { text: 'extra' });
    const second = await runSeek(['-p', 'finish and merge', '--resume', sid, '--yolo', '--output-format', 'stream-json'], { cwd: root, env: env(home) });
    expect(second.code).toBe(0);
    const notices = second.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === 'notice');
    expect(notices.map((n) => n.text)).toContain(`resumed inside worktree ${path} (branch feature/resume)`);
    // second.txt was written in the worktree (relative to its root), and the merge brought both files home.
    expect(readFileSync(join(root, 'first.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(root, 'second.txt'), 'utf8')).toBe('two\n');
    expect(git(root, 'log', '-1', '--format=%s')).toMatch(/^seek: merge worktree /);
    expect(git(root, 'status', '--porcelain')).toBe(''); // second.txt came through the merge
    expect(view(suite.server.requests.at(-1)!).lastTool).toMatch(/^\[worktree: merged branch=feature\/resume commit=[0-9a-f]{40}\]/);
    expect(existsSync(path)).toBe(false);
  });

  it('--resume after the worktree vanished tells the user and the model, and acts on the main tree', async () => {
    const { root, home } = makeProject();
    let path = '';
    route((req) => {
      if (req.turn === 0) return call('enter_worktree', {});
      path ||= createdPath(req.lastTool);
      return { text: 'entered' };
    });
    const first = await runSeek(['-p', 'enter', '--yolo', '--output-format', 'json'], { cwd: root, env: env(home) });
    const sid = JSON.parse(first.stdout).session_id as string;
    git(root, 'worktree', 'remove', '--force', path);

    suite.server.reset();
    route(() => ({ text: 'understood' }));
    const second = await runSeek(['-p', 'go on', '--resume', sid, '--output-format', 'stream-json'], { cwd: root, env: env(home) });
    expect(second.code).toBe(0);
    const events = second.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const warnings = events.filter((e) => e.type === 'notice' && e.level === 'warn').map((e) => String(e.text));
    expect(warnings.some((text) => text.startsWith(`this session was working in worktree ${path} (branch seek/wt/`) && text.endsWith(`tools now act on the main working tree ${root}`))).toBe(true);
    // Start-up housekeeping reports the missing directory too, with the command that drops its records.
    expect(warnings.some((text) => text.includes('is gone; drop its records with: seek worktree remove'))).toBe(true);
    const sent = view(suite.server.requests[0]!).messages;
    const note = sent.filter((m) => m.role === 'user').at(-2);
    expect(note?.content).toBe(
      `<context source="worktree">The worktree ${path} you were working in no longer exists. Your working directory is now the main working tree ${root}: changes there are not isolated. Call enter_worktree for a new isolated copy if you need one.</context>`,
    );
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'go on' });

    // Recorded: a third run neither warns nor adds the note again.
    suite.server.reset();
    route(() => ({ text: 'fine' }));
    const third = await runSeek(['-p', 'again', '--resume', sid, '--output-format', 'stream-json'], { cwd: root, env: env(home) });
    expect(third.stdout).not.toContain('no longer exists; tools now act');
    expect(view(suite.server.requests[0]!).messages.filter((m) => String(m.content).startsWith('<context source="worktree">'))).toHaveLength(1);
  });

  it('hooks see project paths and SEEK_WORKTREE_PATH, so a rule on a project file holds inside a worktree', async () => {
    const { root, home } = makeProject();
    const log = join(home, 'hook.log');
    writeFileSync(
      join(home, 'hooks.toml'),
      [
        '[[pre_tool]]',
        'name = "guard-secret"',
        'match = { tool = "write_file" }',
        `command = 'echo "$SEEK_WORKTREE_PATH|$SEEK_TOOL_ARGS_JSON" >> ${log}; case "$SEEK_TOOL_ARGS_JSON" in *"$SEEK_PROJECT_PATH/secret.txt"*) echo "secret.txt is off limits"; exit 1;; esac'`,
        '',
      ].join('\n'),
    );
    let path = '';
    route((req) => {
      if (req.turn === 0) return call('enter_worktree', {});
      if (req.turn === 1) {
        path = createdPath(req.lastTool);
        return call('write_file', { path: join(path, 'secret.txt'), content: 'leak\n' });
      }
      if (req.turn === 2) return call('write_file', { path: 'ok.txt', content: 'fine\n' });
      return { text: 'done' };
    });
    const run = await runSeek(['-p', 'write things', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const results = view(suite.server.requests.at(-1)!).messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results[1]).toContain('secret.txt is off limits');
    expect(existsSync(join(path, 'secret.txt'))).toBe(false);
    expect(readFileSync(join(path, 'ok.txt'), 'utf8')).toBe('fine\n');
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.startsWith(`${path}|`)).toBe(true);
    expect(lines[0]).toContain(`"path":"${root}/secret.txt"`);
    expect(lines[0]).not.toContain(path + '/secret.txt');
  });

  it('outside a git repository the worktree tools are not offered and isolation fails with spawn_error', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'seek-e2e-nogit-')));
    const root = join(base, 'plain');
    const home = join(base, 'home');
    mkdirSync(root);
    mkdirSync(home);
    try {
      route((req) => (req.turn === 0 ? call('agent', { description: 'x', prompt: 'x', isolation: 'worktree' }) : { text: 'ok' }));
      const run = await runSeek(['-p', 'go', '--yolo'], { cwd: root, env: env(home) });
      expect(run.code).toBe(0);
      expect(view(suite.server.requests[0]!).tools).not.toContain('enter_worktree');
      expect(view(suite.server.requests[0]!).tools).not.toContain('exit_worktree');
      expect(view(suite.server.requests.at(-1)!).lastTool).toMatch(/^\[agent: failed reason=spawn_error\] worktree isolation needs a git repository/);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('seek --worktree', () => {
  it('runs the whole session in a fresh worktree, says how to bring the work back, resumes there, and merge brings it back', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    route((req) => (req.turn === 0 ? call('write_file', { path: 'notes.txt', content: 'from the session\n' }) : { text: 'wrote notes.txt' }));
    const run = await runSeek(['-p', 'write the notes', '--yolo', '-w', '--worktree-branch', 'notes-work', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const sid = JSON.parse(run.stdout).session_id as string;
    expect(existsSync(join(root, 'notes.txt'))).toBe(false);
    expect(git(root, 'status', '--porcelain')).toBe('');
    const note = /^seek: the session's worktree (\S+) \(branch notes-work\) keeps 1 uncommitted change: bring it into (\S+) with: seek worktree merge (\S+), or continue there with: seek --resume (\S+)\n$/.exec(run.stderr);
    expect(note?.slice(2)).toEqual([root, expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{6}$/), sid]);
    const [path, id] = [note![1]!, note![3]!];
    expect(readFileSync(join(path, 'notes.txt'), 'utf8')).toBe('from the session\n');
    const context = view(suite.server.requests[0]!).messages.find((m) => String(m.content).startsWith('<context source="worktree">'));
    expect(context?.content).toContain(`This session works in its own git worktree ${path} (branch notes-work`);

    suite.server.reset();
    let requests = 0;
    route(() => (++requests === 1 ? call('write_file', { path: 'more.txt', content: 'more\n' }) : { text: 'done' }));
    const resumed = await runSeek(['-p', 'add more', '--yolo', '--resume', sid], { cwd: root, env: env(home) });
    expect(resumed.code).toBe(0);
    expect(readFileSync(join(path, 'more.txt'), 'utf8')).toBe('more\n');
    expect(resumed.stderr).toContain('keeps 2 uncommitted changes');

    const merged = await runSeek(['worktree', 'merge', id], { cwd: root, env: env(home) });
    expect(merged.code).toBe(0);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('from the session\n');
    expect(readFileSync(join(root, 'more.txt'), 'utf8')).toBe('more\n');
    expect(existsSync(path)).toBe(false);
  });

  it('an unsaved session with nothing done leaves no worktree; outside git the flag is refused before anything starts', async () => {
    const { root, home } = makeProject();
    route(() => ({ text: 'nothing to do' }));
    const run = await runSeek(['-p', 'look', '--worktree', '--no-save'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^seek: the session's worktree \S+ \(branch seek\/wt\/\S+\) held no work and was removed\n$/);
    expect(git(root, 'worktree', 'list', '--porcelain')).not.toContain(home);
    expect(git(root, 'branch', '--list', 'seek/*')).toBe('');

    const plain = tempDir('seek-nogit-');
    const refused = await runSeek(['-p', 'look', '--worktree'], { cwd: plain, env: env(join(plain, 'home')) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`seek: --worktree needs a git repository; ${plain} is not one\n`);
    expect(existsSync(join(plain, 'home', 'projects'))).toBe(false);
  });
});
