import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Paths every sandboxed command has hidden, relative to the home directory: credentials and
 * agent sockets of common tools. seek's own home (keys in config.json, transcripts) is added by
 * the launcher, since SEEK_HOME may live anywhere. Users extend the list with `sandbox.denyRead`.
 */
export const SENSITIVE_HOME_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.docker/config.json',
  '.kube',
  '.azure',
  '.config/gh',
  '.config/gcloud',
  '.config/hub',
  '.config/op',
  '.config/seek',
  '.claude',
  '.claude.json',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.password-store',
  '.local/share/keyrings',
];

/** System-wide sockets that would let a command act outside the sandbox through a daemon
 * (unix sockets can be connected to on a read-only mount). */
export const SENSITIVE_SYSTEM_PATHS: readonly string[] = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/containerd',
  '/run/podman',
  '/run/user',
  '/run/dbus',
  '/var/run/dbus',
];

/** Expands `~` / `~/x` against `home`; other paths are resolved as given. */
export function expandUserPath(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(p);
}

/** The hidden paths that exist on this machine (only those can be mounted over). */
export function hiddenPaths(home: string, seekHome: string, extra: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const candidates = [
    ...SENSITIVE_HOME_PATHS.map((p) => path.join(home, p)),
    ...SENSITIVE_SYSTEM_PATHS,
    seekHome,
    ...extra.map((p) => expandUserPath(p, home)),
  ];
  // Agent sockets named by the environment (ssh-agent, gpg-agent) wherever they live.
  for (const name of ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO']) {
    const value = env[name]?.split(':')[0];
    if (value && path.isAbsolute(value)) candidates.push(value);
  }
  return [...new Set(candidates)].filter((p) => existsSync(p));
}
