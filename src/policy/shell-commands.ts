/**
 * What a bash command line runs, read with the bash grammar (shell-parser.ts): the simple commands
 * it is made of, each as the words the shell would pass to the program, so that permission rules
 * judge commands rather than text (command-rules.ts).
 *
 * Shell constructs followed: lists (`;`, `&&`, `||`, `&`, newlines), pipelines (`|`, `|&`),
 * subshells `( )`, groups `{ }`, `! cmd`, `if`/`elif`/`else`, `while`/`until`, `for`/`select`,
 * C-style `for (( ))`, `case`, function bodies, command substitutions `$( )` and backticks
 * (anywhere: arguments, strings, assignments, redirections, `${x:-…}` defaults, arithmetic,
 * here-documents with an unquoted delimiter, backticks inside those included), process
 * substitutions `<( )` `>( )`, `[[ ]]`/`[ ]`/`(( ))` (only the substitutions inside them), bare
 * assignments and `export`/`declare`/`local`/`readonly`/`typeset`/`unset`.
 *
 * Words are evaluated as bash would before running the program: quotes removed (`"cu"rl`,
 * `cu''rl`), backslashes (`c\url`, `\curl`), `$'…'` escapes (`$'\x63url'`), `$"…"`. What cannot be
 * known before the command runs becomes an *unknown* part: parameter expansions (`$x`, `${IFS}`),
 * command and process substitutions, arithmetic, unquoted globs (`*`, `?`, `[…]`) and brace
 * expansions (a word with `{a,b}` or `{1..3}` is unknown as a whole). Leading `NAME=value`
 * assignments and redirections are kept apart from the program's words.
 *
 * Commands that run other commands are judged themselves and for the command they run,
 * recursively (WRAPPERS in shell/wrappers.ts, each with its options): `command`, `builtin`,
 * `exec`, `nohup`, `time`, `nice`, `timeout`, `stdbuf`, `setsid`, `unbuffer`, `ionice`, `chrt`, `taskset`, `coproc`
 * (transparent: an allow rule for the command covers them), and `env`, `xargs`, `sudo`, `doas`,
 * `su`, `runuser`, `flock`, `watch`, `script`, `parallel`, `busybox`, `toybox`, `find -exec`/
 * `-execdir`/`-ok`/`-okdir` (not transparent). Shell code handed over as a string is parsed the
 * same way: `sh`/`bash`/`dash`/`zsh`/`ksh`/`mksh`/`ash`/`posh`/`yash` `-c`, `eval`, `trap`, `alias`
 * values, `su -c`, `flock -c`, `script -c`, `watch` and `parallel` (both run their words through a
 * shell). A shell given a script file is not looked into (neither are `source`, `make`, `npm run`
 * or other interpreters' `-c`/`-e`).
 *
 * What cannot be read is reported as a problem, and stands in the result as a command whose program
 * is unknown: a program that is an expansion or substitution (`$cmd`, `$(which curl)`,
 * `curl${IFS}x`), a shell string that is not literal (`eval "$x"`, `sh -c "$x"`), a shell reading
 * its commands from its input (`… | bash`, `bash <<EOF`, `bash -s`, `sudo -s`, `script`), `parallel`
 * with its commands in its input, an option of a wrapper that is not literal (`env $OPTS curl`),
 * commands nested deeper than MAX_DEPTH (shell/walk.ts), and a command line that does not parse.
 *
 * Code a command runs besides the command after it is judged too (shell/hidden-runs.ts, shell/git.ts):
 * variables holding code (`PAGER=… git log`), builtins' `-C` callbacks, `source /dev/stdin`, git's
 * program settings and subcommands, npm's `-c`. Where bash runs text the grammar shows as data, or
 * splits words otherwise (arithmetic on a variable's value, `${x@P}`, a `\r` between words), the
 * line is unknown (shell/hazards.ts).
 *
 * The work is split in shell/: words.ts (what a word evaluates to), walk.ts (the walk over the
 * grammar's tree), hazards.ts (where bash and the grammar part ways), options.ts and wrappers.ts
 * (wrappers and what they run), hidden-runs.ts and git.ts (code run besides them), expand.ts (a
 * simple command and the commands it runs). This file is the entry point.
 */
import { loadShellParser, shellParserLoaded, shellParserProblem, withShellTree } from './shell-parser.js';
import { expand } from './shell/expand.js';
import { unresolvedCommand, walkRoot, type Walk } from './shell/walk.js';
import type { CommandAnalysis } from './shell/words.js';

export { decodeAnsiC, displayWord, formatSimpleCommand, literalOf, programName } from './shell/words.js';
export type { CommandAnalysis, ShellWord, SimpleCommand, WordPart } from './shell/words.js';

/** Longer command lines are not parsed (about a second per megabyte): they are unreadable. */
const MAX_LENGTH = 1_000_000;

// ---------------------------------------------------------------------------------------------
// Entry points

const cache = new Map<string, CommandAnalysis>();
const CACHE_SIZE = 128;

/**
 * The simple commands `command` runs. Synchronous: the grammar must have been loaded
 * (`loadShellParser`); when it is not, the whole command is one unreadable command.
 */
export function analyzeCommand(command: string): CommandAnalysis {
  const cached = cache.get(command);
  if (cached) return cached;
  const w: Walk = { source: command, out: [], problems: [], via: [], depth: 0, writes: false, expand };
  if (command.length > MAX_LENGTH) {
    unresolvedCommand(w, '…', `the command is longer than ${MAX_LENGTH} characters`);
    return { command, commands: w.out, problems: w.problems };
  }
  if (!shellParserLoaded() || withShellTree(command, (root) => walkRoot(root, w)) === undefined) {
    const analysis: CommandAnalysis = { command, commands: [], problems: [] };
    unresolvedCommand({ ...w, out: analysis.commands, problems: analysis.problems }, command, shellParserProblem());
    return analysis; // not cached: the grammar may load later
  }
  const analysis: CommandAnalysis = { command, commands: w.out, problems: [...new Set(w.problems)] };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(command, analysis);
  return analysis;
}

export { loadShellParser };
