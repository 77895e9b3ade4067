import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureProjectManifest,
  findProjectRoot,
  manifestFile,
  projectDir,
  projectId,
  projectIdentity,
  resolveProject,
  seekHome,
  sessionFile,
  sessionsDir,
  subagentDir,
  subagentTranscriptFile,
  worktreesDir,
} from '../../../src/config/paths.js';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'seek-paths-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('seekHome', () => {
  it('uses SEEK_HOME when set, made absolute', () => {
    expect(seekHome({ SEEK_HOME: '/tmp/custom-seek' })).toBe('/tmp/custom-seek');
    expect(seekHome({ SEEK_HOME: 'rel/home' })).toBe(join(process.cwd(), 'rel/home'));
  });
  it('falls back to ~/.seek when unset or empty', () => {
    expect(seekHome({})).toBe(join(homedir(), '.seek'));
    expect(seekHome({ SEEK_HOME: '  ' })).toBe(join(homedir(), '.seek'));
  });
});

describe('findProjectRoot', () => {
  it('finds the git top level from a nested directory, agreeing with git', () => {
    const repo = join(base, 'repo');
    mkdirSync(join(repo, 'a', 'b', 'c'), { recursive: true });
    git(repo, 'init', '-q');
    const nested = join(repo, 'a', 'b', 'c');
    expect(findProjectRoot(nested)).toBe(repo);
    expect(findProjectRoot(nested)).toBe(git(nested, 'rev-parse', '--show-toplevel'));
  });

  it('treats a .git file (linked worktree) as the top level of that worktree', () => {
    const repo = join(base, 'wt-main');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'init');
    const linked = join(base, 'wt-linked');
    git(repo, 'worktree', 'add', '-q', linked);
    mkdirSync(join(linked, 'src'));
    expect(findProjectRoot(join(linked, 'src'))).toBe(linked);
    expect(findProjectRoot(join(linked, 'src'))).toBe(git(join(linked, 'src'), 'rev-parse', '--show-toplevel'));
  });

  it('returns the real cwd outside any repository', () => {
    const plain = join(base, 'plain', 'dir');
    mkdirSync(plain, { recursive: true });
    // tmpdir has no .git above it in a sane environment; guard so the test states its assumption.
    expect(() => git(plain, 'rev-parse', '--show-toplevel')).toThrow();
    expect(findProjectRoot(plain)).toBe(plain);
  });
});

