/**
 * delegate_tasks and `seek run` through the real `seek` process against the scripted model server
 * (OpenAI wire, as DeepSeek), with real git: serial results flowing on, parallel explorers with a
 * reviewer waiting, parallel editors in worktrees merged in order, a conflict without damage, a
 * failure skipping only its dependants, a cycle rejected before any child request, resume after a
 * killed process, and a plan file run headless.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const suite = useScriptedServer();
const USAGE = { input: 1000, output: 100, cacheRead: 600 };
const env = (home: string, extra: Record<string, string> = {}) => suite.env(home, extra);

interface Req {
  /** The orchestration task a child request belongs to; undefined for the parent. */
  task?: string;
  role?: string;
  prompt: string;
  turn: number;
  lastTool: string;
  messages: Array<{ role: string; content?: string }>;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Req['messages'];
  const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const task = /^## Your task \(([^,]+), ([^)]+)\)/m.exec(prompt);
  return {
    ...(task ? { task: task[1], role: task[2] } : {}),
    prompt,
    turn: messages.filter((m) => m.role === 'assistant').length,
    lastTool: String(messages.filter((m) => m.role === 'tool').at(-1)?.content ?? ''),
    messages,
  };
}
function route(handler: (req: Req) => ScriptedReply): void {
  suite.server.setFallback((request) => ({ usage: USAGE, ...handler(view(request)) }));
}
const delegate = (tasks: unknown[]): ScriptedReply => ({ toolCalls: [{ name: 'delegate_tasks', arguments: { tasks } }] });
const write = (path: string, content: string): ScriptedReply => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });
const firstRequest = (task: string) => suite.server.requests.find((r) => view(r).task === task && view(r).turn === 0)!;
const lastRequest = (task: string) => suite.server.requests.filter((r) => view(r).task === task).at(-1)!;
const parentRequests = () => suite.server.requests.filter((r) => view(r).task === undefined);

