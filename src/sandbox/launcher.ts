import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandSandbox } from '../agent/types.js';
import { bwrapArguments } from './bwrap.js';
import { sandboxEnvironment } from './environment.js';
import { seatbeltProfile } from './seatbelt.js';
import { expandUserPath, hiddenPaths } from './sensitive-paths.js';
import type { SandboxProfile, SandboxScope, SandboxSettings, SandboxStatus, SpawnSpec } from './types.js';

export interface SandboxLauncherOptions {
  settings: SandboxSettings;
  status: SandboxStatus;
  /** The user's home directory (for `~` and the sensitive-path list). */
  home: string;
  /** seek's home: hidden from every sandboxed command (keys, transcripts). */
  seekHome: string;
  /** The environment commands would otherwise inherit; reduced to the allowlist. */
  env: NodeJS.ProcessEnv;
}

/**
 * Builds the sandbox for each call the gate lets run sandboxed. One per session, shared with its
 * children (each call names its own root: a child's worktree confines that child's writes).
 */
export class SandboxLauncher {
  #status: SandboxStatus;
  readonly settings: SandboxSettings;
  readonly #options: SandboxLauncherOptions;
  #hidden: string[] | undefined;
  #macTempDir: string | undefined;

  constructor(options: SandboxLauncherOptions) {
    this.#options = options;
    this.#status = options.status;
    this.settings = options.settings;
  }

  get status(): SandboxStatus {
    return this.#status;
  }

  /** The detected status, when detection finished after the launcher was made (a headless
   * session detects on first need, runtime/permissions.ts); before any command is launched. */
  settle(status: SandboxStatus): void {
    this.#status = status;
  }

  get available(): boolean {
    return this.status.available;
  }

