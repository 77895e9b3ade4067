import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandSandbox } from '../agent/types.js';
import { bwrapArguments } from './bwrap.js';
import { sandboxEnvironment } from './environment.js';
import { ancestorsBelow, deniedInRoot, literalEntries } from './denied-paths.js';
import { isGlobEntry, seatbeltGlobRegex } from './denied-globs.js';
import { absentInRoot, existingFoldersOf, moveAsideCreated } from './absent-denied.js';
import { GitMetadataAudit } from './git-audit.js';
import { gitLayout } from './git-layout.js';
import { seatbeltProfile } from './seatbelt.js';
import { seccompFile } from './seccomp-file.js';
import { expandUserPath, hiddenPaths, homeHolding, readablePaths, realOrSelf, scratchDirs } from './sensitive-paths.js';
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
  #home: { scratch: string[]; readable: string[] } | undefined;
  #macTempDir: string | undefined;
  /** One audit per writable root, so its cached tree serves every command there. */
  readonly #audits = new Map<string, GitMetadataAudit>();

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
    return this.#scopeAndGit(profile, root).scope;
  }

  #scopeAndGit(profile: SandboxProfile, root: string): { scope: SandboxScope; git: ReturnType<typeof gitLayout> | undefined } {
    const realRoot = realOrSelf(root);
    const writes = profile === 'workspace-write';
    const git = writes ? gitLayout(realRoot, this.#options.home) : undefined;
    const writable = writes ? unique([realRoot, ...this.settings.allowWrite.map((p) => realOrSelf(expandUserPath(p, this.#options.home)))]).filter(existsSync) : [];
    const denyEntries = this.#expanded(this.settings.denyWrite);
    const denied = writes ? deniedInRoot(denyEntries, realRoot) : [];
    const absentDenied = writes ? absentInRoot(literalEntries(denyEntries), realRoot) : [];
    const protectedPaths = writes ? unique([path.join(realRoot, '.seek'), ...denied].filter(existsSync)) : [];
    const hiddenInRoot = this.#hiddenInRoot(realRoot);
    const home = this.#privateHome();
    const scope: SandboxScope = {
      profile,
      writable,
      protectedPaths,
      absentDenied,
      hidden: unique([...this.#hiddenPaths(), ...hiddenInRoot]),
      deniedGlobs: { read: this.#globRegexes(this.settings.denyRead, realRoot), write: writes ? this.#globRegexes(denyEntries, realRoot) : [] },
      scratch: home.scratch,
      readable: home.readable,
      visible: [realRoot],
      pinned: writes ? unique([...ancestorsBelow(realRoot, [...denied, ...hiddenInRoot]), ...existingFoldersOf(absentDenied, realRoot)]) : [],
      gitMounts: git?.mounts ?? [],
      network: writes && this.settings.network,
      unixSockets: this.settings.allowUnixSockets,
    };
    return { scope, git };
  }
  /** The sandbox for one call. Throws when none is available: the policy never asks for one then. */
  forCall(profile: SandboxProfile, root: string): CommandSandbox {
    if (!this.status.available) throw new Error(`no sandbox is available: ${this.status.reason ?? 'unknown reason'}`);
    const { scope, git } = this.#scopeAndGit(profile, root);
    const summary = describeScope(scope, root);
    const audit = git && scope.writable.length > 0 ? this.#audit(scope, git) : undefined;
    const absent = scope.absentDenied ?? [];
    const realRoot = realOrSelf(root);
    return {
      profile,
      summary,
      wrap: (spec) => {
        const wrapped = this.#wrap(scope, spec);
        if (!audit && absent.length === 0) return wrapped;
        const token = audit?.begin();
        const created = (): string[] => moveAsideCreated(absent, realRoot);
        return {
          ...wrapped,
          afterExit: async () => [...(audit && token ? await audit.finish(token) : []), ...created()],
          afterExitSync: () => [...(audit && token ? audit.finishSync(token) : []), ...created()],
        };
      },
    };
  }

  #audit(scope: SandboxScope, git: ReturnType<typeof gitLayout>): GitMetadataAudit {
    // A repository made or found since the last command changes the git dirs: a new audit.
    const key = [...scope.writable, '', ...git.gitDirs, '', ...git.hookFiles.slice(0, 1)].join('\0');
    let audit = this.#audits.get(key);
    if (!audit) {
      audit = new GitMetadataAudit({ writableRoots: scope.writable, gitDirs: git.gitDirs, includeTargets: git.includeTargets, hookFiles: git.hookFiles });
      this.#audits.set(key, audit);
    }
    return audit;
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
    const filter = seccompFile(this.#options.seekHome, { allowUnixSockets: scope.unixSockets });
    const args = [...bwrapArguments(scope, spec.cwd, { seccomp: filter !== undefined }), '--', spec.file, ...spec.args];
    return { file: this.status.program!, args, cwd: spec.cwd, env, ...(filter ? { inheritFiles: [filter] } : {}) };
  }

  /** The private home: every home directory and /run replaced, toolchains shown again. */
  #privateHome(): { scratch: string[]; readable: string[] } {
    const { home, env } = this.#options;
    this.#home ??= {
      scratch: scratchDirs(home, env),
      readable: unique(readablePaths(home, env, this.settings.allowRead).concat(resolvConf(this.settings.network))),
    };
    return this.#home;
  }

  #hiddenPaths(): string[] {
    const absolute = this.settings.denyRead.filter((p) => path.isAbsolute(p) || p.startsWith('~'));
    const { home, seekHome, env } = this.#options;
    const homes = this.#privateHome().readable.map((p) => homeHolding(p, home)).filter((p): p is string => p !== undefined);
    this.#hidden ??= unique(hiddenPaths(home, seekHome, absolute, env, homes).map(realOrSelf));
    return this.#hidden;
  }

  /** Relative deny-read entries (`Read(./.env)` deny rules) name files in the call's own root. */
  #hiddenInRoot(root: string): string[] {
    return deniedInRoot(this.settings.denyRead.filter((p) => !path.isAbsolute(p) && !p.startsWith('~')), root);
  }

  /** Seatbelt regexes for the relative glob entries, in `root`. */
  #globRegexes(entries: readonly string[], root: string): string[] {
    return entries.filter((p) => !path.isAbsolute(p) && !p.startsWith('~') && isGlobEntry(p)).map((p) => seatbeltGlobRegex(p, root));
  }

  /** `~/` entries against the home; absolute and relative ones as they are. */
  #expanded(entries: readonly string[]): string[] {
    return entries.map((p) => (p.startsWith('~') ? expandUserPath(p, this.#options.home) : p));
  }

  #macTemp(): string {
    this.#macTempDir ??= realOrSelf(mkdtempSync(path.join(tmpdir(), 'seek-sandbox-')));
    return this.#macTempDir;
  }
}

/** One line for the model and the user: what the sandbox let the command do. */
export function describeScope(scope: SandboxScope, root: string): string {
  const writes = scope.profile === 'workspace-write' ? `writes only inside ${root} and a private /tmp` : 'no writes (read-only filesystem, private /tmp)';
  return `${scope.profile} sandbox: ${writes}, network ${scope.network ? 'on' : 'off'}, home and secrets hidden`;
}

/** With the network on, DNS needs resolv.conf, which often links into /run (systemd-resolved). */
function resolvConf(network: boolean): string[] {
  if (!network) return [];
  const target = realOrSelf('/etc/resolv.conf');
  return target.startsWith('/run/') && existsSync(target) ? [target] : [];
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
