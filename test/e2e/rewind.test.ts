import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';
import { treeState } from '../support/tree-state.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function env(home: string) {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' };
}

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** What must stay as it was: the index file's bytes, HEAD, the stash, branches. */
function gitState(root: string) {
  return {
    index: readFileSync(join(root, '.git', 'index')).toString('base64'),
    head: git(root, 'rev-parse', 'HEAD'),
    stash: git(root, 'stash', 'list'),
    branches: git(root, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'),
  };
}

/** A turn that edits a tracked file (edit_file), then with bash creates an untracked file and an
 * ignored one, deletes a tracked file and makes one executable. */
function changingTurn(): void {
  server.enqueue(
    { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'README.md', old_string: '# demo', new_string: '# demo, edited' } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: 'printf "made\\n" > made.txt && rm gone.txt && chmod +x run.sh && echo noise > build.log' } }] },
    { text: 'Done.' },
  );
}

async function seek(root: string, home: string, ...args: string[]) {
  return runSeek(args, { cwd: root, env: env(home), timeoutMs: 60_000 });
}

function sessionFiles(home: string): string[] {
  const projects = join(home, 'projects');
  return readdirSync(projects)
    .map((pid) => join(projects, pid, 'sessions'))
    .filter(existsSync)
    .flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f)));
}

const sessionCount = (home: string): number => sessionFiles(home).length;

const PROJECT = { 'README.md': '# demo\n', 'gone.txt': 'to be deleted\n', 'run.sh': 'echo run\n', '.gitignore': '*.log\n' };

