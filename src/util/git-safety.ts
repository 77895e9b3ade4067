/**
 * Git configuration that runs programs, neutralised for every git seek starts itself (the `git`
 * tool, the worktree manager) and recognised for the bash inspector's `git status` & co.
 *
 * A repository's own `.git/config` is not the user's: an unpacked archive, a repository the agent
 * edited, or any clone touched by another tool can set keys that make a plain `git status` run a
 * program. Command-line configuration beats every config file, so seek
 *  1. always passes `--no-pager` and the fixed overrides in GIT_SAFETY_CONFIG, and
 *  2. reads the configuration (GIT_CONFIG_LISTING_ARGS) before commands that may run drivers and
 *     neutralises every driver the repository's own files (scopes `local` and `worktree`,
 *     including the files they include) define: `repositoryOverrides`. Drivers of the user's own
 *     global or system config (git-lfs, a textconv for PDFs) keep working.
 * Diff printers also get `--no-ext-diff` (`diffSafetyArgs`): an empty `diff.external` or driver
 * command would make git fail ("cannot run"), so external diffs are switched off per command.
 *
 * A shared leaf: imports nothing from src.
 */

/**
 * `-c` overrides on every git seek runs. Each key names a program git would otherwise run:
 *  - core.fsmonitor: a hook program run by every command that reads the index (status, diff…);
 *  - core.hooksPath: hooks run by worktree add (post-checkout), by index writes (post-index-change,
 *    which `git status` triggers), by merges and commits; /dev/null holds no hook;
 *  - core.pager: belt and braces with `--no-pager` (which also silences `pager.<command>`);
 *  - core.editor, sequence.editor: `false` makes anything that would open an editor fail;
 *  - core.askPass, credential.helper: programs asked for passwords (empty resets the helper list);
 *  - core.sshCommand, core.gitProxy: programs run to reach a remote;
 *  - log.showSignature: verifying signatures runs gpg.program;
 *  - protocol.allow and protocol.<name>.allow: seek's git calls are local, so every transport is
 *    refused; this also stops lazy fetches in partial clones, `remote.<name>.uploadpack` and
 *    `ext::` URLs (per-protocol keys beat protocol.allow, hence both, and the repository's own
 *    protocol.<name>.allow keys are overridden too: see `repositoryOverrides`).
 * Not here: diff.external (an empty value breaks `git diff`; `--no-ext-diff` instead) and
 * uploadpack.packObjectsHook (git honours it only from protected config, never a repository's).
 */
export const GIT_SAFETY_CONFIG: readonly (readonly [key: string, value: string])[] = Object.freeze([
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.askPass', ''],
  ['credential.helper', ''],
  ['core.sshCommand', ''],
  ['core.gitProxy', ''],
  ['log.showSignature', 'false'],
  ['protocol.allow', 'never'],
  ...['file', 'git', 'ssh', 'http', 'https', 'ext'].map((name) => [`protocol.${name}.allow`, 'never'] as const),
]);

/**
 * The values `repositoryOverrides` points at with `--config-env` (a key from the repository may
 * contain `=`, which `-c` would split at; `--config-env` splits at the last `=`). Merge these into
 * the environment of every git call that uses GIT_SAFETY_ARGS/`repositoryOverrides`.
 */
export const GIT_SAFETY_ENV: Readonly<Record<string, string>> = Object.freeze({
  SEEK_GIT_EMPTY: '',
  SEEK_GIT_FALSE: 'false',
  SEEK_GIT_NEVER: 'never',
  SEEK_GIT_CAT: 'cat',
});

/** Global options that precede the subcommand of every git seek runs. */
export const GIT_SAFETY_ARGS: readonly string[] = Object.freeze(['--no-pager', ...GIT_SAFETY_CONFIG.flatMap(([key, value]) => ['-c', `${key}=${value}`])]);

/** `git <these>` prints every config entry with its scope, NUL-separated, includes followed. */
export const GIT_CONFIG_LISTING_ARGS: readonly string[] = Object.freeze(['config', '--list', '--show-scope', '--includes', '-z']);

/** Scopes whose files belong to the repository rather than the user (or seek's command line). */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

export interface ConfigEntry {
  scope: string;
  /** Section and variable name lowercased by git; a subsection keeps its case. */
  key: string;
}

/** Parses the output of GIT_CONFIG_LISTING_ARGS (`scope\0key\nvalue\0…`). */
export function parseConfigListing(listing: string): ConfigEntry[] {
  const fields = listing.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const record = fields[i + 1]!;
    const newline = record.indexOf('\n');
    entries.push({ scope: fields[i]!, key: newline === -1 ? record : record.slice(0, newline) });
  }
  return entries;
}

/** `section.subsection.name` -> its parts (the subsection may contain dots). */
function splitKey(key: string): { section: string; sub: string | undefined; name: string } {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  return { section, sub: first === last ? undefined : key.slice(first + 1, last), name };
}

