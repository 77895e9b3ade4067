import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benignNewRepository, GitMetadataAudit, type GitAuditScope } from '../../../src/sandbox/git-audit.js';
import { tempDir, writeTree } from '../tools/helpers.js';

/**
 * Real directories and real git: each case plants what a sandboxed command could, runs the audit,
 * then checks on the host that the planted item was renamed aside and that the user's git, run
 * in the affected directory, no longer finds it (a planted core.fsmonitor script would write a marker).
 */
interface World {
  base: string;
  root: string;
  outside: string;
  marker: string;
  hook: string;
}

function world(): World {
  const base = tempDir('seek-git-audit-');
  const w = { base, root: path.join(base, 'project'), outside: path.join(base, 'outside'), marker: path.join(base, 'marker'), hook: path.join(base, 'fsmonitor.sh') };
  writeTree(w.root, { 'src/a.ts': 'export {};\n', 'docs/readme.md': 'hi\n' });
  mkdirSync(w.outside);
  writeFileSync(w.hook, `#!/bin/sh\necho hit > '${w.marker}'\n`, { mode: 0o755 });
  git(w, w.root, 'init', '-q');
  return w;
}

function git(w: World, cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: w.base, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(w.base, 'no-global'), GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@e' },
  });
}

/** Runs the user's `git status` in `dir`: did a planted fsmonitor script run? */
function fsmonitorRuns(w: World, dir: string): boolean {
  rmSync(w.marker, { force: true });
  try { git(w, dir, 'status'); } catch { /* only the marker matters */ }
  const ran = existsSync(w.marker);
  rmSync(w.marker, { force: true });
  return ran;
}

/** A repository at `dir` whose config runs the marker script on `git status`. */
function plantRepo(w: World, dir: string): void {
  git(w, w.base, 'init', '-q', dir);
  git(w, dir, 'config', 'core.fsmonitor', w.hook);
}

const evilConfig = (w: World): string => `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = ${w.hook}\n`;

function audit(w: World, extra: Partial<GitAuditScope> = {}): GitMetadataAudit {
  return new GitMetadataAudit({ writableRoots: [w.root], gitDirs: [path.join(w.root, '.git')], includeTargets: [], ...extra });
}

/** begin(), the "command", finish(). */
async function command(a: GitMetadataAudit, run: () => void): Promise<string[]> {
  const token = a.begin();
  run();
  return a.finish(token);
}

