import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectId } from '../../src/config/paths.js';
import { rememberEntry } from '../../src/memory/operations.js';
import { MemoryStore } from '../../src/memory/store.js';
import { WorktreeManager } from '../../src/worktree/manager.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { waitUntil } from '../support/tmux.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

describe.skipIf(!hasTmux)('terminal UI in tmux', () => {
  it('streams a Markdown answer and shows model, cost and mode in the status bar', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ text: '# Result\n\nThe answer is **42**.\n\n```ts\nconst answer = 42;\n```\n', chunkDelayMs: 5 });
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('what is the answer?');
    t.keys('Enter');
    // The code line and the status bar under it (a screen read between two writes may hold only the first).
    const screen = await t.waitFor(/const answer = 42;[\s\S]*\$\d/);
    expect(screen).toContain('what is the answer?');
    expect(screen).toContain('Result');
    expect(screen).not.toContain('# Result'); // rendered, not raw
    expect(screen).not.toContain('**42**');
    expect(screen).toMatch(/deepseek-v4-flash/);
    expect(screen).toMatch(/\$\d/);
    expect(screen).toMatch(/\bask\b/);
  });

  it('shows the diff of a write and applies it when approved', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'hello world\n' } }] }, { text: 'Created hello.txt.' });
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('create hello.txt');
    t.keys('Enter');
    const prompt = await t.waitFor('Allow create hello.txt?');
    expect(prompt).toContain('+hello world');
    expect(prompt).toMatch(/always/i);
    await t.answer('y', 'Created hello.txt.');
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('hello world\n');
  });

  it('denies a bash call when the user says no; the turn stops there and the denial goes with the next message', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch made-by-bash' } }] }, { text: 'Understood, not running it.' });
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('make a file');
    t.keys('Enter');
    const prompt = await t.waitFor('$ touch made-by-bash');
    expect(prompt).toContain(root);
    await t.answer('n', /⊘ bash touch made-by-bash[\s\S]*ask seek/);
    expect(h.server.requests).toHaveLength(1); // the model was not asked to carry on by itself
    t.type('fine, skip it');
    t.keys('Enter');
    await t.waitFor('Understood, not running it.');
    expect(existsSync(join(root, 'made-by-bash'))).toBe(false);
    const messages = h.server.requests[1]!.body.messages;
    expect(messages.at(-2).content).toMatch(/declined/);
    expect(messages.at(-1)).toMatchObject({ role: 'user', content: 'fine, skip it' });
  });

  it('shows every line of a 10-line command in the approval box at 80x24, the last one included', async () => {
    const { root, home } = makeProject();
    const lines = [...Array.from({ length: 9 }, (_, index) => `echo "step ${index + 1}" >> build.log`), 'rm -rf something-marker'];
    h.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: lines.join('\n') } }] }, { text: 'Left it alone.' });
    const t = h.start(root, home, { width: 80, height: 24 });
    await t.waitFor('ask seek');
    t.type('clean up');
    t.keys('Enter');
    const prompt = await t.waitFor('> rm -rf something-marker');
    expect(prompt).toContain(`$ ${lines[0]}`);
    for (const line of lines.slice(1)) expect(prompt).toContain(`> ${line}`);
    expect(prompt).not.toMatch(/more below/); // it fits: no scrolling needed
    expect(prompt).toContain('adds bash(<the command above>)');
    expect(prompt).toMatch(/n\) No/);
    await t.answer('n', /⊘ bash/);
  });

  it('cancels a long turn with Esc and carries on with the next prompt', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ hang: true }, { text: 'second answer' });
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('this will hang');
    t.keys('Enter');
    await t.waitFor('esc to cancel');
    await waitUntil(() => h.server.requests.length === 1, 'the hanging request reached the server'); // else Esc cancels before it is sent
    t.keys('Escape');
    await t.waitFor('cancelled');
    t.type('try again');
    t.keys('Enter');
    await t.waitFor('second answer');
    const last = h.server.requests.at(-1)!.body.messages;
    expect(last.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual(['this will hang', 'try again']);
  });

  it('resumes an earlier session with /resume', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ text: 'remembered answer' });
    const first = await runSeek(['-p', 'the earlier question'], { cwd: root, env: h.env(home) });
    expect(first.code).toBe(0);
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('/resume');
    t.keys('Enter');
    await t.waitFor('Resume a session');
    await t.waitFor('the earlier question');
    t.keys('Enter');
    await t.waitFor('remembered answer');
    h.server.enqueue({ text: 'continued' });
    t.type('and now?');
    t.keys('Enter');
    await t.waitFor('continued');
    const contents = h.server.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content);
    expect(contents.slice(1)).toEqual(['the earlier question', 'remembered answer', 'and now?']);
  });

  it('compacts automatically when a long session fills the window', async () => {
    const { root, home } = makeProject();
    h.server.enqueue(
      { toolCalls: [{ name: 'list_dir', arguments: {} }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }], usage: { input: 900_000, output: 10 } },
      { text: 'Summary: the user asked to read the README; it was read. Next: answer.' },
      { text: 'All done after compaction.' },
    );
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('read the readme');
    t.keys('Enter');
    const screen = await t.waitFor('All done after compaction.');
    expect(screen).toMatch(/compacted/i);
    expect(h.server.requests[2]!.body.tools ?? []).toEqual([]);
  });

  it('cycles the permission mode with shift+tab', async () => {
    const { root, home } = makeProject();
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.keys('BTab');
    await t.waitFor('auto (sandboxed)');
    t.keys('BTab');
    await t.waitFor(/\byolo\b/);
    t.keys('BTab');
    await t.waitFor('plan (read-only)');
  });
  it('/memory lists the entries; p pins one and a archives another with a typed reason', async () => {
    const { root, home } = makeProject();
    const store = new MemoryStore({ seekHome: home, projectId: projectId(root), projectRoot: root });
    await rememberEntry(store, { name: 'use-pnpm', tagline: 'The repo uses pnpm workspaces', content: 'Hoisting broke npm.', tags: ['tooling'] });
    await rememberEntry(store, { name: 'old-api', tagline: 'Errors are plain strings', content: 'Before RFC 7807.', tags: ['api'] });
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('/memory');
    t.keys('Enter');
    const panel = await t.waitFor(/2 active · 0 stale · 0 archived/); // loaded, not just opened
    expect(panel).toContain('use-pnpm');
    expect(panel).toContain('Errors are plain strings');
    expect(panel).toMatch(/2 active · 0 stale · 0 archived/);
    await t.waitFor(/❯ old-api/); // sorted by name: old-api first
    t.type('a');
    await t.waitFor('archive old-api: why?');
    t.type('replaced by problem details');
    t.keys('Enter');
    await t.waitFor(/1 active · 0 stale · 1 archived/);
    t.keys('Up');
    await t.waitFor(/❯ use-pnpm/);
    t.type('p');
    await t.waitFor(/\[pinned\]/);
    const entries = readFileSync(join(home, 'projects', projectId(root), 'memory.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((e) => [e.name, e.pinned ?? false])).toEqual([['use-pnpm', true]]);
    const archived = JSON.parse(readFileSync(join(home, 'projects', projectId(root), 'archived.jsonl'), 'utf8').trim()) as Record<string, unknown>;
    expect(archived).toMatchObject({ name: 'old-api', archived_reason: 'replaced by problem details' });
  });

  it('shows a delegate_tasks plan for review; d drops the selected task and enter runs the rest', async () => {
    const { root, home } = makeProject();
    h.server.setFallback((request) => {
      const messages = request.body.messages as Array<{ role: string; content?: string }>;
      const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
      const task = /^## Your task \(([^,]+),/m.exec(prompt)?.[1];
      if (task) return { text: `finding of ${task}` };
      if (messages.some((m) => m.role === 'tool')) return { text: 'the plan ran' };
      return {
        toolCalls: [{ name: 'delegate_tasks', arguments: { tasks: [
          { id: 'map', task: 'map the code', role: 'explorer' },
          { id: 'docs', task: 'read the docs', role: 'explorer' },
        ] } }],
      };
    });
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('study this');
    t.keys('Enter');
    const review = await t.waitFor('Run this plan?');
    expect(review).toContain('map the code');
    expect(review).toContain('read the docs');
    expect(review).toContain('runs as: map → docs');
    t.type('d');
    await t.waitFor('dropped map');
    t.keys('Enter');
    await t.waitFor('the plan ran');
    const ran = h.server.requests.map((r) => /^## Your task \(([^,]+),/m.exec(String((r.body.messages as Array<{ role: string; content?: string }>).find((m) => m.role === 'user')?.content ?? ''))?.[1]).filter(Boolean);
    expect(ran).toEqual(['docs']);
  });
  it('/worktrees shows a worktree with its changes, opens its diff, and merges it into the working tree', async () => {
    const { root, home } = makeProject();
    const worktree = await new WorktreeManager({ projectRoot: root, seekHome: home, projectId: projectId(root) }).create();
    writeFileSync(join(worktree.path, 'feature.txt'), 'made in the worktree\n');
    const t = h.start(root, home);
    await t.waitFor('ask seek');
    t.type('/worktrees');
    t.keys('Enter');
    const panel = await t.waitFor(worktree.id); // loaded, not just opened
    expect(panel).toContain('m merge');
    expect(panel).toContain(worktree.branch);
    t.type('d');
    await t.waitFor('+made in the worktree');
    t.keys('Escape');
    await t.waitFor('m merge');
    t.type('m');
    await t.waitFor(`merge ${worktree.id} into the current branch? y/n`);
    t.type('y');
    await t.waitFor(`merged ${worktree.branch}`);
    expect(readFileSync(join(root, 'feature.txt'), 'utf8')).toBe('made in the worktree\n');
    expect(existsSync(worktree.path)).toBe(false);
  });
  it('seek -w starts in a fresh worktree: the status bar shows its branch, a write lands only there, /clear stays in it', async () => {
    const { root, home } = makeProject();
    h.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'wt.txt', content: 'isolated\n' } }] }, { text: 'Wrote wt.txt.' });
    const t = h.start(root, home, { args: ['-w', '--yolo'] });
    const screen = await t.waitFor(/⎇ seek\/wt\/\d{8}-\d{6}-[0-9a-f]{6}/);
    t.type('write it');
    t.keys('Enter');
    await t.waitFor('Wrote wt.txt.');
    expect(existsSync(join(root, 'wt.txt'))).toBe(false);
    const worktrees = join(home, 'projects', projectId(root), 'worktrees');
    const id = /⎇ seek\/wt\/(\S+)/.exec(screen)![1]!;
    expect(readFileSync(join(worktrees, id, 'wt.txt'), 'utf8')).toBe('isolated\n');

    // /clear starts a new conversation in the same worktree.
    t.type('/clear');
    t.keys('Enter');
    const cleared = await t.waitFor('new conversation · session');
    expect(cleared).toContain(`⎇ seek/wt/${id}`);
    expect(readdirSync(worktrees).filter((name) => !name.endsWith('.json'))).toEqual([id]);
  });
});