/**
 * For a key that names a program (or lets git reach a remote), the GIT_SAFETY_ENV variable whose
 * value neutralises it; undefined for keys that run nothing.
 *  - filter.<driver>.clean/smudge/process: an empty command means "no filter" (`git status` and
 *    `git add` run clean filters, checkouts run smudge filters); `.required` false so git does not
 *    refuse to work without the filter;
 *  - diff.<driver>.textconv: `cat` converts nothing (an empty one would make git fail);
 *  - merge.<driver>.driver: `false`, so a merge that needs it stops with a conflict;
 *  - gpg.program, gpg.<format>.program, gpg.ssh.defaultKeyCommand: signing/verifying programs;
 *  - protocol.<name>.allow: `never` (see GIT_SAFETY_CONFIG).
 * diff.<driver>.command and diff.external are left to `--no-ext-diff`.
 */
function neutraliser(key: string): string | undefined {
  const { section, sub, name } = splitKey(key);
  if (section === 'filter' && sub !== undefined) {
    if (name === 'clean' || name === 'smudge' || name === 'process') return 'SEEK_GIT_EMPTY';
    if (name === 'required') return 'SEEK_GIT_FALSE';
  }
  if (section === 'diff' && sub !== undefined && name === 'textconv') return 'SEEK_GIT_CAT';
  if (section === 'merge' && sub !== undefined && name === 'driver') return 'SEEK_GIT_FALSE';
  if (section === 'gpg' && (name === 'program' || name === 'defaultkeycommand')) return 'SEEK_GIT_EMPTY';
  if (section === 'protocol' && sub !== undefined && name === 'allow') return 'SEEK_GIT_NEVER';
  return undefined;
}

/**
 * `--config-env` overrides for the drivers the repository's own config files define (and for
 * protocol.<name>.allow from any scope), given the output of GIT_CONFIG_LISTING_ARGS.
 */
export function repositoryOverrides(listing: string): string[] {
  const seen = new Set<string>();
  const args: string[] = [];
  for (const { scope, key } of parseConfigListing(listing)) {
    const variable = neutraliser(key);
    if (variable === undefined || seen.has(key)) continue;
    if (!REPOSITORY_SCOPES.has(scope) && !key.toLowerCase().startsWith('protocol.')) continue;
    seen.add(key);
    args.push(`--config-env=${key}=${variable}`);
  }
  return args;
}

/** Whether the repository's own config files include other files (`include.*`, `includeIf.*`),
 * given the output of GIT_CONFIG_LISTING_ARGS: changes to those cannot be seen from its own. */
export function repositoryIncludes(listing: string): boolean {
  return parseConfigListing(listing).some(({ scope, key }) => {
    const { section } = splitKey(key);
    return REPOSITORY_SCOPES.has(scope) && (section === 'include' || section === 'includeif');
  });
}

/** Keys the fixed overrides neutralise: in a repository's own files they mark it as hostile. */
const OVERRIDDEN_KEYS = new Set([...GIT_SAFETY_CONFIG.map(([key]) => key.toLowerCase()), 'diff.external']);

/**
 * For the bash inspector, which runs plain `git` without seek's overrides: true when a key in
 * the repository's own config files could make a read-only git command run a program, reach a
 * remote, or read outside the repository (core.worktree). `pager.<command>` and the diff driver
 * commands count, as does every key `repositoryOverrides` neutralises.
 */
export function repositoryConfigRunsPrograms(listing: string): boolean {
  return parseConfigListing(listing).some(({ scope, key }) => {
    if (!REPOSITORY_SCOPES.has(scope)) return false;
    const lower = key.toLowerCase();
    const { section, sub, name } = splitKey(key);
    if (OVERRIDDEN_KEYS.has(lower) || neutraliser(key) !== undefined) return true;
    if (section === 'pager' || section === 'credential' || lower === 'core.worktree' || lower === 'core.alternaterefscommand') return true;
    if (section === 'diff' && sub !== undefined && name === 'command') return true;
    return section === 'remote' && sub !== undefined && ['uploadpack', 'receivepack', 'vcs', 'proxy'].includes(name);
  });
}

/** Subcommands whose output may include patches: external diffs and textconv are switched off. */
const DIFF_PRINTERS = new Set(['diff', 'log', 'show', 'whatchanged']);

/** Options to put right after `subcommand` so it runs no external diff or textconv program. */
export function diffSafetyArgs(subcommand: string): string[] {
  if (DIFF_PRINTERS.has(subcommand)) return ['--no-ext-diff', '--no-textconv'];
  if (subcommand === 'blame') return ['--no-textconv'];
  return [];
}

/** Where the subcommand sits in a git argument list: after global options such as `-c k=v`. */
export function subcommandIndex(args: readonly string[]): number {
  let index = 0;
  while (index < args.length && args[index]!.startsWith('-')) {
    const option = args[index]!;
    index += option === '-c' || option === '-C' || option === '--git-dir' || option === '--work-tree' ? 2 : 1;
  }
  return index;
}

/**
 * Variables that point git at a particular repository, index, work tree or config file. A seek
 * started from a git hook (or a worker started by a test) inherits them and would otherwise act on
 * the wrong repository, so every git seek runs drops them unless the call sets them itself (the
 * rescue snapshot sets GIT_INDEX_FILE; a fleet mirror names GIT_DIR).
 */
export const GIT_REPOSITORY_LOCATION_VARS: readonly string[] = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_PREFIX',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_NAMESPACE',
  'GIT_CONFIG',
];
