import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Paths hidden again wherever the home directory shows through: inside a toolchain folder shown
 * read-only (TOOLCHAIN_HOME_PATHS), or when the project itself is the home directory or holds it.
 * The rest of the home directory is hidden anyway (the whole of it is a throw-away tmpfs). seek's
 * own home (keys in config.json, transcripts) is added by the launcher, since SEEK_HOME may live
 * anywhere. Users extend the list with `sandbox.denyRead`.
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
  '.config/git/credentials',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.config/rclone',
  '.m2/settings.xml',
  '.m2/settings-security.xml',
  '.gradle/gradle.properties',
  '.ivy2/.credentials',
  '.sbt/credentials',
  '.nuget/NuGet/NuGet.Config',
  '.bundle/config',
  '.composer/auth.json',
  '.config/composer/auth.json',
  '.pub-cache/credentials.json',
  '.config/pip/pip.conf',
  '.pip/pip.conf',
  '.yarnrc',
  '.yarnrc.yml',
  '.boto',
  '.s3cfg',
  '.databrickscfg',
  '.oci',
  '.config/doctl',
  '.config/hcloud',
  '.config/stripe',
  '.codex',
  '.gemini',
  '.cursor',
  '.aider',
  '.config/github-copilot',
  '.bash_history',
  '.zsh_history',
  '.histfile',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.rediscli_history',
  '.lesshst',
  '.viminfo',
  '.local/share/fish',
  '.local/share/atuin',
];

/**
 * What a build or a test needs from the home directory, shown read-only inside the otherwise
 * private home: toolchains, their package caches, and git's identity (a commit needs user.name).
 * Secrets inside them (SENSITIVE_HOME_PATHS: Maven's settings.xml, cargo's credentials…) stay
 * hidden. `sandbox.allowRead` adds more; `sandbox.allowWrite` makes one writable.
 */
export const TOOLCHAIN_HOME_PATHS: readonly string[] = [
  '.gitconfig',
  '.config/git/config',
  '.config/git/ignore',
  '.config/git/attributes',
  'bin',
  '.local/bin',
  '.local/lib',
  '.local/share/pnpm',
  '.local/share/virtualenvs',
  '.local/share/uv',
  '.local/share/mise',
  '.local/share/fnm',
  '.local/pipx',
  '.cache',
  '.npm',
  '.npm-global',
  '.node-gyp',
  '.nvm',
  '.volta',
  '.bun',
  '.deno',
  '.yarn',
  '.pnpm-store',
  '.pyenv',
  '.virtualenvs',
  '.conda',
  'miniconda3',
  'anaconda3',
  'miniforge3',
  '.cargo',
  '.rustup',
  'go',
  '.m2',
  '.gradle',
  '.ivy2',
  '.sbt',
  '.sdkman',
  '.rbenv',
  '.gem',
  '.asdf',
  '.tool-versions',
  '.ghcup',
  '.cabal',
  '.stack',
  '.opam',
  '.elan',
  '.julia',
  '.juliaup',
  '.dotnet',
  '.nuget/packages',
  '.pub-cache',
  '.nix-profile',
];

/** Environment variables that name a toolchain's home: shown read-only when they point into
 * the private home (a Go or Rust install somewhere unusual). */
export const TOOLCHAIN_ENV_NAMES: readonly string[] = [
  'NVM_DIR',
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'GOMODCACHE',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'JAVA_HOME',
  'MAVEN_HOME',
  'GRADLE_USER_HOME',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'PYENV_ROOT',
  'RBENV_ROOT',
  'GEM_HOME',
  'VOLTA_HOME',
  'BUN_INSTALL',
  'DENO_DIR',
  'PNPM_HOME',
];

/** System-wide sockets that would let a command act outside the sandbox through a daemon
 * (unix sockets can be connected to on a read-only mount). /run and /var/run are replaced
 * whole (RUNTIME_DIRS); these are the ones that live elsewhere. */
export const SENSITIVE_SYSTEM_PATHS: readonly string[] = [
  '/var/lib/docker',
  '/var/lib/containerd',
  '/var/snap/lxd/common/lxd',
  '/var/lib/lxd',
  '/var/lib/incus',
  '/var/spool/postfix/private',
  '/var/spool/postfix/public',
];