describe('delegate_tasks end to end', () => {
  it('runs three serial tasks: the second gets the first result, the third gets both; the bill and statistics add up', async () => {
    const { root, home } = makeProject();
    route((req) => {
      if (req.task) return { text: `finding of ${req.task}` };
      return req.turn === 0 ? delegate([{ task: 'map the code', role: 'explorer' }, { task: 'find the tests', role: 'explorer' }, { task: 'sum up', role: 'explorer' }]) : { text: 'done' };
    });
    const run = await runSeek(['-p', 'study this', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(suite.server.violations).toEqual([]);
    expect(view(firstRequest('t1')).prompt).not.toContain('## Results of earlier tasks');
    expect(view(firstRequest('t2')).prompt).toContain('## Results of earlier tasks\n\n### t1 (explorer)\nfinding of t1');
    expect(view(firstRequest('t3')).prompt).toContain('### t1 (explorer)\nfinding of t1\n\n### t2 (explorer)\nfinding of t2');
    // Serial: each child starts after the previous one answered.
    expect(firstRequest('t2').receivedAt).toBeGreaterThanOrEqual(lastRequest('t1').respondedAt!);

    const result = view(parentRequests()[1]!).lastTool;
    expect(result.split('\n').slice(0, 4)).toEqual([
      '[delegate_tasks: completed] 3 tasks (serial): 3 completed',
      't1 explorer completed turns=1 model_calls=1 tool_calls=0 tokens=1100',
      't2 explorer completed turns=1 model_calls=1 tool_calls=0 tokens=1100',
      't3 explorer completed turns=1 model_calls=1 tool_calls=0 tokens=1100',
    ]);
    expect(result.endsWith('totals: turns=3 model_calls=3 tool_calls=0 tokens=3300')).toBe(true);
    const json = JSON.parse(run.stdout);
    expect(json.usage.input_tokens).toBe(5 * 1000); // 2 parent requests + 3 children: no hidden bill
    expect(json.orchestrations).toHaveLength(1);
    expect(json.orchestrations[0]).toMatchObject({ mode: 'serial', status: 'completed', totals: { tasks: 3, completed: 3, model_calls: 3 } });
    expect(json.orchestrations[0].tasks.map((t: { id: string; sub_sid: string }) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(json.subagents.map((s: { task_id: string }) => s.task_id)).toEqual(['t1', 't2', 't3']);
  });

  it('runs two explorers in parallel and a reviewer only after both', async () => {
    const { root, home } = makeProject();
    route((req) => {
      if (req.task === 'a' || req.task === 'b') return { text: `found ${req.task}`, delayMs: 400 };
      if (req.task === 'r') return { text: 'Both findings hold.\nVERDICT: approve' };
      return req.turn === 0
        ? delegate([
            { id: 'a', task: 'look left', role: 'explorer' },
            { id: 'b', task: 'look right', role: 'explorer' },
            { id: 'r', task: 'check both', role: 'reviewer', depends_on: ['a', 'b'] },
          ])
        : { text: 'done' };
    });
    const run = await runSeek(['-p', 'go', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const [a, b, r] = [firstRequest('a'), firstRequest('b'), firstRequest('r')];
    // Both explorers were in flight together: each arrived before either was answered.
    expect(Math.max(a.receivedAt, b.receivedAt)).toBeLessThan(Math.min(a.respondedAt!, b.respondedAt!));
    expect(r.receivedAt).toBeGreaterThanOrEqual(Math.max(a.respondedAt!, b.respondedAt!));
    expect(view(r).prompt).toContain('### a (explorer)\nfound a\n\n### b (explorer)\nfound b');
    const result = view(parentRequests()[1]!).lastTool;
    expect(result).toContain('r reviewer completed verdict=approve');
    expect(result.startsWith('[delegate_tasks: completed] 3 tasks (graph): 3 completed')).toBe(true);
  });

  it('runs two editors in parallel in separate worktrees and merges them back in plan order; the reviewer sees both diffs', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    route((req) => {
      if (req.task === 'e1') return req.turn === 0 ? { ...write('one.txt', 'first editor\n'), delayMs: 300 } : { text: 'wrote one.txt', delayMs: 200 };
      if (req.task === 'e2') return req.turn === 0 ? { ...write('two.txt', 'second editor\n'), delayMs: 300 } : { text: 'wrote two.txt' };
      if (req.task === 'r') return { text: 'VERDICT: problems\n1. one.txt:1 needs a newline at the end' };
      return req.turn === 0
        ? delegate([
            { id: 'e1', task: 'add one.txt', role: 'editor', depends_on: [] },
            { id: 'e2', task: 'add two.txt', role: 'editor', depends_on: [] },
            { id: 'r', task: 'review both', role: 'reviewer', depends_on: ['e1', 'e2'] },
          ])
        : { text: 'done' };
    });
    const run = await runSeek(['-p', 'build', '--yolo', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [e1, e2] = [firstRequest('e1'), firstRequest('e2')];
    expect(Math.max(e1.receivedAt, e2.receivedAt)).toBeLessThan(Math.min(e1.respondedAt!, e2.respondedAt!));
    // Each editor worked in its own worktree: the main tree got the files only through the merges.
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('first editor\n');
    expect(readFileSync(join(root, 'two.txt'), 'utf8')).toBe('second editor\n');
    expect(git(root, 'status', '--porcelain')).toBe('');
    const tasks = JSON.parse(run.stdout).orchestrations[0].tasks as Array<{ id: string; merge_commit?: string; verdict?: string }>;
    const [m1, m2] = [tasks[0]!.merge_commit!, tasks[1]!.merge_commit!];
    expect(m1).toMatch(/^[0-9a-f]{40}$/);
    // e2 finished first but merged second: e1's merge is an ancestor of e2's.
    expect(() => git(root, 'merge-base', '--is-ancestor', m1, m2)).not.toThrow();
    expect(git(root, 'log', '--first-parent', '--format=%s', '-2').trim().split('\n')).toEqual([expect.stringMatching(/^seek: merge worktree /), expect.stringMatching(/^seek: merge worktree /)]);
    const review = view(firstRequest('r')).prompt;
    expect(review).toContain('## Changes to review');
    expect(review).toContain('+first editor');
    expect(review).toContain('+second editor');
    expect(tasks[2]!.verdict).toBe('problems(1)');
    expect(git(root, 'worktree', 'list', '--porcelain')).not.toContain(home); // merged worktrees are removed
  });

  it("with uncommitted work in the main tree, parallel editors are told their worktrees start at HEAD, merges go around that work, and the model gets a note", async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    writeFileSync(join(root, 'README.md'), '# demo\n\nwork in progress\n');
    writeFileSync(join(root, 'scratch.txt'), 'my notes\n');
    route((req) => {
      if (req.task === 'e1') return req.turn === 0 ? write('one.txt', 'first editor\n') : { text: 'wrote one.txt' };
      if (req.task === 'e2') return req.turn === 0 ? write('two.txt', 'second editor\n') : { text: 'wrote two.txt' };
      return req.turn === 0
        ? delegate([
            { id: 'e1', task: 'add one.txt', role: 'editor', depends_on: [] },
            { id: 'e2', task: 'add two.txt', role: 'editor', depends_on: [] },
          ])
        : { text: 'done' };
    });
    const run = await runSeek(['-p', 'build', '--yolo', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).orchestrations[0].notes).toEqual([expect.stringMatching(/^the working tree had 2 uncommitted changes/)]);
    expect(view(firstRequest('e1')).prompt).toContain('which starts at the last commit (HEAD): uncommitted changes in the user\'s working tree are not in it');
    const result = view(parentRequests().at(-1)!).lastTool;
    expect(result.startsWith('[delegate_tasks: completed] 2 tasks (graph): 2 completed')).toBe(true);
    expect(result.split('\n').at(-1)).toBe(
      "note: the working tree had 2 uncommitted changes when the plan started; the editors' worktrees began at its HEAD without them, and their merges went into it around them (a merge that would overwrite them is refused)",
    );
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('first editor\n');
    expect(readFileSync(join(root, 'two.txt'), 'utf8')).toBe('second editor\n');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# demo\n\nwork in progress\n');
    expect(git(root, 'status', '--porcelain')).toBe(' M README.md\n?? scratch.txt\n');
  });

  it('a parent working in its own worktree gets editors based on its HEAD and merged into its worktree; the project is untouched', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    const mainHead = git(root, 'rev-parse', 'HEAD');
    let parentTurn = 0;
    route((req) => {
      if (req.task === 'e1') return req.turn === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'base.txt' } }] } : req.turn === 1 ? write('one.txt', 'one\n') : { text: 'wrote one.txt' };
      if (req.task === 'e2') return req.turn === 0 ? write('two.txt', 'two\n') : { text: 'wrote two.txt' };
      parentTurn += 1;
      if (parentTurn === 1) return { toolCalls: [{ name: 'enter_worktree', arguments: {} }] };
      if (parentTurn === 2) return { toolCalls: [{ name: 'bash', arguments: { command: "printf 'from the parent\\n' > base.txt && git add base.txt && git -c user.name=t -c user.email=t@t commit -qm base" } }] };
      if (parentTurn === 3) return delegate([{ id: 'e1', task: 'add one.txt', role: 'editor', depends_on: [] }, { id: 'e2', task: 'add two.txt', role: 'editor', depends_on: [] }]);
      return { text: 'done' };
    });
    const run = await runSeek(['-p', 'work isolated', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const worktree = /\[worktree: created path=(\S+)/.exec(suite.server.requests.map((r) => view(r).lastTool).find((t) => t.startsWith('[worktree: created'))!)![1]!;
    // e1 saw the parent's commit: its worktree started at the parent's HEAD.
    expect(view(lastRequest('e1')).messages.some((m) => m.role === 'tool' && String(m.content).includes('from the parent'))).toBe(true);
    expect(view(parentRequests().at(-1)!).lastTool.startsWith('[delegate_tasks: completed] 2 tasks (graph): 2 completed')).toBe(true);
    for (const [file, text] of [['base.txt', 'from the parent\n'], ['one.txt', 'one\n'], ['two.txt', 'two\n']]) expect(readFileSync(join(worktree, file!), 'utf8')).toBe(text);
    expect(git(worktree, 'log', '--first-parent', '--format=%s', '-3').trim().split('\n')).toEqual([expect.stringMatching(/^seek: merge worktree /), expect.stringMatching(/^seek: merge worktree /), 'base']);
    // The project itself: same commit, nothing new.
    expect(git(root, 'rev-parse', 'HEAD')).toBe(mainHead);
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(['base.txt', 'one.txt', 'two.txt'].some((file) => existsSync(join(root, file)))).toBe(false);
  });

  it('reports an editor merge conflict without damage: the first merge stands, the second editor keeps its worktree, its dependants skip', async () => {
    const { root, home } = makeProject({ 'shared.txt': 'base\n' });
    route((req) => {
      if (req.task === 'e1') return req.turn === 0 ? write('shared.txt', 'from e1\n') : { text: 'changed shared.txt' };
      if (req.task === 'e2') return req.turn === 0 ? write('shared.txt', 'from e2\n') : { text: 'changed shared.txt too' };
      if (req.task) return { text: 'should not run' };
      return req.turn === 0
        ? delegate([
            { id: 'e1', task: 'change shared', role: 'editor', depends_on: [] },
            { id: 'e2', task: 'change shared differently', role: 'editor', depends_on: [] },
            { id: 'check', task: 'check e2', role: 'reviewer', depends_on: ['e2'] },
          ])
        : { text: 'done' };
    });
    const run = await runSeek(['-p', 'edit', '--yolo', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(suite.server.requests.some((r) => view(r).task === 'check')).toBe(false);
    expect(readFileSync(join(root, 'shared.txt'), 'utf8')).toBe('from e1\n');
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(root, '.git', 'MERGE_HEAD'))).toBe(false);
    const result = view(parentRequests()[1]!).lastTool;
    expect(result).toContain('e2 editor failed reason=merge_conflict');
    expect(result).toContain('check reviewer skipped (e2 failed)');
    expect(result).toContain('[worktree: merge_conflict files=1]');
    expect(result).toContain('shared.txt');
    const e2 = JSON.parse(run.stdout).orchestrations[0].tasks[1];
    expect(readFileSync(join(e2.worktree_path, 'shared.txt'), 'utf8')).toBe('from e2\n');
  });

  it('a failed task skips only its dependants; independent branches complete', async () => {
    const { root, home } = makeProject();
    route((req) => {
      if (req.task === 'bad') return { httpError: { status: 500, message: 'model exploded' } };
      if (req.task) return { text: `ok ${req.task}` };
      return req.turn === 0
        ? delegate([
            { id: 'bad', task: 'x', role: 'explorer' },
            { id: 'good', task: 'y', role: 'explorer' },
            { id: 'after-bad', task: 'z', role: 'explorer', depends_on: ['bad'] },
            { id: 'after-good', task: 'w', role: 'explorer', depends_on: ['good'] },
          ])
        : { text: 'done' };
    });
    const run = await runSeek(['-p', 'go'], { cwd: root, env: env(home, { SEEK_MAX_RETRIES: '0' }) });
    expect(run.code).toBe(0);
    const result = view(parentRequests()[1]!).lastTool;
    expect(result.split('\n').slice(0, 5)).toEqual([
      '[delegate_tasks: partial] 4 tasks (graph): 2 completed, 1 failed, 1 skipped',
      'bad explorer failed reason=model_error turns=1 model_calls=0 tool_calls=0 tokens=0', // one turn attempted, no answer
      'good explorer completed turns=1 model_calls=1 tool_calls=0 tokens=1100',
      'after-bad explorer skipped (bad failed)',
      'after-good explorer completed turns=1 model_calls=1 tool_calls=0 tokens=1100',
    ]);
    expect(suite.server.requests.some((r) => view(r).task === 'after-bad')).toBe(false);
  });

  it('rejects a cycle before any child request', async () => {
    const { root, home } = makeProject();
    route((req) =>
      req.turn === 0
        ? delegate([
            { id: 'a', task: 'x', role: 'explorer', depends_on: ['b'] },
            { id: 'b', task: 'y', role: 'explorer', depends_on: ['a'] },
          ])
        : { text: 'I will fix the plan' },
    );
    const run = await runSeek(['-p', 'go'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(suite.server.requests).toHaveLength(2);
    expect(suite.server.requests.every((r) => view(r).task === undefined)).toBe(true);
    expect(view(suite.server.requests[1]!).lastTool).toBe(
      '[delegate_tasks: rejected] invalid plan, nothing was run: the dependencies form a cycle: a -> b -> a (each waits for the next)',
    );
  });

  it('resumes after the process was killed mid-plan without redoing finished tasks', async () => {
    const { root, home } = makeProject();
    route((req) => {
      if (req.task === 't1') return { text: 'first finding' };
      if (req.task === 't2') return { hang: true };
      if (req.task) return { text: 'never' };
      return req.turn === 0 ? delegate([{ task: 'one', role: 'explorer' }, { task: 'two', role: 'explorer' }, { task: 'three', role: 'explorer' }]) : { text: 'never' };
    });
    let sessionId = '';
    const killed = await runSeek(['-p', 'go', '--output-format', 'stream-json'], {
      cwd: root,
      env: env(home),
      onSpawn: (child) => {
        let buffer = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          sessionId ||= /"session_id":"([^"]+)"/.exec(buffer)?.[1] ?? '';
          if (buffer.includes('"task_id":"t2","status":"running"')) child.kill('SIGKILL');
        });
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(sessionId).not.toBe('');

    suite.server.reset();
    route((req) => {
      if (req.task) return { text: `fresh ${req.task}` };
      return { text: 'all three done' };
    });
    const resumed = await runSeek(['-p', 'continue', '--resume', sessionId, '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const tasksAsked = suite.server.requests.map((r) => view(r).task).filter(Boolean);
    expect(tasksAsked).toEqual(['t2', 't3']);
    expect(view(firstRequest('t2')).prompt).toContain('### t1 (explorer)\nfirst finding');
    // The parent's first request after resume holds the complete result of the interrupted call, then the new prompt.
    const parent = view(parentRequests()[0]!);
    const toolResult = parent.messages.filter((m) => m.role === 'tool').at(-1)!.content!;
    expect(toolResult).toContain('[delegate_tasks: completed] 3 tasks (serial): 3 completed');
    expect(toolResult).toContain('t1 explorer completed turns=1 model_calls=1 tool_calls=0 tokens=1100 reused');
    expect(parent.messages.at(-1)).toMatchObject({ role: 'user', content: 'continue' });
    expect(JSON.parse(resumed.stdout).result).toBe('all three done');
  });
});

describe('plan review in the plain interactive mode (ask mode, stdin not a terminal)', () => {
  const threeTasks = [
    { id: 'map', task: 'map the code', role: 'explorer' },
    { id: 'docs', task: 'read the docs', role: 'explorer' },
    { id: 'check', task: 'check the findings', role: 'explorer', depends_on: ['map', 'docs'] },
  ];

  it('shows the graph, drops a task and changes a role as typed, then runs only the edited plan', async () => {
    const { root, home } = makeProject();
    route((req) => {
      if (req.task) return { text: `finding of ${req.task} as ${req.role}` };
      return req.turn === 0 ? delegate(threeTasks) : { text: 'reviewed and ran' };
    });
    const run = await runSeek([], { cwd: root, env: env(home), input: 'study this\nd docs\nc check reviewer\nd nope\nr\n/exit\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('3 tasks, graph\n  map  explorer  map the code\n  docs  explorer  read the docs\n  check  explorer  check the findings  ← map, docs\n  runs as: [map ∥ docs] → check\n');
    expect(run.stdout).toContain('2 tasks, graph\n  map  explorer  map the code\n  check  reviewer  check the findings  ← map\n  runs as: map → check\n');
    expect(run.stdout).toContain('(not understood: use d ID, or c ID ROLE with a role of: explorer, editor, reviewer');
    expect(run.stdout).toContain('reviewed and ran');
    const tasksRun = suite.server.requests.map((r) => view(r)).filter((req) => req.task).map((req) => `${req.task}:${req.role}`);
    expect([...new Set(tasksRun)]).toEqual(['map:explorer', 'check:reviewer']);
  });

  it('a rejected plan runs nothing and the model is told the reason', async () => {
    const { root, home } = makeProject();
    route((req) => (req.turn === 0 && !req.task ? delegate(threeTasks) : { text: 'understood' }));
    const run = await runSeek([], { cwd: root, env: env(home), input: 'study this\nx too broad, ask me first\n/exit\n' });
    expect(run.code).toBe(0);
    expect(suite.server.requests.some((r) => view(r).task !== undefined)).toBe(false);
    expect(view(parentRequests().at(-1)!).lastTool).toBe('[delegate_tasks: rejected] the user rejected the plan: too broad, ask me first; nothing was run');
  });
});

describe('seek run', () => {
  it('runs a plan file headless and prints the result; an invalid plan file is refused with its line', async () => {
    const { root, home } = makeProject();
    writeFileSync(
      join(root, 'plan.yaml'),
      ['goal: Document the project', 'tasks:', '  - id: look', '    role: explorer', '    task: Read the README', '  - id: write', '    role: editor', '    task: Write NOTES.md', '    depends_on: [look]', ''].join('\n'),
    );
    route((req) => {
      if (req.task === 'look') return { text: 'The README is one heading.' };
      if (req.task === 'write') return req.turn === 0 ? write('NOTES.md', 'notes\n') : { text: 'wrote NOTES.md' };
      return { text: 'no model turn expected at the top' };
    });
    const run = await runSeek(['run', 'plan.yaml', '--yolo'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('[delegate_tasks: completed] 2 tasks (graph): 2 completed\n')).toBe(true);
    expect(suite.server.requests.every((r) => view(r).task !== undefined)).toBe(true); // no top-level model call
    expect(view(firstRequest('look')).prompt.startsWith('## Goal\nDocument the project\n\n## Your task (look, explorer)\nRead the README')).toBe(true);
    expect(readFileSync(join(root, 'NOTES.md'), 'utf8')).toBe('notes\n'); // a lone editor works in the working tree

    const requestsBefore = suite.server.requests.length;
    const dry = await runSeek(['run', 'plan.yaml', '--dry-run'], { cwd: root, env: env(home) });
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toBe('2 tasks, graph — goal: Document the project\n  look  explorer  Read the README\n  write  editor    Write NOTES.md  ← look\n  runs as: look → write\n');

    writeFileSync(join(root, 'bad.yaml'), 'goal: x\ntasks:\n  - role: explorer\n    task: a\n  - role: wizard\n    task: b\n');
    expect((await runSeek(['run', 'bad.yaml', '--dry-run'], { cwd: root, env: env(home) })).code).toBe(1);
    expect(suite.server.requests.length).toBe(requestsBefore); // a dry run asks no model
    const bad = await runSeek(['run', 'bad.yaml'], { cwd: root, env: env(home) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('seek: bad.yaml:5: task t2: unknown role "wizard" (roles: explorer, editor, reviewer, general-purpose, explore, plan)\n');
  });
});
