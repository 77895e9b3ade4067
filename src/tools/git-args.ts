/**
 * Which git invocations the read-only `git` tool accepts. The rule is "cannot write or execute":
 * subcommands come from a fixed list (none contacts a remote), and arguments that would write
 * files, change refs, run external programs, or read files outside the repository (which would
 * bypass the read policy) are refused with a reason the model can act on. branch and tag use flag
 * whitelists because almost any positional argument to them creates something.
 */

export const READ_ONLY_GIT_SUBCOMMANDS = [
  'log',
  'diff',
  'show',
  'status',
  'blame',
  'branch',
  'tag',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'cat-file',
  'shortlog',
  'describe',
  'reflog',
] as const;
// Not here: ls-remote, fetch and anything else that contacts a remote (a URL argument would send
// data anywhere); the safety overrides also refuse every transport (protocol.allow=never).

export type GitSubcommand = (typeof READ_ONLY_GIT_SUBCOMMANDS)[number];

/** Subcommands that print diffs, where `--output` writes a file and `--ext-diff` runs a program. */
const DIFF_PRINTERS = new Set<GitSubcommand>(['diff', 'log', 'show', 'shortlog']);

/** Options that take the next argument as their value when not given with `=`. */
const LISTING_VALUE_OPTIONS = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format']);
/** Options that put branch/tag into list mode, where positionals are patterns, not new names. */
const LISTING_MODE_OPTIONS = new Set(['--list', '-l', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at']);

const BRANCH_LONG = new Set([
  ...LISTING_VALUE_OPTIONS,
  '--list', '--all', '--remotes', '--verbose', '--quiet', '--show-current', '--column', '--no-column',
  '--color', '--no-color', '--ignore-case', '--abbrev', '--no-abbrev', '--omit-empty',
]);
const BRANCH_SHORT = new Set(['a', 'r', 'v', 'l', 'i', 'q']);
const TAG_LONG = new Set([...LISTING_VALUE_OPTIONS, '--list', '--column', '--no-column', '--color', '--ignore-case', '--omit-empty']);
const TAG_SHORT = new Set(['l', 'i', 'n']);

const REFLOG_WRITERS = new Set(['expire', 'delete', 'drop', 'write']);

/** Null when the call is allowed, else why not (written for the model). */
export function checkGitArgs(subcommand: GitSubcommand, args: readonly string[]): string | null {
  const endOfOptions = args.indexOf('--');
  const options = endOfOptions === -1 ? args : args.slice(0, endOfOptions);

  for (const arg of options) {
    const refusal = checkCommonArg(subcommand, arg);
    if (refusal) return refusal;
  }
  if (subcommand === 'branch') return checkListingOnly('branch', options, BRANCH_LONG, BRANCH_SHORT);
  if (subcommand === 'tag') return checkListingOnly('tag', options, TAG_LONG, TAG_SHORT);
  if (subcommand === 'reflog') {
    // git reads the reflog subcommand only from the first argument; anything else is `show`.
    const first = options[0];
    if (first !== undefined && REFLOG_WRITERS.has(first)) {
      return `git reflog ${first} changes the reflog; only \`reflog\` or \`reflog show\` is allowed.`;
    }
  }
  return null;
}

function checkCommonArg(subcommand: GitSubcommand, arg: string): string | null {
  const name = arg.split('=')[0]!;
  if ((arg.startsWith('-c') && !arg.startsWith('--')) || name.startsWith('--config')) {
    return `${arg}: config overrides (-c, --config) are not allowed in the git tool.`;
  }
  if (name === '--upload-pack' || name === '--exec' || name === '--receive-pack') {
    return `${arg} runs a program; not allowed in the read-only git tool.`;
  }
  if (name === '--ext-diff' || name === '--textconv' || name === '--filters') {
    return `${arg} runs external diff/filter programs; not allowed in the read-only git tool.`;
  }
  if (name === '--output' || (DIFF_PRINTERS.has(subcommand) && arg.startsWith('-o'))) {
    return `${arg} writes a file; the git tool is read-only. Drop it and read the output from the result.`;
  }
  if (name === '--no-index' || name === '--contents') {
    return `${arg} reads files outside the repository; use read_file for files.`;
  }
  return null;
}

/**
 * branch/tag: every option must be on the whitelist (so -d, -m, -f, --set-upstream… are out), and
 * positionals are only allowed in list mode, where they are patterns or commits.
 */
function checkListingOnly(command: 'branch' | 'tag', options: readonly string[], long: Set<string>, short: Set<string>): string | null {
  const listing = `only listing forms are allowed (e.g. \`${command} --list\`, \`${command} -a\`, \`${command} --contains <commit>\`)`;
  let listMode = false;
  let sawPositional = false;
  for (let index = 0; index < options.length; index += 1) {
    const arg = options[index]!;
    if (arg.startsWith('--')) {
      const name = arg.split('=')[0]!;
      if (!long.has(name)) return `git ${command} ${arg} is not allowed: ${listing}.`;
      if (LISTING_MODE_OPTIONS.has(name)) listMode = true;
      const valueFollows = !arg.includes('=') && LISTING_VALUE_OPTIONS.has(name);
      if (valueFollows && index + 1 < options.length && !options[index + 1]!.startsWith('-')) index += 1;
    } else if (arg.startsWith('-') && arg.length > 1) {
      const letters = arg.slice(1);
      for (let at = 0; at < letters.length; at += 1) {
        const letter = letters[at]!;
        if (!short.has(letter)) return `git ${command} -${letter} is not allowed: ${listing}.`;
        if (letter === 'l') listMode = true;
        if (letter === 'n') {
          listMode = true; // tag -n<num> lists with annotation lines; the rest is the number
          break;
        }
      }
    } else {
      sawPositional = true;
    }
  }
  if (sawPositional && !listMode) {
    return `git ${command} with a name creates or changes a ${command}; ${listing}.`;
  }
  return null;
}
