/**
 * What rewind covers beyond one session's own edits, through the real `seek` against the scripted
 * model: a child working in the main tree is rewound with its parent's turn; an isolated child's
 * worktree is checkpointed under the child's own session; a worktree merge into the main tree is
 * preceded by a checkpoint; files above `checkpoints.maxFileSize` are recorded, not copied, and a
 * rewind never silently overwrites or deletes one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { treeState } from '../support/tree-state.js';

const suite = useScriptedServer();
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });
const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });

interface Req {
  child: boolean;
  turn: number;
  lastTool: string;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Array<{ role: string; content?: string }>;
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  return {
    child: system.includes('\n# Subagent\n'),
    turn: messages.filter((m) => m.role === 'assistant').length,
    lastTool: String(messages.filter((m) => m.role === 'tool').at(-1)?.content ?? ''),
  };
}
function route(handler: (req: Req) => ScriptedReply): void {
  suite.server.setFallback((request) => handler(view(request)));
}

interface Listed {
  session_id: string;
  checkpoints: Array<{ turn: number; kind: string; root: string; prompt: string; not_restorable?: Array<{ path: string; size: number; sha256: string }> }>;
}
async function listing(root: string, home: string, ...extra: string[]): Promise<Listed> {
  const listed = await runSeek(['rewind', '--list', '--json', ...extra], { cwd: root, env: suite.env(home) });
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as Listed;
}

describe('rewind coverage', () => {
  it("rewinds a child's changes in the main tree with its parent's turn", async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
    const before = treeState(root);
    route((req) => {
      if (req.child) return req.turn === 0 ? call('bash', { command: 'echo child > child.txt && echo "export const a = 2;" > src/a.ts && rm README.md' }) : { text: 'child done' };
      return req.turn === 0 ? call('agent', { description: 'edit', prompt: 'edit things', subagent_type: 'general-purpose' }) : { text: 'done' };
    });
    const run = await runSeek(['-p', 'let a child edit', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(root, 'child.txt'), 'utf8')).toBe('child\n');
    expect(existsSync(join(root, 'README.md'))).toBe(false);

    const rewound = await runSeek(['rewind', '1', '--code'], { cwd: root, env: suite.env(home) });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(treeState(root)).toEqual(before);
  });

  it("checkpoints an isolated child's worktree under the child's own session, and rewinds it there", async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    route((req) => {
      if (req.child) return req.turn === 0 ? call('write_file', { path: 'feature.txt', content: 'from the child\n' }) : { text: 'wrote feature.txt' };
      return req.turn === 0 ? call('agent', { description: 'add feature', prompt: 'add feature.txt', subagent_type: 'general-purpose', isolation: 'worktree' }) : { text: 'the child is done' };
    });
    const run = await runSeek(['-p', 'add a feature in isolation', '--yolo', '--output-format', 'json'], { cwd: root, env: suite.env(home) });
    expect(run.code, run.stderr).toBe(0);
    const subSid = (JSON.parse(run.stdout) as { subagents: Array<{ id: string }> }).subagents[0]!.id;
    const worktree = /\n— worktree: (\S+) \(branch/.exec(view(suite.server.requests.at(-1)!).lastTool)?.[1];
    expect(worktree).toBeDefined();
    expect(readFileSync(join(worktree!, 'feature.txt'), 'utf8')).toBe('from the child\n');

    const child = await listing(root, home, '--session', subSid);
    expect(child.checkpoints).toEqual([expect.objectContaining({ turn: 1, kind: 'turn', root: worktree, prompt: 'add feature.txt' })]);
    // The ref is in the shared repository, under the child's id.
    expect(git(root, 'for-each-ref', '--format=%(refname)', `refs/seek/checkpoints/${subSid}/`)).toContain(`refs/seek/checkpoints/${subSid}/1`);

    const rewound = await runSeek(['rewind', '1', '--code', '--session', subSid], { cwd: root, env: suite.env(home) });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(existsSync(join(worktree!, 'feature.txt'))).toBe(false);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# demo\n');
  });

  it('takes a checkpoint of the main tree just before a worktree is merged into it', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    writeFileSync(join(root, 'notes.txt'), 'uncommitted work of the user\n');
    const headBefore = git(root, 'rev-parse', 'HEAD');
    let path = '';
    route((req) => {
      if (req.turn === 0) return call('enter_worktree', { branch: 'feature/merge' });
      if (req.turn === 1) {
        path = /\[worktree: created path=(\S+)/.exec(req.lastTool)?.[1] ?? '';
        return call('write_file', { path: 'merged.txt', content: 'from the worktree\n' });
      }
      if (req.turn === 2) return call('exit_worktree', { path, if_dirty: 'merge' });
      return { text: 'merged' };
    });
    const run = await runSeek(['-p', 'work in a worktree and merge it', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(root, 'merged.txt'), 'utf8')).toBe('from the worktree\n');
    const headAfter = git(root, 'rev-parse', 'HEAD');
    expect(headAfter).not.toBe(headBefore);

    const { checkpoints } = await listing(root, home);
    const merge = checkpoints.find((c) => c.kind === 'merge');
    expect(merge, JSON.stringify(checkpoints)).toMatchObject({ root, prompt: expect.stringMatching(/^merge of worktree /) });
    const conversation = await runSeek(['rewind', String(merge!.turn), '--conversation'], { cwd: root, env: suite.env(home) });
    expect(conversation.code).not.toBe(0);
    expect(conversation.stderr).toMatch(/taken before a merge, not at the start of a turn: only --code/);

    const rewound = await runSeek(['rewind', String(merge!.turn)], { cwd: root, env: suite.env(home) });
    expect(rewound.code, rewound.stderr).toBe(0);
    // The working tree is as it was before the merge; the merge commit stays in history.
    expect(existsSync(join(root, 'merged.txt'))).toBe(false);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('uncommitted work of the user\n');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(headAfter);
  });

  it('records files above checkpoints.maxFileSize by hash, leaves them alone on rewind, and never deletes one without --force', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ checkpoints: { maxFileSize: 1000 } }));
    writeFileSync(join(root, 'data.bin'), 'd'.repeat(5000));
    route((req) =>
      req.turn === 0 ? call('bash', { command: 'echo more >> data.bin && head -c 3000 /dev/zero > new-big.bin && echo small > small.txt && echo changed > README.md' }) : { text: 'done' },
    );
    const run = await runSeek(['-p', 'grow the data', '--yolo'], { cwd: root, env: suite.env(home) });
    expect(run.code, run.stderr).toBe(0);

    const [first] = (await listing(root, home)).checkpoints;
    expect(first!.not_restorable).toEqual([{ path: 'data.bin', size: 5000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // Nothing of the large file went into the repository's objects.
    const sha = first!.not_restorable![0]!.sha256;
    expect(git(root, 'ls-tree', '-r', '--name-only', `refs/seek/checkpoints/${(await listing(root, home)).session_id}/1`)).not.toContain('data.bin');
    expect(sha).toHaveLength(64);

    const refused = await runSeek(['rewind', '1', '--code'], { cwd: root, env: suite.env(home) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('new-big.bin (too large to checkpoint first');
    expect(refused.stderr).toMatch(/not restorable, left as they are.*\n\s+data\.bin \(/);
    expect(existsSync(join(root, 'new-big.bin'))).toBe(true);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('changed\n');

    const forced = await runSeek(['rewind', '1', '--code', '--force'], { cwd: root, env: suite.env(home) });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# demo\n');
    expect(existsSync(join(root, 'small.txt'))).toBe(false);
    expect(existsSync(join(root, 'new-big.bin'))).toBe(false);
    // The large file the checkpoint could not copy is as the turn left it.
    expect(readFileSync(join(root, 'data.bin'), 'utf8')).toBe(`${'d'.repeat(5000)}more\n`);
  });

  it('seek gc prunes the checkpoints of deleted sessions, then of old ones, and rewind says a pruned one is gone', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    // Uncommitted work, so each checkpoint is a commit of its own (not HEAD's).
    writeFileSync(join(root, 'draft.txt'), 'draft\n');
    route(() => ({ text: 'ok' }));
    const runs: string[] = [];
    for (const prompt of ['first session', 'second session']) {
      const run = await runSeek(['-p', prompt, '--output-format', 'json'], { cwd: root, env: suite.env(home) });
      expect(run.code, run.stderr).toBe(0);
      runs.push((JSON.parse(run.stdout) as { session_id: string }).session_id);
    }
    const [gone, kept] = runs as [string, string];
    const refsOf = (sid: string) => git(root, 'for-each-ref', '--format=%(refname)', `refs/seek/checkpoints/${sid}/`).split('\n').filter(Boolean);
    expect(refsOf(gone)).toHaveLength(2); // 1 and seen
    const sessions = join(home, 'projects', readdirSync(join(home, 'projects'))[0]!, 'sessions');
    rmSync(join(sessions, `${gone}.jsonl`));

    const dry = await runSeek(['gc', '--dry-run', '--json'], { cwd: root, env: suite.env(home) });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ dry_run: true, pruned: [{ session_id: gone, refs: 2, why: 'session gone' }], kept_refs: 2 });
    expect(refsOf(gone)).toHaveLength(2);

    const pruned = await runSeek(['gc'], { cwd: root, env: suite.env(home) });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`pruned 2 checkpoint refs of session ${gone} (session gone)`);
    expect(refsOf(gone)).toEqual([]);
    expect(refsOf(kept)).toHaveLength(2);

    const old = await runSeek(['gc', '--older-than', '0'], { cwd: root, env: suite.env(home) });
    expect(old.stdout).toContain(`of session ${kept} (session old)`);
    expect(refsOf(kept)).toEqual([]);
    git(root, 'reflog', 'expire', '--expire=now', '--all');
    git(root, 'gc', '--quiet', '--prune=now');
    const rewind = await runSeek(['rewind', '1', '--code', '--session', kept], { cwd: root, env: suite.env(home) });
    expect(rewind.code).toBe(1);
    expect(rewind.stderr).toContain('checkpoint 1 is no longer in the repository');
  });
});