describe('projectId', () => {
  it('is the first 16 hex of sha256 of the absolute root path', () => {
    const root = join(base, 'id-hash');
    mkdirSync(root);
    const expected = createHash('sha256').update(root).digest('hex').slice(0, 16);
    expect(projectId(root)).toBe(expected);
  });

  it('never takes its id from <root>/.seek/project-id alone: a pointer without a matching record is ignored', () => {
    const root = join(base, 'id-pointer');
    const home = join(base, 'home-id-pointer');
    const hash = createHash('sha256').update(root).digest('hex').slice(0, 16);
    mkdirSync(join(root, '.seek'), { recursive: true });
    writeFileSync(join(root, '.seek', 'project-id'), '0123456789abcdef\n');
    // Without a home nothing can be checked; with one that has no record of the id, neither.
    expect(projectId(root)).toBe(hash);
    expect(projectIdentity(root, home)).toEqual({ pid: hash, ignoredPointer: { id: '0123456789abcdef', reason: 'seek has no record of a project 0123456789abcdef' } });
    // A record naming another directory (the project the id really belongs to).
    mkdirSync(join(home, 'projects', '0123456789abcdef'), { recursive: true });
    const record = (absPath: string, id = '0123456789abcdef') =>
      writeFileSync(manifestFile(home, id), JSON.stringify({ schema_version: 1, project_id: id, abs_path: absPath, first_seen: 'x', last_seen: 'x' }));
    record('/somewhere/else');
    expect(projectIdentity(root, home).pid).toBe(hash);
    expect(projectIdentity(root, home).ignoredPointer?.reason).toContain('names another directory, /somewhere/else');
    // The record names this very directory (a project that kept its id when it moved): followed.
    record(root);
    expect(projectIdentity(root, home)).toEqual({ pid: '0123456789abcdef' });
    expect(resolveProject(root, home).pid).toBe('0123456789abcdef');
    // A record whose own id differs is no record of this id.
    record(root, '0123456789abcdef');
    writeFileSync(manifestFile(home, '0123456789abcdef'), JSON.stringify({ schema_version: 1, project_id: 'ffffffffffffffff', abs_path: root, first_seen: 'x', last_seen: 'x' }));
    expect(projectId(root, home)).toBe(hash);
    // An invalid pointer is no hint at all.
    record(root);
    writeFileSync(join(root, '.seek', 'project-id'), '0123456789ABCDEF');
    expect(projectIdentity(root, home)).toEqual({ pid: hash });
  });

  it('reads the pointer only as a small regular file inside the project', () => {
    const root = join(base, 'id-pointer-link');
    const home = join(base, 'home-id-pointer-link');
    const outside = join(base, 'outside-id');
    writeFileSync(outside, '0123456789abcdef');
    mkdirSync(join(root, '.seek'), { recursive: true });
    symlinkSync(outside, join(root, '.seek', 'project-id'));
    mkdirSync(join(home, 'projects', '0123456789abcdef'), { recursive: true });
    writeFileSync(manifestFile(home, '0123456789abcdef'), JSON.stringify({ schema_version: 1, project_id: '0123456789abcdef', abs_path: root, first_seen: 'x', last_seen: 'x' }));
    expect(projectIdentity(root, home)).toEqual({ pid: createHash('sha256').update(root).digest('hex').slice(0, 16) });
  });

  it('remembers the path hash under SEEK_HOME, so a start need not load node:crypto', () => {
    const root = join(base, 'id-cached');
    const home = join(base, 'home-id-cached');
    mkdirSync(root);
    const expected = createHash('sha256').update(root).digest('hex').slice(0, 16);
    const cache = join(home, 'cache', 'project-ids.json');
    expect(projectId(root, home)).toBe(expected);
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toEqual({ [root]: expected });
    expect(projectId(root, home)).toBe(expected);
    // An entry that is not a project id, or a damaged file, is worked out again.
    writeFileSync(cache, JSON.stringify({ [root]: '../../etc' }));
    expect(projectId(root, home)).toBe(expected);
    writeFileSync(cache, '{ damaged');
    expect(projectId(root, home)).toBe(expected);
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toEqual({ [root]: expected });
    // A pointer that seek's record confirms still wins over what is remembered.
    mkdirSync(join(root, '.seek'));
    writeFileSync(join(root, '.seek', 'project-id'), 'fedcba9876543210');
    expect(projectId(root, home)).toBe(expected);
    mkdirSync(join(home, 'projects', 'fedcba9876543210'), { recursive: true });
    writeFileSync(manifestFile(home, 'fedcba9876543210'), JSON.stringify({ schema_version: 1, project_id: 'fedcba9876543210', abs_path: root, first_seen: 'x', last_seen: 'x' }));
    expect(projectId(root, home)).toBe('fedcba9876543210');
  });
});

describe('layout', () => {
  it('matches CONTRACT.md', () => {
    const home = '/h';
    expect(projectDir(home, 'p')).toBe('/h/projects/p');
    expect(sessionsDir(home, 'p')).toBe('/h/projects/p/sessions');
    expect(sessionFile(home, 'p', 's')).toBe('/h/projects/p/sessions/s.jsonl');
    expect(subagentDir(home, 'p', 's', 'c')).toBe('/h/projects/p/sessions/s/subagents/c');
    expect(subagentTranscriptFile(home, 'p', 's', 'c')).toBe('/h/projects/p/sessions/s/subagents/c/transcript.jsonl');
    expect(worktreesDir(home, 'p')).toBe('/h/projects/p/worktrees');
  });
});

