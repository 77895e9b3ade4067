/**
 * Worktrees from the agent's side, with real git: enter_worktree / exit_worktree move a session's
 * tools and permission scope, and `isolation: "worktree"` gives each child its own copy.
 */
import { tempDir } from '../../support/temp-dirs.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSession, type AgentSession } from '../../../src/runtime/session.js';
import type { ToolResultMessage } from '../../../src/providers/types.js';
import { makeProject } from '../../support/seek-process.js';
import { routedStream, type FakeReply, type RouteInfo } from '../../support/fake-stream.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

async function open(route: (info: RouteInfo) => FakeReply, project = makeProject()) {
  const stream = routedStream(route);
  const session = await openSession({ cwd: project.root, env: { SEEK_HOME: project.home, DEEPSEEK_API_KEY: 't' }, interactive: false, yolo: true, maxTurns: 20, stream });
  sessions.push(session);
  return { ...project, session, stream };
}

const lastToolContent = (info: RouteInfo): string =>
  info.request.messages.filter((m): m is ToolResultMessage => m.role === 'tool').at(-1)?.content ?? '';

const lastResults = (stream: ReturnType<typeof routedStream>): ToolResultMessage[] => {
  const last = stream.requests.filter((r) => !r.system.includes('\n# Subagent\n')).at(-1)!;
  const lastAssistant = last.messages.map((m) => m.role).lastIndexOf('assistant');
  return last.messages.slice(lastAssistant + 1).filter((m): m is ToolResultMessage => m.role === 'tool');
};

describe('enter_worktree and exit_worktree', () => {
  it('moves file tools into the worktree and back; keep leaves the work there', async () => {
    let worktreePath = '';
    const { root, session, stream } = await open((info) => {
      const results = info.request.messages.filter((m): m is ToolResultMessage => m.role === 'tool');
      const created = results.find((r) => r.content.startsWith('[worktree: created'));
      if (created) worktreePath = /path=(\S+)/.exec(created.content)![1]!;
      switch (info.turn) {
        case 0:
          return { toolCalls: [{ name: 'enter_worktree', arguments: {} }] };
        case 1:
          return { toolCalls: [{ name: 'write_file', arguments: { path: 'feature.txt', content: 'new\n' } }] };
        case 2:
          return { toolCalls: [{ name: 'exit_worktree', arguments: { path: worktreePath } }] };
        default:
          return { text: 'done' };
      }
    });
    await session.prompt('work isolated');
    expect(worktreePath).toContain(join('worktrees', ''));
    expect(readFileSync(join(worktreePath, 'feature.txt'), 'utf8')).toBe('new\n');
    expect(existsSync(join(root, 'feature.txt'))).toBe(false);
    const exit = lastResults(stream)[0]!;
    expect(exit.content).toMatch(new RegExp(`^\\[worktree: kept path=${worktreePath} branch=seek/wt/\\S+ changes=1\\]`));
    expect(exit.content).toContain(`You are back in ${root}`);
  });

  it('merges the worktree into the main working tree on exit with if_dirty merge', async () => {
    let worktreePath = '';
    const { root, session, stream } = await open((info) => {
      const created = info.request.messages.find((m): m is ToolResultMessage => m.role === 'tool' && m.content.startsWith('[worktree: created'));
      if (created) worktreePath = /path=(\S+)/.exec(created.content)![1]!;
      if (info.turn === 0) return { toolCalls: [{ name: 'enter_worktree', arguments: { branch: 'feature/x' } }] };
      if (info.turn === 1) return { toolCalls: [{ name: 'write_file', arguments: { path: 'merged.txt', content: 'merged\n' } }] };
      if (info.turn === 2) return { toolCalls: [{ name: 'exit_worktree', arguments: { path: worktreePath, if_dirty: 'merge' } }] };
      return { text: 'done' };
    });
    await session.prompt('work and merge');
    expect(lastResults(stream)[0]!.content).toMatch(/^\[worktree: merged branch=feature\/x commit=[0-9a-f]{7,40}\]/);
    expect(readFileSync(join(root, 'merged.txt'), 'utf8')).toBe('merged\n');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' })).toBe('');
  });
});