  /** What a command under `profile` in `root` may do. */
  scope(profile: SandboxProfile, root: string): SandboxScope {
    const realRoot = realOrSelf(root);
    const git = profile === 'workspace-write' ? gitLayout(realRoot) : { writable: [], protectedPaths: [] };
    const writable =
      profile === 'workspace-write'
        ? unique([realRoot, ...git.writable, ...this.settings.allowWrite.map((p) => realOrSelf(expandUserPath(p, this.#options.home)))]).filter(existsSync)
        : [];
    const protectedPaths = profile === 'workspace-write' ? [...git.protectedPaths, path.join(realRoot, '.seek')].filter(existsSync) : [];
    return {
      profile,
      writable,
      protectedPaths,
      hidden: unique([...this.#hiddenPaths(), ...this.#hiddenInRoot(realRoot)]),
      visible: [realRoot],
      network: profile === 'workspace-write' && this.settings.network,
    };
  }

  /** The sandbox for one call. Throws when none is available: the policy never asks for one then. */
  forCall(profile: SandboxProfile, root: string): CommandSandbox {
    if (!this.status.available) throw new Error(`no sandbox is available: ${this.status.reason ?? 'unknown reason'}`);
    const scope = this.scope(profile, root);
    const summary = describeScope(scope, root);
    return {
      profile,
      summary,
      wrap: (spec) => this.#wrap(scope, spec),
    };
  }

  #wrap(scope: SandboxScope, spec: SpawnSpec): SpawnSpec {
    const base = { SEEK_AGENT: '1', SEEK_SANDBOX: scope.profile };
    if (this.status.mechanism === 'sandbox-exec') {
      const tempDir = this.#macTemp();
      const env = sandboxEnvironment(spec.env, this.settings.env, { ...base, TMPDIR: tempDir });
      const profile = seatbeltProfile(scope, tempDir);
      return { file: this.status.program!, args: ['-p', profile, '--', spec.file, ...spec.args], cwd: spec.cwd, env };
    }
    const env = sandboxEnvironment(spec.env, this.settings.env, { ...base, TMPDIR: '/tmp' });
    return { file: this.status.program!, args: [...bwrapArguments(scope, spec.cwd), '--', spec.file, ...spec.args], cwd: spec.cwd, env };
  }

  #hiddenPaths(): string[] {
    const absolute = this.settings.denyRead.filter((p) => path.isAbsolute(p) || p.startsWith('~'));
    this.#hidden ??= unique(hiddenPaths(this.#options.home, this.#options.seekHome, absolute, this.#options.env).map(realOrSelf));
    return this.#hidden;
  }

  /** Relative deny-read entries (`Read(./.env)` deny rules) name files in the call's own root. */
  #hiddenInRoot(root: string): string[] {
    return this.settings.denyRead
      .filter((p) => !path.isAbsolute(p) && !p.startsWith('~'))
      .map((p) => path.join(root, p))
      .filter((p) => existsSync(p) && realOrSelf(p).startsWith(`${root}/`))
      .map(realOrSelf);
  }

  #macTemp(): string {
    this.#macTempDir ??= realOrSelf(mkdtempSync(path.join(tmpdir(), 'seek-sandbox-')));
    return this.#macTempDir;
  }
}

/** One line for the model and the user: what the sandbox let the command do. */
export function describeScope(scope: SandboxScope, root: string): string {
  const writes = scope.profile === 'workspace-write' ? `writes only inside ${root} and a private /tmp` : 'no writes (read-only filesystem, private /tmp)';
  return `${scope.profile} sandbox: ${writes}, network ${scope.network ? 'on' : 'off'}, secrets hidden`;
}

interface GitLayout {
  /** Git directories outside the root that commits in it need (a worktree's and the common one). */
  writable: string[];
  /** Executable configuration that must not be writable: hooks and config files. */
  protectedPaths: string[];
}

/**
 * Where a root's git metadata lives, read from the files git itself writes (no git process): a
 * main checkout has `.git/`; a worktree has a `.git` file naming its gitdir, whose `commondir`
 * names the shared repository. A worktree's git dirs count only when git's back-pointer there names
 * this checkout, so a planted `.git` file cannot make another directory writable. A missing hooks
 * directory is created (empty, as `git init` makes it) so that it can be mounted read-only:
 * otherwise a sandboxed command could create it and plant a hook that git runs later, outside.
 */
function gitLayout(root: string): GitLayout {
  const dotGit = path.join(root, '.git');
  let gitDir: string | undefined;
  let commonDir: string | undefined;
  try {
    const stat = statSync(dotGit);
    if (stat.isDirectory()) {
      gitDir = dotGit;
      commonDir = dotGit;
    } else if (stat.isFile()) {
      const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      const candidate = match ? realOrSelf(path.resolve(root, match[1]!.trim())) : undefined;
      // The `.git` file is the project's (a hostile repository writes what it likes there); git's
      // own back-pointer in the worktree's gitdir, outside the project, must name this checkout.
      const backPointer = candidate ? readOptional(path.join(candidate, 'gitdir'))?.trim() : undefined;
      if (candidate && backPointer && realOrSelf(path.resolve(candidate, backPointer)) === realOrSelf(dotGit)) {
        gitDir = candidate;
        const common = readOptional(path.join(gitDir, 'commondir'));
        commonDir = common ? realOrSelf(path.resolve(gitDir, common.trim())) : gitDir;
      }
    }
  } catch {
    return { writable: [], protectedPaths: [] };
  }
  if (!gitDir || !commonDir) return { writable: [], protectedPaths: [] };
  const hooks = path.join(commonDir, 'hooks');
  try {
    mkdirSync(hooks, { recursive: true });
  } catch {
    // Read-only repository: nothing can be planted there either.
  }
  const protectedPaths = [hooks, path.join(commonDir, 'config'), path.join(commonDir, 'config.worktree'), path.join(gitDir, 'config.worktree')];
  const writable = [gitDir, commonDir].filter((dir) => !dir.startsWith(`${root}/`));
  return { writable: unique(writable), protectedPaths: unique(protectedPaths).filter(existsSync) };
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
