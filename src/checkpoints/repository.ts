/**
 * Where a project's checkpoints live. In a git repository: the repository itself, under the
 * private ref namespace `refs/seek/checkpoints/` (outside the default refspecs, so never pushed or
 * fetched). In a directory that is not a git repository: a bare "shadow" repository under
 * SEEK_HOME (`<SEEK_HOME>/projects/<pid>/checkpoints.git`) that git reaches with GIT_DIR and
 * GIT_WORK_TREE; the project directory gets no `.git` of its own.
 *
 * Every git call goes through the worktree subsystem's runner (execFile, never a shell, with
 * seek's git safety overrides).
 */
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { GitClient, runGit, type GitRunner } from '../worktree/git.js';
import { beginEarlyListing, StatCache } from './stat-cache.js';
import { checkpointLimits, DEFAULT_CHECKPOINT_SETTINGS, type CheckpointLimits } from './settings.js';

export const CHECKPOINT_PREFIX = 'refs/seek/checkpoints/';

/** Commits seek writes for checkpoints carry this identity (never the user's), and are never signed. */
const CHECKPOINT_IDENTITY = {
  GIT_AUTHOR_NAME: 'seek checkpoint',
  GIT_AUTHOR_EMAIL: 'seek@localhost',
  GIT_COMMITTER_NAME: 'seek checkpoint',
  GIT_COMMITTER_EMAIL: 'seek@localhost',
};

export interface CheckpointRepository {
  /** The directory whose working tree is checkpointed and restored (a repository's top level). */
  readonly root: string;
  /** Bound to the repository (the shadow's GIT_DIR and GIT_WORK_TREE when `shadow`). */
  readonly git: GitClient;
  /** True when the project is not a git repository and checkpoints live under SEEK_HOME. */
  readonly shadow: boolean;
  /** The repository's own index: the stat cache a snapshot's temporary index starts from. */
  readonly indexPath: string;
  /** The shadow repository's own index (seek's, kept up to date); undefined for a real repository. */
  readonly shadowIndex?: string;
  /** The private index and listed driver overrides snapshots reuse (stat-cache.ts). */
  readonly statCache: StatCache;
  /** Changed files larger than this are recorded by hash, not copied (large-files.ts). */
  readonly maxFileSize: number;
  /** maxFileSize, and the caps on untracked directories (untracked.ts). */
  readonly limits: CheckpointLimits;
}

export interface LocateOptions extends Partial<CheckpointLimits> {
  root: string;
  seekHome: string;
  projectId: string;
  runner?: GitRunner;
}

/** The options' limits, defaults for those not given. */
function limitsOf(options: Partial<CheckpointLimits>): CheckpointLimits {
  const defined = Object.fromEntries(Object.entries(checkpointLimits(options as CheckpointLimits)).filter(([, value]) => value !== undefined));
  return { ...checkpointLimits(DEFAULT_CHECKPOINT_SETTINGS), ...defined };
}

/** Opened repositories by root, so a session locates each one once. */
export class CheckpointRepositories {
  private readonly opened = new Map<string, Promise<CheckpointRepository>>();

  constructor(private readonly options: { seekHome: string; projectId: string } & Partial<CheckpointLimits>) {}

  get(root: string): Promise<CheckpointRepository> {
    let repo = this.opened.get(root);
    if (!repo) {
      const { seekHome, projectId } = this.options;
      repo = openCheckpointRepository({ root, seekHome, projectId, ...limitsOf(this.options) });
      this.opened.set(root, repo);
    }
    return repo;
  }
}

/** The shadow repository's path for a project that is not a git repository. */
export function shadowRepositoryPath(seekHome: string, projectId: string): string {
  return join(seekHome, 'projects', projectId, 'checkpoints.git');
}

/**
 * The repository checkpoints of `root` go to; creates the shadow repository on first use when
 * `root` is not inside a git work tree.
 */
export async function openCheckpointRepository(options: LocateOptions): Promise<CheckpointRepository> {
  const runner = options.runner ?? runGit;
  const base = new GitClient(runner, CHECKPOINT_IDENTITY);
  if (!existsSync(options.root)) throw new Error(`${options.root} does not exist any more (a worktree that was merged or removed?)`);
  const limits = limitsOf(options);
  const maxFileSize = limits.maxFileSize;
  // Paths in trees are relative to the top of the work tree: everything runs there.
  const finding = base.run(options.root, ['rev-parse', '--show-toplevel', '--git-path', 'index', '--git-path', 'config', '--git-path', 'config.worktree'], { timeoutMs: 10_000 });
  // The config is listed while the repository is found: the first snapshot's git processes then
  // need not wait for it (stat-cache.ts EarlyListing says when the listing may be used).
  const early = beginEarlyListing(base, options.root);
  const found = await finding;
  const [top, ...paths] = found.code === 0 ? found.stdout.trim().split('\n') : [];
  if (top && paths.length === 3) {
    const [indexPath, ...configPaths] = paths.map((path) => (isAbsolute(path) ? path : resolve(options.root, path)));
    const target = { root: top, git: base, indexPath: indexPath!, configPaths };
    return { ...target, shadow: false, statCache: new StatCache(target, early), maxFileSize, limits };
  }
  // A home directory or the file system root as a "project" would copy far too much.
  if ([homedir(), '/'].includes(resolve(options.root))) {
    throw new Error(`${options.root} is not a git repository, and too broad to checkpoint (start seek in a project directory)`);
  }
  const gitDir = shadowRepositoryPath(options.seekHome, options.projectId);
  if (!existsSync(join(gitDir, 'HEAD'))) {
    await mkdir(gitDir, { recursive: true });
    await base.ok(gitDir, ['init', '-q', '--bare', gitDir]);
  }
  const git = base.withEnv({ GIT_DIR: gitDir, GIT_WORK_TREE: options.root });
  const index = join(gitDir, 'index');
  const target = { root: options.root, git, indexPath: index, shadowIndex: index, configPaths: [join(gitDir, 'config')] };
  return { ...target, shadow: true, statCache: new StatCache(target), maxFileSize, limits };
}

/** `refs/seek/checkpoints/<sid>/<n>`. */
export function checkpointRef(sessionId: string, n: number): string {
  return `${CHECKPOINT_PREFIX}${sessionId}/${n}`;
}

/**
 * `refs/seek/checkpoints/<sid>/seen`: the state of the tree the session last saw (the end of its
 * last turn, or right after a restore). What differs from it was changed by something else.
 */
export function seenRef(sessionId: string): string {
  return `${CHECKPOINT_PREFIX}${sessionId}/seen`;
}