describe('GitMetadataAudit', () => {
  it('returns [] for a command that planted nothing, and keeps returning [] after', async () => {
    const w = world();
    const a = audit(w);
    expect(await command(a, () => writeTree(w.root, { 'src/b.ts': 'x', 'new/deep/dir/c.ts': 'y' }))).toEqual([]);
    expect(await command(a, () => rmSync(path.join(w.root, 'new'), { recursive: true }))).toEqual([]);
    expect(await command(a, () => {})).toEqual([]);
  });

  it('route 1: quarantines a new .git directory below the root', async () => {
    const w = world();
    const a = audit(w);
    const src = path.join(w.root, 'src');
    const lines = await command(a, () => {
      plantRepo(w, src);
      expect(fsmonitorRuns(w, src)).toBe(true); // the control: while it is there, git runs the script
    });
    expect(lines).toEqual([expect.stringMatching(/^moved src\/\.git aside to src\/\.git\.seek-quarantine: a sandboxed command created it/)]);
    expect(existsSync(path.join(src, '.git'))).toBe(false);
    expect(readFileSync(path.join(src, '.git.seek-quarantine', 'config'), 'utf8')).toContain('fsmonitor');
    expect(fsmonitorRuns(w, src)).toBe(false);
    expect(git(w, src, 'rev-parse', '--absolute-git-dir').trim()).toBe(path.join(w.root, '.git'));
    expect(await command(a, () => {})).toEqual([]); // the quarantined dir is not flagged again
  });

  it('keeps a repository exactly as git init and a first commit leave it, and watches it from then on', async () => {
    const w = world();
    const a = audit(w);
    const app = path.join(w.root, 'app');
    const lines = await command(a, () => {
      mkdirSync(app);
      execFileSync('git', ['init', '-q', app]);
      execFileSync('git', ['-C', app, '-c', 'user.name=a', '-c', 'user.email=a@a', 'commit', '-q', '--allow-empty', '-m', 'first']);
      execFileSync('git', ['-C', app, 'remote', 'add', 'origin', 'https://example.invalid/app.git']);
    });
    expect(lines).toEqual([]);
    expect(existsSync(path.join(app, '.git', 'HEAD'))).toBe(true);
    // Watched like any nested repository: a later planted fsmonitor is moved aside.
    const later = await command(a, () => execFileSync('git', ['-C', app, 'config', 'core.fsmonitor', 'touch x; false']));
    expect(later).toEqual([expect.stringMatching(/^moved app\/\.git aside/)]);
  });

  it('benignNewRepository: only init keys, sample hooks and no pointer files', () => {
    const w = world();
    const fresh = (name: string): string => {
      const dir = path.join(w.root, name);
      mkdirSync(dir);
      execFileSync('git', ['init', '-q', dir]);
      return path.join(dir, '.git');
    };
    expect(benignNewRepository(fresh('plain'))).toBe(true);
    const monitored = fresh('monitored');
    execFileSync('git', ['--git-dir', monitored, 'config', 'core.fsmonitor', 'x']);
    expect(benignNewRepository(monitored)).toBe(false);
    const hooked = fresh('hooked');
    writeFileSync(path.join(hooked, 'hooks', 'pre-commit'), '#!/bin/sh\n');
    expect(benignNewRepository(hooked)).toBe(false);
    const included = fresh('included');
    writeFileSync(path.join(included, 'config'), '[core]\n\tbare = false\n[include]\n\tpath = ../x\n');
    expect(benignNewRepository(included)).toBe(false);
    const inline = fresh('inline');
    writeFileSync(path.join(inline, 'config'), '[core] fsmonitor = x\n');
    expect(benignNewRepository(inline)).toBe(false);
    const pointed = fresh('pointed');
    writeFileSync(path.join(pointed, 'commondir'), '../elsewhere\n');
    expect(benignNewRepository(pointed)).toBe(false);
  });

  it('route 1: quarantines a .git deep in a new subtree, a .git file, and a .git symlink', async () => {
    const w = world();
    const a = audit(w);
    plantRepo(w, path.join(w.outside, 'evil'));
    const lines = await command(a, () => {
      plantRepo(w, path.join(w.root, 'a/b/c'));
      writeFileSync(path.join(w.root, 'docs/.git'), `gitdir: ${path.join(w.outside, 'evil/.git')}\n`);
      symlinkSync(path.join(w.outside, 'evil/.git'), path.join(w.root, 'src/.git'));
    });
    expect(lines.sort()).toEqual([
      expect.stringMatching(/^moved a\/b\/c\/\.git aside to a\/b\/c\/\.git\.seek-quarantine:/),
      expect.stringMatching(/^moved docs\/\.git aside to docs\/\.git\.seek-quarantine:/),
      expect.stringMatching(/^moved src\/\.git aside to src\/\.git\.seek-quarantine:/),
    ]);
    for (const dir of ['a/b/c', 'docs', 'src']) {
      expect(existsSync(path.join(w.root, dir, '.git'))).toBe(false);
      expect(fsmonitorRuns(w, path.join(w.root, dir))).toBe(false);
    }
  });

  it('route 1: a subtree moved in from outside is judged as new even if its .git is older', async () => {
    const w = world();
    plantRepo(w, path.join(w.outside, 'x/y')); // planted outside the roots, before the baseline
    const a = audit(w);
    const lines = await command(a, () => renameSync(path.join(w.outside, 'x'), path.join(w.root, 'x')));
    expect(lines).toEqual([expect.stringMatching(/^moved x\/y\/\.git aside/)]);
    expect(fsmonitorRuns(w, path.join(w.root, 'x/y'))).toBe(false);
  });

  it('picks the next free quarantine name and never overwrites', async () => {
    const w = world();
    writeTree(w.root, { 'src/.git.seek-quarantine': 'user data' });
    const a = audit(w);
    const lines = await command(a, () => plantRepo(w, path.join(w.root, 'src')));
    expect(lines).toEqual([expect.stringMatching(/aside to src\/\.git\.seek-quarantine-2:/)]);
    expect(readFileSync(path.join(w.root, 'src/.git.seek-quarantine'), 'utf8')).toBe('user data');
  });

  it('leaves a pre-existing nested fixture repository alone, even when the command uses it', async () => {
    const w = world();
    const fixture = path.join(w.root, 'test/fixtures/repo');
    writeTree(fixture, { 'f.txt': '1' });
    git(w, w.base, 'init', '-q', fixture);
    const a = audit(w);
    const lines = await command(a, () => {
      git(w, fixture, 'add', '.');
      git(w, fixture, 'commit', '-qm', 'c');
      git(w, fixture, 'status');
    });
    expect(lines).toEqual([]);
    expect(existsSync(path.join(fixture, '.git/config'))).toBe(true);
  });

  it('route 1: quarantines a pre-existing nested repository whose config, hooks or .git the command changed', async () => {
    const w = world();
    const fixtures = ['one', 'two', 'three', 'four'].map((n) => path.join(w.root, 'fixtures', n));
    for (const f of fixtures) git(w, w.base, 'init', '-q', f);
    writeFileSync(path.join(fixtures[3]!, '.git/hooks/post-checkout'), '#!/bin/sh\n', { mode: 0o755 });
    const a = audit(w);
    const lines = await command(a, () => {
      git(w, fixtures[0]!, 'config', 'core.fsmonitor', w.hook);
      writeFileSync(path.join(fixtures[1]!, '.git/hooks/pre-commit'), '#!/bin/sh\n', { mode: 0o755 });
      rmSync(path.join(fixtures[2]!, '.git'), { recursive: true });
      plantRepo(w, fixtures[2]!);
      writeFileSync(path.join(fixtures[3]!, '.git/hooks/post-checkout'), '#!/bin/sh\necho x\n');
    });
    expect(lines.sort()).toEqual([
      expect.stringMatching(/^moved fixtures\/four\/\.git aside to fixtures\/four\/\.git\.seek-quarantine: a sandboxed command changed hooks\/post-checkout of/),
      expect.stringMatching(/^moved fixtures\/one\/\.git aside .*changed config of the repository at fixtures\/one\/\.git/),
      // rm -rf + git init: "replaced it", or, when the file system reuses the inode, "changed config, hooks, ..."
      expect.stringMatching(/^moved fixtures\/three\/\.git aside .*(replaced it|changed config)/),
      expect.stringMatching(/^moved fixtures\/two\/\.git aside .*changed hooks, hooks\/pre-commit of/),
    ]);
    for (const f of fixtures) {
      expect(existsSync(path.join(f, '.git'))).toBe(false);
      expect(fsmonitorRuns(w, f)).toBe(false);
    }
  });

  it('follows a nested repository the command moved, and still catches a later change to it', async () => {
    const w = world();
    git(w, w.base, 'init', '-q', path.join(w.root, 'fixtures/repo'));
    const a = audit(w);
    expect(await command(a, () => renameSync(path.join(w.root, 'fixtures'), path.join(w.root, 'moved')))).toEqual([]);
    const moved = path.join(w.root, 'moved/repo');
    expect(existsSync(path.join(moved, '.git'))).toBe(true);
    expect(await command(a, () => git(w, moved, 'config', 'core.fsmonitor', w.hook))).toEqual([expect.stringMatching(/^moved moved\/repo\/\.git aside/)]);
    expect(fsmonitorRuns(w, moved)).toBe(false);
  });

  it('route 2: quarantines a new commondir in the root git dir', async () => {
    const w = world();
    const evil = path.join(w.outside, 'common');
    writeTree(evil, { config: evilConfig(w), 'objects/.keep': '', 'refs/.keep': '' });
    const a = audit(w);
    const commondir = path.join(w.root, '.git/commondir');
    const lines = await command(a, () => {
      writeFileSync(commondir, `${evil}\n`);
      expect(fsmonitorRuns(w, w.root)).toBe(true); // the control: while it is there, git runs the script
    });
    expect(lines).toEqual([expect.stringMatching(/^moved \.git\/commondir aside to \.git\/commondir\.seek-quarantine: a sandboxed command created it in the repository's git dir/)]);
    expect(existsSync(commondir)).toBe(false);
    expect(fsmonitorRuns(w, w.root)).toBe(false);
  });

  it('route 2: quarantines a new config.worktree and a gitdir', async () => {
    const w = world();
    const a = audit(w);
    const lines = await command(a, () => writeTree(w.root, { '.git/config.worktree': evilConfig(w), '.git/gitdir': '/x/.git\n' }));
    expect(lines.sort()).toEqual([expect.stringMatching(/^moved \.git\/config\.worktree aside/), expect.stringMatching(/^moved \.git\/gitdir aside/)]);
  });

  it('route 3: quarantines an include target the command created, then one it changed', async () => {
    const w = world();
    const inc = path.join(w.root, 'tools/git.inc');
    git(w, w.root, 'config', 'include.path', inc);
    const a = audit(w, { includeTargets: [inc, path.join(w.outside, 'not-writable.inc')] });
    const lines = await command(a, () => {
      writeTree(w.root, { 'tools/git.inc': evilConfig(w) });
      expect(fsmonitorRuns(w, w.root)).toBe(true); // the control
    });
    expect(lines).toEqual([expect.stringMatching(/^moved tools\/git\.inc aside to tools\/git\.inc\.seek-quarantine: a sandboxed command created it and the repository's config includes it/)]);
    expect(fsmonitorRuns(w, w.root)).toBe(false);

    writeTree(w.root, { 'tools/git.inc': '[user]\n\tname = me\n' }); // the user's own, written outside the sandbox
    expect(await command(a, () => {})).toEqual([]);
    const changed = await command(a, () => writeFileSync(inc, evilConfig(w)));
    expect(changed).toEqual([expect.stringMatching(/^moved tools\/git\.inc aside to tools\/git\.inc\.seek-quarantine-2: a sandboxed command changed it/)]);
    expect(fsmonitorRuns(w, w.root)).toBe(false);
  });

  it('quarantines the HEAD of a directory the command made into a bare repository', async () => {
    const w = world();
    const src = path.join(w.root, 'src');
    const a = audit(w);
    const lines = await command(a, () => {
      writeTree(src, { HEAD: 'ref: refs/heads/main\n', config: evilConfig(w), 'objects/.keep': '', 'refs/.keep': '' });
      expect(git(w, src, 'rev-parse', '--absolute-git-dir').trim()).toBe(src); // the control
    });
    expect(lines).toEqual([expect.stringMatching(/^moved src\/HEAD aside to src\/HEAD\.seek-quarantine: a sandboxed command made src a git directory/)]);
    expect(git(w, src, 'rev-parse', '--absolute-git-dir').trim()).toBe(path.join(w.root, '.git'));
  });

  it('does not descend into a symlinked directory, but a symlink named .git is a finding', async () => {
    const w = world();
    mkdirSync(path.join(w.outside, 'tree'));
    symlinkSync(path.join(w.outside, 'tree'), path.join(w.root, 'link'));
    const a = audit(w);
    expect(await command(a, () => plantRepo(w, path.join(w.outside, 'tree/sub')))).toEqual([]);
    expect(existsSync(path.join(w.outside, 'tree/sub/.git'))).toBe(true);
    expect(await command(a, () => symlinkSync(path.join(w.outside, 'tree/sub/.git'), path.join(w.root, 'docs/.git')))).toEqual([
      expect.stringMatching(/^moved docs\/\.git aside/),
    ]);
  });

  it('reports what it could not read, and still quarantines what it can reach', async () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const w = world();
    const a = audit(w);
    const locked = path.join(w.root, 'locked');
    const searchable = path.join(w.root, 'searchable');
    try {
      const lines = await command(a, () => {
        plantRepo(w, path.join(locked, 'inner'));
        chmodSync(locked, 0o000);
        plantRepo(w, searchable);
        chmodSync(searchable, 0o300); // write + search, no listing
      });
      expect(lines).toContainEqual(expect.stringMatching(/^moved searchable\/\.git aside/));
      expect(lines).toContainEqual(expect.stringMatching(/^could not check .*locked \(EACCES\).*searchable \(EACCES\)|^could not check .*searchable \(EACCES\).*locked \(EACCES\)/));
    } finally {
      chmodSync(locked, 0o755);
      chmodSync(searchable, 0o755);
    }
  });

  it('never throws: missing roots and git dirs, a root that vanishes', async () => {
    const w = world();
    const a = new GitMetadataAudit({ writableRoots: [w.root, path.join(w.base, 'nope')], gitDirs: [path.join(w.base, 'nope/.git')], includeTargets: [] });
    expect(await command(a, () => rmSync(path.join(w.root, 'src'), { recursive: true }))).toEqual([]);
    expect(await command(a, () => rmSync(w.root, { recursive: true }))).toEqual([]);
    expect(await command(a, () => plantRepo(w, path.join(w.root, 'back')))).toEqual([expect.stringMatching(/^moved back\/\.git aside/)]);
  });

  it('performance: 20,000 files in 2,000 directories (printed, not asserted)', { timeout: 180_000 }, async () => {
    const w = world();
    for (let d = 0; d < 2000; d++) {
      const dir = path.join(w.root, `pkg${d % 40}`, `mod${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 10; f++) writeFileSync(path.join(dir, `f${f}.ts`), '');
    }
    const timed = async <T>(fn: () => T | Promise<T>): Promise<[T, number]> => {
      const t0 = performance.now();
      const result = await fn();
      return [result, performance.now() - t0];
    };
    // Default 2 s margin: the tree was just written, so every directory counts as recently changed.
    const a = audit(w);
    const [token, firstBegin] = await timed(() => a.begin());
    const [, recentFinish] = await timed(() => a.finish(token));
    // Margin 0 stands in for "the tree was last changed more than 2 s ago" without sleeping.
    const steady = audit(w, { marginMs: 0 });
    await steady.finish(steady.begin());
    const [, laterBegin] = await timed(() => steady.begin());
    const [lines, laterFinish] = await timed(() => steady.finish(steady.begin()));
    console.log(
      `git-audit, 2,000 dirs / 20,000 files: first begin() (full walk) ${firstBegin.toFixed(1)} ms; ` +
        `finish() with every dir changed < 2 s ago (all re-read) ${recentFinish.toFixed(1)} ms; ` +
        `later begin() ${laterBegin.toFixed(2)} ms; later begin()+finish(), no changes ${laterFinish.toFixed(1)} ms`,
    );
    expect(lines).toEqual([]);
  });
});
