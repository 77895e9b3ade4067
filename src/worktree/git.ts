/**
 * Running git for the worktree manager: always `execFile('git', args)`, never a shell, so paths and
 * branch names are never interpreted. `runGit` never throws (a failure to start git, a timeout or
 * an abort come back as `code: -1` with the reason in `stderr`); `GitClient.ok` throws a `GitError`
 * carrying git's stderr, which callers hand to the model verbatim.
 * Every call runs with seek's git safety overrides (util/git-safety.ts): no hooks, fsmonitor,
 * pager, editor, transport, external diff, or filter/diff/merge driver of the repository's own
 * config ever runs, whatever `.git/config` says.
 */
import { execFile } from 'node:child_process';
import {
  diffSafetyArgs,
  GIT_CONFIG_LISTING_ARGS,
  GIT_REPOSITORY_LOCATION_VARS,
  GIT_SAFETY_ARGS,
  GIT_SAFETY_ENV,
  repositoryIncludes,
  repositoryOverrides,
  subcommandIndex,
} from '../util/git-safety.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface GitRunOptions {
  cwd: string;
  /** Laid over the process environment; a key set to undefined removes the variable. */
  env?: Env;
  /** Kill git after this long (default 120 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Written to git's stdin (for `--stdin` commands). */
  input?: string;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  /** Exit status; -1 when git could not be started, timed out or was aborted. */
  code: number;
}

export type GitRunner = (args: readonly string[], options: GitRunOptions) => Promise<GitResult>;

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_BUFFER = 256 * 1024 * 1024;

function gitEnvironment(extra: Env | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of GIT_REPOSITORY_LOCATION_VARS) delete env[name];
  // Never wait for a password or an editor: seek runs git unattended.
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_MERGE_AUTOEDIT = 'no';
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return { ...env, ...GIT_SAFETY_ENV };
}

/**
 * Subcommands that only read or write refs and objects, never the index or the working tree: no
 * filter, diff or merge driver can run, so the config listing before them is skipped. Anything
 * else is listed first; even `write-tree` runs clean filters (writing the index re-checks
 * racily clean entries by content).
 */
const DRIVERLESS = new Set(['rev-parse', 'rev-list', 'update-ref', 'show-ref', 'for-each-ref', 'symbolic-ref', 'config', 'merge-base']);

/**
 * Runs `git <args>` in `options.cwd` with the safety overrides: the fixed ones, `--no-ext-diff`
 * for diff printers, and (unless the subcommand is DRIVERLESS) overrides for the drivers the
 * repository's config defines, read by a `git config --list` first. When that listing fails
 * (a broken repository fails it the same way), the command does not run and the listing's
 * failure is the result. Resolves with the exit status; never rejects.
 */
export const runGit: GitRunner = async (args, options) => {
  const at = subcommandIndex(args);
  const subcommand = args[at] ?? '';
  let overrides: string[] = [];
  if (!DRIVERLESS.has(subcommand)) {
    const listing = await execGit(GIT_CONFIG_LISTING_ARGS, { ...options, input: undefined });
    if (listing.code !== 0) return { stdout: '', stderr: listing.stderr, code: listing.code };
    overrides = repositoryOverrides(listing.stdout);
  }
  return runGitWithOverrides(overrides)(args, options);
};

/**
 * A runner with the safety overrides of `runGit`, except that the driver overrides are the ones
 * given (listed once by `listDriverOverrides`) instead of listed before every command: for a short
 * burst of commands on one repository (a checkpoint), where re-reading the config each time would
 * only add a git process per command.
 */
export function runGitWithOverrides(overrides: readonly string[]): GitRunner {
  return (args, options) => {
    const at = subcommandIndex(args);
    const subcommand = args[at] ?? '';
    return execGit([...GIT_SAFETY_ARGS, ...overrides, ...args.slice(0, at + 1), ...diffSafetyArgs(subcommand), ...args.slice(at + 1)], options);
  };
}

/** The driver overrides `runGit` would use in `options.cwd` (with `options.env`); throws a
 * GitError when the configuration cannot be listed. */
export async function listDriverOverrides(options: GitRunOptions): Promise<string[]> {
  return (await listConfigSafety(options)).overrides;
}

/** From one listing of the configuration: the driver overrides (listDriverOverrides), and whether
 * the repository's own config files include other files (git-safety.ts repositoryIncludes). */
