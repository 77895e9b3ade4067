/**
 * The environment a sandboxed command sees: an allowlist, never the parent's whole environment,
 * because API keys and tokens live there and `printenv` would hand them to the model. A name on
 * the allowlist that still looks like a secret is dropped too (`npm_config__authToken`).
 */

import { TOOLCHAIN_ENV_NAMES } from './sensitive-paths.js';

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
  // Toolchains that find their own installs through the environment (sensitive-paths.ts shows
  // the folders they name when they point into the private home).
  ...TOOLCHAIN_ENV_NAMES,
  'NODE_ENV',
  'NODE_PATH',
  'NVM_BIN',
  'GOFLAGS',
  'PYTHONPATH',
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
