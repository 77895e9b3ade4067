/**
 * Memory through the real `seek` process against the scripted model server, with real files under
 * a temporary SEEK_HOME: remember, then a new session's first request; `seek memory` subcommands;
 * `seek distill` and `seek -dream` including answers that cannot be read.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectId } from '../../src/config/paths.js';
import { rememberEntry } from '../../src/memory/operations.js';
import { MemoryStore } from '../../src/memory/store.js';
import { WorktreeManager } from '../../src/worktree/manager.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { TmuxSeek } from '../support/tmux.js';

const suite = useScriptedServer();
const env = (home: string, extra: Record<string, string> = {}) => suite.env(home, { SEEK_MAX_RETRIES: '0', ...extra });
const system = (request: RecordedRequest): string => String((request.body.messages as Array<{ role: string; content: string }>)[0]?.content ?? '');
const messages = (request: RecordedRequest) => request.body.messages as Array<{ role: string; content?: string }>;
const turn = (request: RecordedRequest) => messages(request).filter((m) => m.role === 'assistant').length;
function route(handler: (request: RecordedRequest) => ScriptedReply): void {
  suite.server.setFallback((request) => ({ usage: { input: 500, output: 50 }, ...handler(request) }));
}
/** `seek memory add ARGS` in a real terminal (tmux), where $EDITOR may run (without one seek
 * refuses: faults-output.test.ts); the screen once seek exited. */
async function addInTerminal(cwd: string, environment: Record<string, string>, ...args: string[]): Promise<string> {
  const terminal = TmuxSeek.start({ cwd, env: environment, args: ['memory', 'add', ...args], width: 300 });
  try {
    return await terminal.waitFor(/\[seek exited \d+\]/);
  } finally {
    terminal.kill();
  }
}
const ENTRY = { name: 'use-pnpm', tagline: 'The repo uses pnpm workspaces', content: 'SECRET-DETAIL: npm hoisting broke the monorepo in March.', tags: ['tooling'] };