/** Runtime directories, where daemons keep their sockets and pids: replaced by an empty tmpfs.
 * XDG_RUNTIME_DIR is added when it lives elsewhere. */
export const RUNTIME_DIRS: readonly string[] = ['/run', '/var/run'];

/** Where users' home directories live: every one is private, not only the user's own (as root
 * the others would show whatever their modes let root's uid read). */
export const HOME_PARENTS: readonly string[] = ['/home', '/root', '/Users'];

/** Expands `~` / `~/x` against `home`; other paths are resolved as given. */
export function expandUserPath(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(p);
}

/** The hidden paths that exist on this machine (only those can be mounted over). The sensitive
 * names are looked for in `home` and in every other home a shown folder lives in (`homes`). */
export function hiddenPaths(home: string, seekHome: string, extra: readonly string[], env: NodeJS.ProcessEnv, homes: readonly string[] = []): string[] {
  const candidates = [
    ...[...new Set([home, ...homes])].flatMap((base) => SENSITIVE_HOME_PATHS.map((p) => path.join(base, p))),
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

/** Directories no sandboxed command sees the contents of (each becomes an empty tmpfs): every
 * home directory and the runtime directories. Never `/` or a system directory, whatever HOME says. */
export function scratchDirs(home: string, env: NodeJS.ProcessEnv): string[] {
  const runtime = env.XDG_RUNTIME_DIR;
  const candidates = [...HOME_PARENTS, home, ...RUNTIME_DIRS, ...(runtime && path.isAbsolute(runtime) ? [runtime] : [])];
  const real = candidates.filter((p) => existsSync(p)).map(realOrSelf).filter((p) => !UNHIDEABLE.has(p));
  // A directory inside another one already replaced needs no mount of its own.
  return [...new Set(real)].filter((p, _, all) => !all.some((other) => other !== p && p.startsWith(`${other}/`)));
}

/** What HOME must never make private: the root and the directories programs run from. */
const UNHIDEABLE = new Set(['/', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/opt', '/var', '/tmp', '/nix', '/System', '/Library', '/Applications']);

/**
 * The home's toolchain folders that exist (TOOLCHAIN_HOME_PATHS, the toolchain variables and the
 * PATH entries that point into a home directory), plus `allowRead`: shown read-only in the private
 * home. A PATH entry shows the top folder of the home that holds it (`~/.nvm/versions/node/v20/bin`
 * shows `~/.nvm`; `/root/.pyenv/shims` shows `/root/.pyenv` whoever HOME is), never a home itself.
 */
export function readablePaths(home: string, env: NodeJS.ProcessEnv, allowRead: readonly string[]): string[] {
  const topFolder = (p: string): string | undefined => {
    const base = homeHolding(p, home);
    if (base === undefined) return undefined;
    const top = p.slice(base.length + 1).split('/')[0]!;
    return top === '' || top === '.' || top === '..' ? undefined : path.join(base, top);
  };
  const fromEnv = [...TOOLCHAIN_ENV_NAMES.map((name) => env[name]), ...(env.PATH ?? '').split(path.delimiter), process.execPath]
    .filter((p): p is string => p !== undefined && path.isAbsolute(p))
    .map((p) => topFolder(path.normalize(p)))
    .filter((p): p is string => p !== undefined);
  const candidates = [...TOOLCHAIN_HOME_PATHS.map((p) => path.join(home, p)), ...fromEnv, ...allowRead.map((p) => expandUserPath(p, home))];
  return [...new Set(candidates)].filter((p) => existsSync(p));
}

/** The home directory `p` lies in: `home` (as given or resolved), /root, /home/<user> or
 * /Users/<user>; undefined for a path in none of them. */
export function homeHolding(p: string, home: string): string | undefined {
  const known = [home, realOrSelf(home), '/root'].find((base) => p.startsWith(`${base}/`));
  if (known !== undefined) return known;
  const parts = p.split('/');
  return ['home', 'Users'].includes(parts[1] ?? '') && parts.length > 3 ? parts.slice(0, 3).join('/') : undefined;
}

/** `p` with every symlink resolved, or `p` made absolute when it does not exist. */
export function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}
