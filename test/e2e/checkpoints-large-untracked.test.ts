/**
 * Checkpoints in a repository with a large untracked directory (issue 38): the directory is left
 * out of every checkpoint with one notice per session, every turn still gets its checkpoint, a
 * rewind restores tracked and small untracked files and leaves the directory alone, and the
 * user's .git/config and index are never changed. The cap is set small (checkpoints.maxUntrackedFiles
 * in SEEK_HOME/config.json) so the directory stays small too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const suite = useScriptedServer();

const CAP = 2_000;
const GENERATED = 2_100;
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

function project(): { root: string; home: string } {
  const made = makeProject({ 'README.md': '# demo\n', 'src/app.ts': 'export const app = 1;\n' });
  writeFileSync(join(made.home, 'config.json'), JSON.stringify({ checkpoints: { maxUntrackedFiles: CAP } }));
  for (let i = 0; i < GENERATED; i++) {
    const dir = join(made.root, 'generated', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.txt`), `${i}\n`);
  }
  writeFileSync(join(made.root, 'notes.txt'), 'my notes\n');
  return made;
}

async function seek(root: string, home: string, ...args: string[]) {
  return runSeek(args, { cwd: root, env: suite.env(home), timeoutMs: 120_000 });
}

/** The session file's checkpoint events (one session in `home`). */
function checkpointEvents(home: string): Array<{ name: string; data: { turn: number; kind?: string; commit?: string; leftOut?: Array<{ path: string; scope: string }> } }> {
  const projects = join(home, 'projects');
  const files = readdirSync(projects)
    .map((pid) => join(projects, pid, 'sessions'))
    .filter(existsSync)
    .flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f)));
  expect(files).toHaveLength(1);
  return readFileSync(files[0]!, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; name?: string; data?: unknown })
    .filter((entry) => entry.type === 'event' && entry.name?.startsWith('checkpoint'))
    .map((entry) => ({ name: entry.name!, data: entry.data as { turn: number; kind?: string; commit?: string } }));
}

/** A turn that edits README.md, writes a new small file and adds a file to generated/. */
function changingTurn(n: number): void {
  suite.server.enqueue(
    { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'README.md', old_string: n === 1 ? '# demo' : `# demo ${n - 1}`, new_string: `# demo ${n}` } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: `printf "turn ${n}\\n" > made-${n}.txt && printf "late\\n" > generated/late-${n}.txt` } }] },
    { text: `turn ${n} done` },
  );
}

const NOTICE = 'checkpoints leave out the untracked directory generated/';

describe('checkpoints with a large untracked directory', () => {
  it('checkpoints every turn without it, notices it once per session, and leaves .git/config and the index as they were', async () => {
    const { root, home } = project();
    const config = readFileSync(join(root, '.git', 'config'));
    const index = readFileSync(join(root, '.git', 'index'));

    const runs = [];
    for (let n = 1; n <= 3; n++) {
      changingTurn(n);
      const run = await seek(root, home, '-p', ...(n > 1 ? ['-c'] : []), `turn ${n}`, '--yolo');
      expect(run.code, run.stderr).toBe(0);
      runs.push(run);
    }
    // The notice: in the first process, once; not again when the session is continued.
    expect(runs[0]!.stderr.split(NOTICE).length - 1).toBe(1);
    expect(runs[0]!.stderr).toContain('checkpoints.maxUntrackedFiles');
    expect(runs[1]!.stderr + runs[2]!.stderr).not.toContain(NOTICE);

    const events = checkpointEvents(home);
    expect(events.map((e) => e.name)).toEqual(['checkpoint', 'checkpoint', 'checkpoint']);
    expect(events.map((e) => [e.data.turn, e.data.kind])).toEqual([
      [1, 'turn'],
      [2, 'turn'],
      [3, 'turn'],
    ]);
    for (const event of events) expect(event.data.leftOut).toEqual([expect.objectContaining({ path: 'generated/', scope: 'tree' })]);
    const third = git(root, 'ls-tree', '-r', '--name-only', events[2]!.data.commit!).split('\n').filter(Boolean);
    expect(third.filter((path) => path.startsWith('generated/'))).toEqual([]);
    expect(third).toEqual(expect.arrayContaining(['README.md', 'src/app.ts', 'notes.txt', 'made-1.txt', 'made-2.txt']));

    expect(readFileSync(join(root, '.git', 'config'))).toEqual(config);
    expect(readFileSync(join(root, '.git', 'index'))).toEqual(index);
  }, 600_000);

  it('rewinds tracked and small untracked files, and leaves the left-out directory as it is', async () => {
    const { root, home } = project();
    changingTurn(1);
    expect((await seek(root, home, '-p', 'turn 1', '--yolo')).code).toBe(0);
    changingTurn(2);
    expect((await seek(root, home, '-p', '-c', 'turn 2', '--yolo')).code).toBe(0);
    writeFileSync(join(root, 'notes.txt'), 'my notes, edited in turn 2\n');
    const generatedBefore = readdirSync(join(root, 'generated'));

    const rewind = await seek(root, home, 'rewind', '2', '--code', '--force');
    expect(rewind.code, rewind.stderr).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# demo 1\n');
    expect(readFileSync(join(root, 'made-1.txt'), 'utf8')).toBe('turn 1\n');
    expect(existsSync(join(root, 'made-2.txt'))).toBe(false);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('my notes\n');
    // Nothing under generated/ is deleted or written: the checkpoint never had it.
    expect(readdirSync(join(root, 'generated'))).toEqual(generatedBefore);
    expect(readFileSync(join(root, 'generated', 'late-1.txt'), 'utf8')).toBe('late\n');
    expect(readFileSync(join(root, 'generated', 'late-2.txt'), 'utf8')).toBe('late\n');
    expect(readFileSync(join(root, 'generated', 'd0', 'f0.txt'), 'utf8')).toBe('0\n');
  }, 600_000);
});