describe('seek rewind', () => {
  it('rewinds a turn exactly (edits, bash-made files, deletions, modes), dry-runs without change, and undoes the restore', async () => {
    const { root, home } = makeProject(PROJECT);
    // Work in progress the user has: a staged edit.
    writeFileSync(join(root, 'run.sh'), 'echo run staged\n');
    git(root, 'add', 'run.sh');
    const before = treeState(root);
    const git0 = gitState(root);

    changingTurn();
    const run = await seek(root, home, '-p', 'change things', '--yolo');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const after = treeState(root);
    expect(after['made.txt']).toBeDefined();
    expect(after['gone.txt']).toBeUndefined();
    expect(after['run.sh']!.startsWith('755:')).toBe(true);

    const listed = await seek(root, home, 'rewind', '--list', '--json');
    expect(listed.code).toBe(0);
    const listing = JSON.parse(listed.stdout) as { session_id: string; checkpoints: Array<{ turn: number; prompt: string; ref: string; changed_since: Array<{ path: string; added?: number; removed?: number }> }> };
    expect(listing.checkpoints).toHaveLength(1);
    const [first] = listing.checkpoints;
    expect(first).toMatchObject({ turn: 1, prompt: 'change things', ref: `refs/seek/checkpoints/${listing.session_id}/1` });
    expect(first!.changed_since.map((r) => r.path).sort()).toEqual(['README.md', 'gone.txt', 'made.txt', 'run.sh']);
    expect(first!.changed_since.find((r) => r.path === 'made.txt')).toMatchObject({ added: 1, removed: 0 });
    const text = await seek(root, home, 'rewind', '--list');
    expect(text.stdout).toContain('change things');
    expect(text.stdout).toMatch(/\+1 −1\s+README\.md/);

    const sessionBytes = readFileSync(sessionFiles(home)[0]!, 'utf8');
    const dry = await seek(root, home, 'rewind', '1', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('delete made.txt');
    expect(dry.stdout).toContain('restore gone.txt');
    expect(treeState(root)).toEqual(after);
    expect(readFileSync(sessionFiles(home)[0]!, 'utf8')).toBe(sessionBytes);
    expect(sessionCount(home)).toBe(1);
    expect(git(root, 'for-each-ref', 'refs/seek/checkpoints/').split('\n').filter(Boolean)).toHaveLength(2); // 1 and seen

    const rewind = await seek(root, home, 'rewind', '1', '--code');
    expect(rewind.stderr).toBe('');
    expect(rewind.code).toBe(0);
    expect(rewind.stdout).toContain('seek rewind 2 --code');
    // Byte-identical tree and modes; the ignored file the turn made is left alone.
    expect({ ...treeState(root), 'build.log': undefined }).toEqual(before);
    expect(readFileSync(join(root, 'build.log'), 'utf8')).toBe('noise\n');
    expect(gitState(root)).toEqual(git0);
    expect(sessionCount(home)).toBe(1); // code only: no fork

    const undo = await seek(root, home, 'rewind', '2', '--code');
    expect(undo.code).toBe(0);
    expect(treeState(root)).toEqual(after);
    expect(gitState(root)).toEqual(git0);
  });

  it('refuses to overwrite a file edited outside seek since the turn, unless forced', async () => {
    const { root, home } = makeProject(PROJECT);
    changingTurn();
    expect((await seek(root, home, '-p', 'change things', '--yolo')).code).toBe(0);
    writeFileSync(join(root, 'README.md'), '# my own edit\n');
    const edited = treeState(root);

    const refused = await seek(root, home, 'rewind', '1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('README.md');
    expect(refused.stderr).toContain('--force');
    expect(treeState(root)).toEqual(edited);
    expect(sessionCount(home)).toBe(1);

    // Never while another live seek process has the session open (its owner file names it).
    const sessionFile = sessionFiles(home)[0]!;
    const owner = sessionFile.replace(/\.jsonl$/, '.owner.json');
    writeFileSync(owner, JSON.stringify({ pid: process.pid, hostname: hostname(), since: new Date().toISOString(), token: 'test' }));
    const busy = await seek(root, home, 'rewind', '1', '--force', '--code');
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`is open in seek process ${process.pid}`);
    expect(treeState(root)).toEqual(edited);
    rmSync(owner);

    const forced = await seek(root, home, 'rewind', '1', '--force', '--code');
    expect(forced.code).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# demo\n');
    // The edit is in the pre-restore checkpoint: undoing the rewind brings it back.
    expect((await seek(root, home, 'rewind', '2', '--code')).code).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# my own edit\n');
  });

  it('rewinds the conversation only, as a fork that --resume continues, leaving the original session as it was', async () => {
    const { root, home } = makeProject(PROJECT);
    server.enqueue({ text: 'first answer' });
    expect((await seek(root, home, '-p', 'first question')).code).toBe(0);
    changingTurn();
    expect((await seek(root, home, '-c', '-p', 'second question', '--yolo')).code).toBe(0);
    const changed = treeState(root);
    const original = JSON.parse((await seek(root, home, 'rewind', '--list', '--json')).stdout) as { session_id: string };
    const originalFile = sessionFiles(home).find((f) => f.endsWith(`${original.session_id}.jsonl`))!;
    const originalBytes = readFileSync(originalFile, 'utf8');

    const conv = await seek(root, home, 'rewind', '2', '--conversation');
    expect(conv.code).toBe(0);
    const forkId = /new session (\S+)/.exec(conv.stdout)?.[1];
    expect(forkId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(treeState(root)).toEqual(changed); // the code stays
    expect(sessionCount(home)).toBe(2);

    server.enqueue({ text: 'third answer' });
    const resumed = await seek(root, home, '--resume', forkId!, '-p', 'third question');
    expect(resumed.stdout).toBe('third answer\n');
    const contents = server.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(contents).toContain('first question');
    expect(contents).not.toContain('second question');

    // The original session is untouched; the fork carries its first checkpoint and adds its own.
    expect(readFileSync(originalFile, 'utf8')).toBe(originalBytes);
    const listed = JSON.parse((await seek(root, home, 'rewind', '--list', '--json')).stdout) as { session_id: string };
    expect(listed.session_id).toBe(forkId); // the fork is now the newest
    const fork = JSON.parse((await seek(root, home, 'rewind', '--list', '--json', '--session', forkId!)).stdout) as { checkpoints: Array<{ turn: number; prompt: string }> };
    expect(fork.checkpoints.map((c) => [c.turn, c.prompt])).toEqual([[1, 'first question'], [2, 'third question']]);
  });

  it('checkpoints and rewinds a project that is not a git repository through a shadow repository', async () => {
    const base = tempDir('seek-rewind-plain-');
    const root = join(base, 'project');
    const home = join(base, 'home');
    mkdirSync(root);
    mkdirSync(home);
    writeFileSync(join(root, 'README.md'), '# demo\n');
    writeFileSync(join(root, 'gone.txt'), 'to be deleted\n');
    writeFileSync(join(root, 'run.sh'), 'echo run\n');
    const before = treeState(root);
    changingTurn();
    const run = await seek(root, home, '-p', 'change things', '--yolo');
    expect(run.code).toBe(0);
    expect(treeState(root)['made.txt']).toBeDefined();

    const rewind = await seek(root, home, 'rewind', '1');
    expect(rewind.stderr).toBe('');
    expect(rewind.code).toBe(0);
    // No .gitignore here, so build.log is an ordinary file the turn made: the rewind (code and
    // conversation, the default) removes it with the rest.
    expect(treeState(root)).toEqual(before);
    expect(existsSync(join(root, '.git'))).toBe(false);
    // Turn 1's fork holds no history yet; resuming it starts over from the same tree.
    const forkId = /new session (\S+)/.exec(rewind.stdout)?.[1];
    expect(forkId).toBeDefined();
    server.enqueue({ text: 'fresh start' });
    const resumed = await seek(root, home, '--resume', forkId!, '-p', 'try again');
    expect(resumed.stdout).toBe('fresh start\n');
    const contents = server.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(contents).toContain('try again');
    expect(contents).not.toContain('change things');
  });
});
