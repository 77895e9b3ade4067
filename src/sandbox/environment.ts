/**
 * The environment a sandboxed command sees: an allowlist, never the parent's whole environment,
 * because API keys and tokens live there and `printenv` would hand them to the model. A name on
 * the allowlist that still looks like a secret is dropped too (`npm_config__authToken`).
 */

/** Names passed through unchanged. `LC_*` is handled by prefix. */
const ALLOWED_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'TZ',
  'CI',
  'EDITOR',
  'PAGER',
  // Toolchains that find their own installs through the environment.
  'NODE_ENV',
  'NODE_PATH',
  'NVM_DIR',
  'NVM_BIN',
  'GOPATH',
  'GOROOT',
  'GOFLAGS',
  'GOCACHE',
  'GOMODCACHE',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'JAVA_HOME',
  'MAVEN_HOME',
  'GRADLE_USER_HOME',
  'PYTHONPATH',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'PYENV_ROOT',
  'RBENV_ROOT',
  'GEM_HOME',
  'GEM_PATH',
  'SEEK_AGENT',
]);
const ALLOWED_PREFIXES = ['LC_'];

/** Names that look like credentials: `*_KEY`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, and kin. */
const SECRET_NAME = /(^|_)(API_?)?KEY(S)?($|_)|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|PRIVATE|AUTH|COOKIE|SESSION_?ID/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The sandboxed command's environment: allowlisted names from `env` (plus `extra` from config),
 * minus anything secret-looking, plus `overrides` (applied last, never filtered: seek's own values
 * such as TMPDIR and SEEK_AGENT).
 */
export function sandboxEnvironment(
  env: NodeJS.ProcessEnv,
  extra: readonly string[] = [],
  overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const allowed = new Set([...ALLOWED_NAMES, ...extra]);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const listed = allowed.has(name) || ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
    if (!listed || looksSecret(name)) continue;
    out[name] = value;
  }
  return { ...out, ...overrides };
}