describe('ensureProjectManifest', () => {
  it('writes the manifest, then keeps first_seen and updates last_seen and abs_path', async () => {
    const home = join(base, 'home-manifest');
    const first = await ensureProjectManifest(home, 'aaaaaaaaaaaaaaaa', '/old/place', new Date('2025-01-01T00:00:00Z'));
    expect(first).toEqual({
      schema_version: 1,
      project_id: 'aaaaaaaaaaaaaaaa',
      abs_path: '/old/place',
      first_seen: '2025-01-01T00:00:00.000Z',
      last_seen: '2025-01-01T00:00:00.000Z',
    });
    await ensureProjectManifest(home, 'aaaaaaaaaaaaaaaa', '/new/place', new Date('2025-02-01T00:00:00Z'));
    const onDisk = JSON.parse(readFileSync(manifestFile(home, 'aaaaaaaaaaaaaaaa'), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({
      abs_path: '/new/place',
      first_seen: '2025-01-01T00:00:00.000Z',
      last_seen: '2025-02-01T00:00:00.000Z',
    });
  });

  it('writes nothing when the manifest is current: same path, last_seen under a day old', async () => {
    const home = join(base, 'home-current');
    const pid = 'cccccccccccccccc';
    await ensureProjectManifest(home, pid, '/here', new Date('2025-01-01T00:00:00Z'));
    const written = readFileSync(manifestFile(home, pid), 'utf8');
    const mtime = statSync(manifestFile(home, pid)).mtimeMs;
    const again = await ensureProjectManifest(home, pid, '/here', new Date('2025-01-01T23:00:00Z'));
    expect(again.last_seen).toBe('2025-01-01T00:00:00.000Z');
    expect(readFileSync(manifestFile(home, pid), 'utf8')).toBe(written);
    expect(statSync(manifestFile(home, pid)).mtimeMs).toBe(mtime);
    // A day later, or from another place, it is rewritten.
    expect((await ensureProjectManifest(home, pid, '/here', new Date('2025-01-02T00:00:00Z'))).last_seen).toBe('2025-01-02T00:00:00.000Z');
    expect((await ensureProjectManifest(home, pid, '/moved', new Date('2025-01-02T00:01:00Z'))).abs_path).toBe('/moved');
    expect(JSON.parse(readFileSync(manifestFile(home, pid), 'utf8'))).toMatchObject({ abs_path: '/moved', first_seen: '2025-01-01T00:00:00.000Z', last_seen: '2025-01-02T00:01:00.000Z' });
  });

  it('replaces a corrupt manifest', async () => {
    const home = join(base, 'home-corrupt');
    mkdirSync(projectDir(home, 'bbbbbbbbbbbbbbbb'), { recursive: true });
    writeFileSync(manifestFile(home, 'bbbbbbbbbbbbbbbb'), '{not json');
    const manifest = await ensureProjectManifest(home, 'bbbbbbbbbbbbbbbb', '/x');
    expect(manifest.project_id).toBe('bbbbbbbbbbbbbbbb');
    expect(JSON.parse(readFileSync(manifestFile(home, 'bbbbbbbbbbbbbbbb'), 'utf8'))).toEqual(manifest);
  });

  it('replaces an ill-shaped manifest, and keeps the unknown keys of a valid one', async () => {
    const home = join(base, 'home-shapes');
    const pid = 'dddddddddddddddd';
    mkdirSync(projectDir(home, pid), { recursive: true });
    const stored = { schema_version: 1, project_id: pid, abs_path: '/y', first_seen: '2024-06-01T00:00:00.000Z', last_seen: 7, extra: 'x' };
    writeFileSync(manifestFile(home, pid), JSON.stringify(stored));
    const replaced = await ensureProjectManifest(home, pid, '/y', new Date('2025-01-01T00:00:00Z'));
    expect(replaced).toEqual({ schema_version: 1, project_id: pid, abs_path: '/y', first_seen: '2025-01-01T00:00:00.000Z', last_seen: '2025-01-01T00:00:00.000Z' });

    writeFileSync(manifestFile(home, pid), JSON.stringify({ ...stored, last_seen: '2024-06-01T00:00:00.000Z' }));
    const kept = await ensureProjectManifest(home, pid, '/y', new Date('2025-01-01T00:00:00Z'));
    expect(kept).toEqual({ ...stored, first_seen: '2024-06-01T00:00:00.000Z', last_seen: '2025-01-01T00:00:00.000Z' });
  });
});

describe('resolveProject', () => {
  it('is findProjectRoot plus projectId in an ordinary repository', () => {
    const repo = join(base, 'resolve-plain');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    mkdirSync(join(repo, 'src'));
    expect(resolveProject(join(repo, 'src'), join(base, 'home-resolve'))).toEqual({ root: repo, pid: projectId(repo) });
  });

  it("gives a seek worktree its owner's project id, found from any folder inside it", () => {
    const home = join(base, 'home-resolve-wt');
    const repo = join(base, 'resolve-owner');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'init');
    const pid = projectId(repo);
    const worktree = join(worktreesDir(home, pid), 'k3v9x2ab');
    mkdirSync(worktreesDir(home, pid), { recursive: true });
    git(repo, 'worktree', 'add', '-q', '-b', 'seek/wt/k3v9x2ab', worktree);
    mkdirSync(join(worktree, 'deep'));
    expect(resolveProject(join(worktree, 'deep'), home)).toEqual({ root: worktree, pid, worktreeId: 'k3v9x2ab' });
  });

  it('does not take the owner from a look-alike path outside this SEEK_HOME', () => {
    const elsewhere = join(base, 'other-home', 'projects', 'aaaaaaaaaaaaaaaa', 'worktrees', 'x1');
    mkdirSync(elsewhere, { recursive: true });
    git(elsewhere, 'init', '-q');
    expect(resolveProject(elsewhere, join(base, 'home-resolve-wt'))).toEqual({ root: elsewhere, pid: projectId(elsewhere) });
  });
});
