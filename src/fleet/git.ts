/**
 * git for the fleet's own repository work (mirrors, checkouts, fetches, pushes, bundles, commits).
 *
 * Every call runs with seek's git safety overrides (util/git-safety.ts), as the checkpoints and the
 * git tool do: no hook, fsmonitor, pager, editor or external diff, no filter/diff/merge driver the
 * repository's own config files define, no submodule recursion. Commands that stay on this machine
 * also refuse every transport (no lazy fetch). The ones that reach a job's repository (clone,
 * fetch, push, ls-remote) keep this worker's own transport and credential settings (its SSH key,
 * its credential helper: README, Setting up a fleet) and refuse only `ext::`. Never a shell, never
 * a prompt for a password.
 *
 * Where git runs is explicit. A worker's mirror and a job's checkout name their git directories in
 * the environment (GIT_DIR, GIT_COMMON_DIR, GIT_WORK_TREE), so git never finds its repository
 * through files a job can write: the checkout's `.git`, its admin directory's `commondir`, a `.git`
 * in a subfolder. A checkout's runner also checks those files before every call (checkout-guard.ts)
 * and refuses to run when a job changed them. Only the coordinator's own tree, and clones it made
 * (`gitIn`), are found from the working directory as usual.
 */
import { execFile } from 'node:child_process';
import {
  diffSafetyArgs,
  GIT_CONFIG_LISTING_ARGS,
  GIT_REPOSITORY_LOCATION_VARS,
  GIT_SAFETY_ARGS,
  GIT_SAFETY_CONFIG,
  GIT_SAFETY_ENV,
  repositoryOverrides,
  subcommandIndex,
} from '../util/git-safety.js';

const TIMEOUT_MS = 10 * 60_000; // clones of large repositories
const MAX_BUFFER = 64 * 1024 * 1024;

export interface GitOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** git bound to one place: a directory, a mirror or a job's checkout. */
export interface FleetGit {
  /** Resolves with git's exit status (-1 when it could not start); rejects only when the place
   * refuses git (a checkout a job tampered with: checkout-guard.ts). */
  run(args: readonly string[]): Promise<GitOutcome>;
  /** stdout, or an Error carrying git's last stderr line. */
  ok(args: readonly string[]): Promise<string>;
}

export interface GitPlace {
  cwd: string;
  /** GIT_DIR, GIT_COMMON_DIR, GIT_WORK_TREE as the place needs them. */
  env?: Readonly<Record<string, string>>;
  /** Checked before every call; throws to refuse it. */
  guard?: () => Promise<void>;
}

/** Subcommands that reach another repository: they keep this worker's transport settings. */
const NETWORK = new Set(['clone', 'fetch', 'push', 'ls-remote']);
/** Transport and credential keys of GIT_SAFETY_CONFIG that network commands keep from the
 * worker's own (system, global) config. */
const TRANSPORT_KEYS = new Set(['core.askPass', 'credential.helper', 'core.sshCommand', 'core.gitProxy']);
/** Submodules are never recursed into: their git directories are the job's to write. */
const NO_SUBMODULES = ['-c', 'submodule.recurse=false', '-c', 'fetch.recurseSubmodules=false', '-c', 'push.recurseSubmodules=no'];
const LOCAL_ARGS = [...GIT_SAFETY_ARGS, ...NO_SUBMODULES];
const NETWORK_ARGS = [
  '--no-pager',
  ...GIT_SAFETY_CONFIG.filter(([key]) => !TRANSPORT_KEYS.has(key) && !key.startsWith('protocol.')).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
  '-c',
  'protocol.ext.allow=never',
  ...NO_SUBMODULES,
];
/** Subcommands that run no filter, diff or merge driver: no config listing before them (as in
 * worktree/git.ts), nor before those that make a repository (nothing to list yet). */
const DRIVERLESS = new Set(['rev-parse', 'rev-list', 'update-ref', 'show-ref', 'for-each-ref', 'symbolic-ref', 'config', 'merge-base', 'clone', 'init', 'ls-remote']);

export function placeGit(place: GitPlace): FleetGit {
  const run = async (args: readonly string[]): Promise<GitOutcome> => {
    await place.guard?.();
    const at = subcommandIndex(args);
    const subcommand = args[at] ?? '';
    const network = NETWORK.has(subcommand);
    const fixed = network ? NETWORK_ARGS : LOCAL_ARGS;
    let overrides: string[] = [];
    if (!DRIVERLESS.has(subcommand)) {
      const listing = await exec(place, [...fixed, ...GIT_CONFIG_LISTING_ARGS]);
      if (listing.code !== 0) return listing;
      // protocol.<name>.allow keys are neutralised for local commands only.
      overrides = repositoryOverrides(listing.stdout).filter((arg) => !network || !/^--config-env=protocol\./i.test(arg));
    }
    return exec(place, [...fixed, ...overrides, ...args.slice(0, at + 1), ...diffSafetyArgs(subcommand), ...args.slice(at + 1)]);
  };
  return {
    run,
    ok: async (args) => {
      const outcome = await run(args);
      if (outcome.code !== 0) throw new Error(`git ${args[subcommandIndex(args)] ?? ''} failed: ${outcome.stderr.trim().split('\n').slice(-1)[0] || `exit ${outcome.code}`}`);
      return outcome.stdout;
    },
  };
}

/** git in `cwd`, its repository found from there as usual: the coordinator's own tree. */
export function gitIn(cwd: string): FleetGit {
  return placeGit({ cwd });
}

/** git in a worker's bare mirror, named explicitly: a `commondir` planted in it is not followed. */
export function mirrorGit(mirror: string): FleetGit {
  return placeGit({ cwd: mirror, env: { GIT_DIR: mirror, GIT_COMMON_DIR: mirror } });
}

/** stdout of git in `cwd` (the coordinator's tree), or an Error carrying git's last stderr line. */
export function git(cwd: string, args: readonly string[]): Promise<string> {
  return gitIn(cwd).ok(args);
}

export function tryGit(cwd: string, args: readonly string[]): Promise<GitOutcome> {
  return gitIn(cwd).run(args);
}

function exec(place: GitPlace, argv: readonly string[]): Promise<GitOutcome> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of GIT_REPOSITORY_LOCATION_VARS) delete env[name];
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', GIT_MERGE_AUTOEDIT: 'no' }, GIT_SAFETY_ENV, place.env);
  return new Promise((resolve) => {
    execFile('git', [...argv], { cwd: place.cwd, timeout: TIMEOUT_MS, maxBuffer: MAX_BUFFER, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (error && code === -1 ? error.message : '')) });
    });
  });
}