describe('worktrees that run', () => {
  it('copies .worktreeinclude files and links config worktree.symlink folders into a worktree the model enters', async () => {
    const project = makeProject({ '.gitignore': '.env\nnode_modules\n', '.worktreeinclude': '.env\n', 'README.md': '# demo\n' });
    writeFileSync(join(project.root, '.env'), 'TOKEN=local\n');
    execFileSync('mkdir', ['-p', join(project.root, 'node_modules', 'dep')]);
    writeFileSync(join(project.root, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    writeFileSync(join(project.home, 'config.json'), JSON.stringify({ worktree: { symlink: ['node_modules'] } }));
    let worktreePath = '';
    const { session, stream } = await open((info) => {
      if (info.turn === 0) return { toolCalls: [{ name: 'enter_worktree', arguments: {} }] };
      if (info.turn === 1) {
        worktreePath = /path=(\S+)/.exec(lastToolContent(info))![1]!;
        return { toolCalls: [{ name: 'read_file', arguments: { path: '.env' } }, { name: 'read_file', arguments: { path: 'node_modules/dep/index.js' } }] };
      }
      return { text: 'done' };
    }, project);
    await session.prompt('run in a worktree');
    const [env, dep] = lastResults(stream);
    expect(env!.content).toContain('TOKEN=local');
    expect(dep!.content).toContain('module.exports = 1;');
    expect(readlinkSync(join(worktreePath, 'node_modules'))).toBe(join(project.root, 'node_modules'));
    // Neither shows as a change: the worktree is clean and is removed on exit.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: worktreePath, encoding: 'utf8' })).toBe('');
  });
});

describe('isolation: "worktree" on agent', () => {
  it('gives parallel children their own worktrees: the same file name, two contents, none in the project', async () => {
    const { root, session, stream } = await open((info) => {
      if (!info.child) {
        return info.turn === 0
          ? {
              toolCalls: ['left', 'right'].map((side) => ({
                name: 'agent',
                arguments: { description: side, prompt: side, subagent_type: 'general-purpose', isolation: 'worktree' },
              })),
            }
          : { text: 'done' };
      }
      return info.turn === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: 'same.txt', content: `${info.firstUser}\n` } }] } : { text: `wrote ${info.firstUser}` };
    });
    await session.prompt('split');
    expect(existsSync(join(root, 'same.txt'))).toBe(false);
    const results = lastResults(stream);
    const paths = results.map((r) => {
      expect(r.content).toMatch(/^\[agent: completed\] wrote (left|right)/);
      const line = /\n— worktree: (\S+) \(branch (\S+), 1 changes\)$/.exec(r.content);
      expect(line).not.toBeNull();
      return line![1]!;
    });
    expect(new Set(paths).size).toBe(2);
    expect(paths.map((p) => readFileSync(join(p, 'same.txt'), 'utf8')).sort()).toEqual(['left\n', 'right\n']);
  });

  it('adds nothing to the result when the child changed nothing, and the worktree is gone', async () => {
    const { session, stream, home } = await open((info) =>
      info.child
        ? { text: 'looked only' }
        : info.turn === 0
          ? { toolCalls: [{ name: 'agent', arguments: { description: 'look', prompt: 'look', subagent_type: 'explore', isolation: 'worktree' } }] }
          : { text: 'done' },
    );
    await session.prompt('look');
    const result = lastResults(stream)[0]!;
    expect(result.content).toMatch(/^\[agent: completed\] looked only/);
    expect(result.content).not.toContain('— worktree');
    const worktrees = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: session.projectRoot, encoding: 'utf8' });
    expect(worktrees).not.toContain(home);
  });

  it('fails with spawn_error outside a git repository, where the worktree tools are not offered', async () => {
    const base = tempDir('seek-nogit-');
    const root = join(base, 'plain');
    const home = join(base, 'home');
    execFileSync('mkdir', ['-p', root, home]);
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const { session, stream } = await open(
      (info) => (info.turn === 0 ? { toolCalls: [{ name: 'agent', arguments: { description: 'x', prompt: 'x', isolation: 'worktree' } }] } : { text: 'ok' }),
      { root, home },
    );
    await session.prompt('go');
    expect(stream.requests[0]!.tools.map((t) => t.name)).not.toContain('enter_worktree');
    expect(lastResults(stream)[0]!.content).toMatch(/^\[agent: failed reason=spawn_error\] worktree isolation needs a git repository/);
  });
});

describe('a session handed an existing worktree (the terminal UI\'s /clear inside one)', () => {
  const openWith = async (project: ReturnType<typeof makeProject>, extra: { worktree?: boolean; continueInWorktree?: string }) => {
    const stream = routedStream(() => ({ text: 'ok' }));
    const session = await openSession({ cwd: project.root, env: { SEEK_HOME: project.home, DEEPSEEK_API_KEY: 't' }, interactive: true, yolo: true, maxTurns: 5, stream, ...extra });
    sessions.push(session);
    return { session, stream };
  };

  it('works in the same worktree, tells the model, and the handing-over session neither reports nor removes it', async () => {
    const project = makeProject();
    const first = await openWith(project, { worktree: true });
    const path = first.session.worktree!.path;
    const second = await openWith(project, { worktree: true, continueInWorktree: path });
    expect(second.session.worktree).toMatchObject({ path, branch: first.session.worktree!.branch, base: first.session.worktree!.base });
    await first.session.close({ handOver: true });
    expect(first.session.closingNotes).toEqual([]);
    expect(existsSync(path)).toBe(true);

    await second.session.prompt('go on');
    const note = second.stream.requests[0]!.messages.find((m) => m.role === 'user' && m.content.startsWith('<context source="worktree">'));
    expect(note?.content).toContain(`This session works in the git worktree ${path} (branch ${second.session.worktree!.branch}), where an earlier session of the user worked`);
    await second.session.close();
    expect(second.session.closingNotes).toEqual([`the session's worktree ${path} (branch ${second.session.worktree!.branch}) holds no work; it stays for seek --resume ${second.session.id} (seek worktree gc removes it later)`]);
  });

  it('a vanished worktree: with --worktree a fresh one is made, without it the session works in the project', async () => {
    const project = makeProject();
    const gone = join(project.home, 'projects', 'x', 'worktrees', '20250101-000000-abcdef');
    const flagged = await openWith(project, { worktree: true, continueInWorktree: gone });
    expect(flagged.session.worktree?.path).not.toBe(gone);
    expect(existsSync(flagged.session.worktree!.path)).toBe(true);
    const plain = await openWith(project, { continueInWorktree: gone });
    expect(plain.session.worktree).toBeUndefined();
  });
});