describe('memory end to end', () => {
  it('a remembered entry reaches the next session as name and tagline in user-role context, never its content', async () => {
    const { root, home } = makeProject();
    route((request) => (turn(request) === 0 ? { toolCalls: [{ name: 'memory_remember', arguments: ENTRY }] } : { text: 'remembered' }));
    const first = await runSeek(['-p', 'remember that we use pnpm', '--yolo'], { cwd: root, env: env(home) });
    expect(first.code).toBe(0);

    suite.server.reset();
    route(() => ({ text: 'ok' }));
    const second = await runSeek(['-p', 'what do you know?'], { cwd: root, env: env(home) });
    expect(second.code).toBe(0);
    const sent = messages(suite.server.requests[0]!);
    expect(sent[0]!.role).toBe('system');
    expect(sent[0]!.content).not.toContain('use-pnpm');
    const context = sent.find((m) => m.role === 'user' && m.content!.startsWith('<context source="memory.index">'))!;
    expect(context.content).toContain('### tooling\n- use-pnpm: The repo uses pnpm workspaces');
    expect(JSON.stringify(sent)).not.toContain('SECRET-DETAIL');
    expect(sent.at(-1)!.content!.startsWith('what do you know?')).toBe(true);
  });

  it("a session started inside a seek worktree uses the owner project's memory and sessions", async () => {
    const { root, home } = makeProject();
    const pid = projectId(root);
    await rememberEntry(new MemoryStore({ seekHome: home, projectId: pid, projectRoot: root }), ENTRY);
    const worktree = await new WorktreeManager({ projectRoot: root, seekHome: home, projectId: pid }).create();
    route(() => ({ text: 'ok' }));
    const run = await runSeek(['-p', 'hello', '--output-format', 'json'], { cwd: worktree.path, env: env(home) });
    expect(run.code).toBe(0);
    const index = messages(suite.server.requests[0]!).find((m) => m.content?.startsWith('<context source="memory.index">'));
    expect(index?.content).toContain('- use-pnpm: The repo uses pnpm workspaces');
    const sid = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    expect(existsSync(join(home, 'projects', pid, 'sessions', `${sid}.jsonl`))).toBe(true);
    expect(existsSync(join(home, 'projects', projectId(worktree.path)))).toBe(false);
  });

  it('seek memory: list with scores, show, search, pin, archive with a reason, restore, edit', async () => {
    const { root, home } = makeProject();
    const store = new MemoryStore({ seekHome: home, projectId: projectId(root), projectRoot: root });
    await rememberEntry(store, ENTRY);
    await rememberEntry(store, { name: 'api-errors', tagline: 'Errors are RFC 7807 problem documents', content: 'Every endpoint returns application/problem+json.' });
    const seek = (...args: string[]) => runSeek(['memory', ...args], { cwd: root, env: env(home, { EDITOR: "sed -i 's/problem documents/problem details/'" }) });

    const list = await seek('list', '--json');
    const rows = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.name, r.status, r.score, r.recall_count, r.age_days, r.stale])).toEqual([
      ['use-pnpm', 'active', 1, 0, 0, false],
      ['api-errors', 'active', 1, 0, 0, false],
    ]);
    expect((await seek('list')).stdout.split('\n')[0]).toBe('NAME        SCORE  RECALLS  AGE  FLAGS  TAGLINE');
    expect((await seek('show', 'use-pnpm')).stdout).toContain('SECRET-DETAIL');
    expect((await seek('search', 'rfc')).stdout).toContain('api-errors');
    expect((await seek('pin', 'use-pnpm')).stdout).toBe('pinned "use-pnpm"\n');
    expect((await seek('archive', 'api-errors', '--reason', 'we use gRPC status codes now')).stdout).toBe('archived "api-errors" (reason: we use gRPC status codes now)\n');
    const all = JSON.parse((await seek('list', '--all', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(all.find((r) => r.name === 'api-errors')).toMatchObject({ status: 'archived', archived_reason: 'we use gRPC status codes now' });
    expect((await seek('show', 'api-errors')).stdout).toContain('archived');
    expect((await seek('restore', 'api-errors')).stdout).toBe('restored "api-errors"\n');
    const edited = await seek('edit', 'api-errors');
    expect(edited.stdout).toBe('saved "api-errors"\n');
    expect((await store.load()).entries.find((e) => e.name === 'api-errors')!.tagline).toBe('Errors are RFC 7807 problem details');
    const missing = await seek('show', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('seek: no memory entry named "nope" (seek memory list --all)\n');
  });

  it('seek memory add: at once with flags (superseding an entry), in $EDITOR otherwise, never over an existing name', async () => {
    const { root, home } = makeProject();
    const store = new MemoryStore({ seekHome: home, projectId: projectId(root), projectRoot: root });
    await rememberEntry(store, ENTRY);
    const seek = (extra: Record<string, string>, ...args: string[]) => runSeek(['memory', 'add', ...args], { cwd: root, env: env(home, extra) });

    const direct = await seek({}, 'use-bun', '--tagline', 'The repo uses bun workspaces', '--content', 'pnpm was slow in CI.', '--tags', 'tooling, ci', '--supersedes', 'use-pnpm');
    expect(direct).toMatchObject({ code: 0, stdout: 'remembered "use-bun" (superseding "use-pnpm", now archived)\n' });
    const again = await seek({}, 'use-bun', '--tagline', 'x', '--content', 'y');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('seek: an entry named "use-bun" already exists (change it with: seek memory edit use-bun); nothing was saved\n');

    const prepared = join(root, '..', 'entry.md');
    writeFileSync(prepared, '---\nname: api-errors\ntagline: Errors are RFC 7807 problem details\ntags: [api]\n---\nEvery endpoint returns application/problem+json.\n');
    const edited = await addInTerminal(root, env(home, { EDITOR: `cp ${prepared}` }), 'api-errors');
    expect(edited).toContain('remembered "api-errors"\n[seek exited 0]');

    const loaded = await store.load();
    expect(loaded.entries.map((e) => [e.name, e.tagline, e.tags])).toEqual([
      ['use-bun', 'The repo uses bun workspaces', ['tooling', 'ci']],
      ['api-errors', 'Errors are RFC 7807 problem details', ['api']],
    ]);
    expect((await store.loadArchive()).entries.map((e) => [e.name, e.archived_reason])).toEqual([['use-pnpm', 'superseded by "use-bun"']]);

    // seek keeps the unusable text in a temp dir of its own: inside the test's dir, so it goes with it.
    const empty = await addInTerminal(root, env(home, { EDITOR: 'true', TMPDIR: join(root, '..') }), 'nothing-written');
    expect(empty).toMatch(/^seek: .*tagline.*; nothing was saved, your text is in \S+nothing-written\.md\n\[seek exited 1\]/);
  });

  it('seek distill proposes candidates: --json saves nothing, piped answers save what was approved, an unreadable answer saves nothing', async () => {
    const { root, home } = makeProject();
    route((request) => {
      if (system(request).startsWith('You extract durable project decisions')) {
        return {
          text: 'Here you go:\n```json\n[{"name":"use-pnpm","tagline":"The repo uses pnpm","content":"npm hoisting broke builds."},{"name":"Bad Name!","tagline":"x","content":"y"},{"name":"tests-first","tagline":"New code comes with tests","content":"Agreed in review."}]\n```',
        };
      }
      return { text: 'We decided to use pnpm because npm hoisting broke the build.' };
    });
    expect((await runSeek(['-p', 'why pnpm?'], { cwd: root, env: env(home) })).code).toBe(0);
    const store = new MemoryStore({ seekHome: home, projectId: projectId(root) });

    const json = await runSeek(['distill', '--json'], { cwd: root, env: env(home) });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.candidates.map((c: { name: string }) => c.name)).toEqual(['use-pnpm', 'tests-first']);
    expect(parsed.rejected).toHaveLength(1);
    expect(parsed.saved).toEqual([]);
    expect((await store.load()).entries).toEqual([]);
    const transcript = messages(suite.server.requests.at(-1)!).at(-1)!.content!;
    expect(transcript).toContain('=== conversation ===\nuser: why pnpm?');

    const reviewed = await runSeek(['distill'], { cwd: root, env: env(home), input: 'y\nn\n' });
    expect(reviewed.code).toBe(0);
    expect(reviewed.stdout).toMatch(/distill review done: 1 saved, 1 dropped \(<?\$[\d.]+\)\n$/);
    expect((await store.load()).entries.map((e) => [e.name, e.auto_sourced ?? false])).toEqual([['use-pnpm', false]]);

    suite.server.reset();
    route(() => ({ text: 'Sorry, I cannot produce JSON today.' }));
    const broken = await runSeek(['distill', '--json'], { cwd: root, env: env(home) });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe("seek: the model's answer was not a JSON list of candidates; nothing to review. It began: Sorry, I cannot produce JSON today.\n");
    expect((await store.load()).entries.map((e) => e.name)).toEqual(['use-pnpm']);
  });

  it('seek -dream previews, --write merges traits with two sources into Pending, an unreadable answer writes nothing', async () => {
    const one = makeProject();
    const home = one.home;
    const two = makeProject();
    for (const [root, name] of [[one.root, 'small-commits'], [two.root, 'commit-style']] as const) {
      await rememberEntry(new MemoryStore({ seekHome: home, projectId: projectId(root), projectRoot: root }), { name, tagline: 'Commits are small and tested', content: 'The user asked for small commits.' });
    }
    const labels = (await import('../../src/memory/dream-inputs.js')).gatherDreamInputs;
    const cited = [...(await labels(home)).labels];
    expect(cited).toHaveLength(2);
    route((request) =>
      system(request).startsWith('You study how one software developer works')
        ? { text: JSON.stringify([{ trait: 'Prefers small, tested commits', why: 'asked in two projects', sources: cited }, { trait: 'Likes Fridays', why: 'once', sources: [cited[0]] }]) }
        : { text: 'unexpected' },
    );
    const preview = await runSeek(['-dream'], { cwd: one.root, env: env(home) });
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('+ pending: Prefers small, tested commits');
    expect(preview.stdout).toContain('- not enough evidence (only one source): Likes Fridays');
    expect(preview.stdout).toContain('preview only: seek -dream --write saves it');
    expect(existsSync(join(home, 'soul.md'))).toBe(false);

    const write = await runSeek(['-dream', '--write'], { cwd: one.root, env: env(home) });
    expect(write.code).toBe(0);
    const soul = readFileSync(join(home, 'soul.md'), 'utf8');
    expect(soul).toMatch(/## Pending\n\n- \*\*Prefers small, tested commits\*\*\n  - why: asked in two projects\n  - sources: project:/);
    expect(soul).not.toContain('Likes Fridays');

    suite.server.reset();
    route(() => ({ text: 'no json here' }));
    writeFileSync(join(home, 'soul.md'), `${soul}\nhand-written line\n`);
    const broken = await runSeek(['-dream', '--write'], { cwd: one.root, env: env(home) });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("the model's answer was not a JSON list of traits; nothing was changed");
    expect(readFileSync(join(home, 'soul.md'), 'utf8')).toBe(`${soul}\nhand-written line\n`);
  });
});
