/**
 * Which build of the CLI a command line needs. The build writes two scripts from the same source:
 * dist/cli/main.cjs, the whole CLI, and dist/cli/headless.cjs, the same CLI without the terminal UI
 * and the subcommands (about half the size). A headless prompt (`seek -p …`) is the most frequent
 * start and the one scripts wait on, and a script's size is start time: it is read, decoded and
 * its code cache deserialised at every start (bench/say-hello measures it).
 *
 * The rule is conservative: the headless build is chosen only when the command line is certainly
 * a root command with -p/--print; anything else (a subcommand, help, a doubtful flag) gets the
 * whole CLI, which runs every command line. This file is shared by the launcher and the CLI, so
 * the two can never disagree on the subcommands' names.
 */

/** The subcommands (src/cli/commands/, one file each). src/cli/main.ts keys its loaders by these. */
export const SUBCOMMAND_NAMES = [
  'hooks',
  'subagent',
  'worktree',
  'run',
  'memory',
  'distill',
  'sandbox',
  'permissions',
  'mcp',
  'rewind',
  'gc',
  'acp',
  'batch',
  'worker',
] as const;

export type SubcommandName = (typeof SUBCOMMAND_NAMES)[number];

const SUBCOMMANDS: ReadonlySet<string> = new Set(SUBCOMMAND_NAMES);

/** A first word the CLI may take for a command: a subcommand, `help`, or a near miss of one that
 * it checks against the command's own arguments (src/cli/near-miss.ts). */
export const COMMAND_LIKE = /^[A-Za-z][A-Za-z-]*$/;

/** The version query `src/cli/main.ts` answers before anything else. */
const VERSION_FLAGS: ReadonlySet<string> = new Set(['--version', '-v', '-V']);

/** True when the headless build runs `argv` (the arguments after `seek`): a headless prompt, or the
 * version query (which editors and scripts ask to find seek, and which any build answers). */
export function runsOnHeadlessBuild(argv: readonly string[]): boolean {
  return (argv.length === 1 && VERSION_FLAGS.has(argv[0]!)) || isHeadlessPrompt(argv);
}

/** True when `argv` (the arguments after `seek`) is a headless prompt run of the root command. */
export function isHeadlessPrompt(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined || SUBCOMMANDS.has(first) || COMMAND_LIKE.test(first)) return false;
  for (const arg of argv) {
    if (arg === '--') return false; // what follows is prompt text; the rest is the whole CLI's to judge
    if (arg === '-p' || arg === '--print' || arg === '-print' || arg.startsWith('--print=')) return true;
  }
  return false;
}