export async function listConfigSafety(options: GitRunOptions): Promise<{ overrides: string[]; includes: boolean }> {
  const listing = await execGit(GIT_CONFIG_LISTING_ARGS, { ...options, input: undefined });
  if (listing.code !== 0) throw new GitError(GIT_CONFIG_LISTING_ARGS, listing);
  return { overrides: repositoryOverrides(listing.stdout), includes: repositoryIncludes(listing.stdout) };
}

/** Runs `git <args>` as given. Resolves with the exit status; never rejects. */
const execGit: GitRunner = (args, options) =>
  new Promise((resolvePromise) => {
    if (options.signal?.aborted) return resolvePromise({ stdout: '', stderr: 'aborted before git started', code: -1 });
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const child = execFile(
      'git',
      [...args],
      {
        cwd: options.cwd,
        env: gitEnvironment(options.env),
        timeout: timeoutMs,
        signal: options.signal,
        maxBuffer: MAX_BUFFER,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return resolvePromise({ stdout, stderr, code: 0 });
        const failure = error as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
        if (typeof failure.code === 'number') return resolvePromise({ stdout, stderr, code: failure.code });
        const reason = failure.killed ? `git timed out after ${timeoutMs} ms` : failure.message;
        resolvePromise({ stdout, stderr: stderr ? `${stderr}\n${reason}` : reason, code: -1 });
      },
    );
    child.stdin?.on('error', () => undefined); // git may exit before reading all input
    child.stdin?.end(options.input ?? '');
  });

/** A git command that failed. `message` is git's stderr (trimmed), or a one-line summary. */
export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(result.stderr.trim() || `git ${args.join(' ')} exited with status ${result.code}`);
  }

  get stderr(): string {
    return this.result.stderr;
  }
}

/** Runs git and returns stdout; throws a `GitError` on a non-zero exit. */
export async function gitOrThrow(git: GitRunner, args: readonly string[], options: GitRunOptions): Promise<string> {
  const result = await git(args, options);
  if (result.code !== 0) throw new GitError(args, result);
  return result.stdout;
}

/** Whether `dir` lies inside a git work tree. */
export async function isGitRepository(dir: string, git: GitRunner = runGit): Promise<boolean> {
  const result = await git(['rev-parse', '--is-inside-work-tree'], { cwd: dir, timeoutMs: 10_000 });
  return result.code === 0 && result.stdout.trim() === 'true';
}

/** The text of an error for a model-facing result: git's stderr when it is a GitError. */
export function errorText(error: unknown): string {
  if (error instanceof GitError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export interface RunOptions {
  env?: Env;
  input?: string;
  timeoutMs?: number;
}

/**
 * A git runner bound to the manager's environment, timeout and (for housekeeping) abort signal,
 * so every call site passes only the directory and the arguments.
 */
export class GitClient {
  constructor(
    readonly runner: GitRunner,
    private readonly env: Env = {},
    private readonly signal?: AbortSignal,
  ) {}

  /** The same client, cancelled by `signal`. */
  withSignal(signal: AbortSignal): GitClient {
    return new GitClient(this.runner, this.env, signal);
  }

  /** The same client running git through `runner`. */
  withRunner(runner: GitRunner): GitClient {
    return new GitClient(runner, this.env, this.signal);
  }

  /** The environment laid over the process's for every call. */
  get environment(): Env {
    return this.env;
  }

  /** The same client with more environment variables. */
  withEnv(env: Env): GitClient {
    return new GitClient(this.runner, { ...this.env, ...env }, this.signal);
  }

  run(cwd: string, args: readonly string[], options: RunOptions = {}): Promise<GitResult> {
    return this.runner(args, {
      cwd,
      env: { ...this.env, ...options.env },
      timeoutMs: options.timeoutMs,
      signal: this.signal,
      input: options.input,
    });
  }

  async ok(cwd: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
    const result = await this.run(cwd, args, options);
    if (result.code !== 0) throw new GitError(args, result);
    return result.stdout;
  }

  /** Like `ok`, trimmed: for commands that print one value (a sha, a path). */
  async value(cwd: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
    return (await this.ok(cwd, args, options)).trim();
  }

  /**
   * `-c` options that give commits made by seek (rescue snapshot, merge) an identity in a
   * repository with no user.email configured: `seek <seek@localhost>`. Empty when the user has an
   * email configured, so seek's commits carry the user's own identity.
   */
  async identityArgs(cwd: string): Promise<string[]> {
    const email = await this.run(cwd, ['config', '--get', 'user.email']);
    if (email.code === 0 && email.stdout.trim() !== '') return [];
    return ['-c', 'user.name=seek', '-c', 'user.email=seek@localhost'];
  }
}
