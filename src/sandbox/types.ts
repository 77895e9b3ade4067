/**
 * The OS sandbox's vocabulary. The permission policy names a profile for each command it lets run
 * without a person's yes; the launcher turns profile + roots into a wrapped spawn (bwrap on Linux,
 * sandbox-exec on macOS). Nothing here decides *whether* a command may run: that is the policy's.
 */

/**
 * - `read-only`: the whole filesystem read-only, sensitive paths hidden, no network, the
 *   environment reduced to an allowlist, a private /tmp. Plan mode and auto-allowed inspectors.
 * - `workspace-write`: the same, plus write access to the working root (the project, or the
 *   worktree the agent works in) and its own temp dir; `.git/hooks`, `.git/config` and `.seek`
 *   stay read-only so nothing planted there runs later outside the sandbox. Network only when the
 *   user's config allows it.
 */
export type SandboxProfile = 'read-only' | 'workspace-write';

export const SANDBOX_PROFILES: readonly SandboxProfile[] = ['read-only', 'workspace-write'];

/** True when `child` is as tight as `parent` or tighter (read-only is the tightest). */
export function profileWithin(parent: SandboxProfile, child: SandboxProfile): boolean {
  return SANDBOX_PROFILES.indexOf(child) <= SANDBOX_PROFILES.indexOf(parent);
}

/** The user's sandbox settings (`"sandbox": {...}` in ~/.seek/config.json). */
export interface SandboxSettings {
  /** false: never sandbox; what would have been sandboxed is asked (interactive) or denied. */
  enabled: boolean;
  /** Network for workspace-write commands (read-only commands never get it). Default false. */
  network: boolean;
  /** Extra paths hidden from sandboxed commands (absolute or `~/`). */
  denyRead: string[];
  /** Paths in the private home (or another hidden place) shown read-only again (absolute or
   * `~/`), beside the toolchain folders seek shows by default (sensitive-paths.ts). */
  allowRead: string[];
  /** Let sandboxed commands create Unix sockets (the seccomp filter blocks them by default; the
   * home directory, /run and /var/run stay hidden either way). */
  allowUnixSockets: boolean;
  /** Extra paths workspace-write commands may write (absolute or `~/`), e.g. `~/.cache`. */
  allowWrite: string[];
  /** Paths workspace-write commands may read but not write (absolute, `~/`, or relative to the
   * root), beside the files of `Edit(...)`/`Write(...)` deny rules. */
  denyWrite: string[];
  /** Extra environment variable names passed through (secret-looking names are still dropped). */
  env: string[];
}

export const DEFAULT_SANDBOX_SETTINGS: Readonly<SandboxSettings> = Object.freeze({
  enabled: true,
  network: false,
  denyRead: [],
  allowRead: [],
  allowUnixSockets: false,
  allowWrite: [],
  denyWrite: [],
  env: [],
});

/** Which mechanism this machine offers, and whether it works. */
export interface SandboxStatus {
  available: boolean;
  /** `bwrap` | `sandbox-exec` | `none`. */
  mechanism: 'bwrap' | 'sandbox-exec' | 'none';
  /** The program's path when found. */
  program?: string;
  /** Its version line, when it answered. */
  version?: string;
  /** Why it is not available (one sentence), when it is not. */
  reason?: string;
  /** How to make it available, when it is not and something can be done. */
  fix?: string;
}

/** One spawn, before and after wrapping (the agent's CommandSpawn). */
export type { CommandSpawn as SpawnSpec } from '../agent/types.js';

/** One mount of git metadata, applied in order after the roots (see git-layout.ts). */
export interface GitMount {
  path: string;
  /** `rw`: bound onto itself, writable (a mount point cannot be renamed, removed or replaced);
   * `ro`: read-only. */
  mode: 'rw' | 'ro';
}

/** What one sandboxed call may do: computed by the launcher from the profile and the agent's root. */
import type { AbsentDenied } from './absent-denied.js';

export interface SandboxScope {
  profile: SandboxProfile;
  /** Directories writable by the command (workspace-write only; empty for read-only). */
  writable: string[];
  /** Paths inside writable roots that stay read-only (`.git/hooks`, `.git/config`, `.seek`). */
  protectedPaths: string[];
  /** Denied paths inside a writable root that do not exist yet (absent-denied.ts): never mounted
   * (that would create them on the user's disk); forbidden by path on macOS, moved aside after the
   * command when it created them. */
  absentDenied?: AbsentDenied[];
  /** Paths hidden: directories appear empty, files empty. */
  hidden: string[];
  /** Seatbelt regexes for the glob deny entries in the root (denied-globs.ts): `read` unreadable,
   * `write` not writable, files made later included. bubblewrap mounts the existing matches
   * (listed in `hidden` and `protectedPaths`) instead. */
  deniedGlobs?: { read: string[]; write: string[] };
  /** Directories replaced by an empty, writable, throw-away tmpfs: the home directories and
   * /run (what a command writes there vanishes with it). */
  scratch: string[];
  /** Paths inside scratch directories shown again, read-only: toolchains and their caches. */
  readable: string[];
  /** Directories inside a writable root bound onto themselves before the protected and hidden
   * paths in it (denied-paths.ts): they cannot be renamed away from under those mounts. */
  pinned?: string[];
  /** Git metadata inside or beside writable roots, pinned or read-only, in order. */
  gitMounts: GitMount[];
  /** Unix sockets may be created (no seccomp rule against them). */
  unixSockets: boolean;
  /** Directories that must stay readable even under a hidden path (the working root itself). */
  visible: string[];
  network: boolean;
}
