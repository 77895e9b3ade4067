import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverCommand, denyMatch } from '../../../src/policy/command-rules.js';
import { loadShellParser } from '../../../src/policy/shell-parser.js';

/**
 * Adversarial spellings against command rules, by an attacker who has read the parser (issue:
 * session 48). Each row is [command line, class]. The allow table holds lines that run more than
 * `git status` (a command of the attacker's choice), so `Bash(git status:*)` must not cover them;
 * the deny table, lines that run `rm` (or may: unknown counts), so `Bash(rm:*)` must match them.
 * Each class was checked against bash 5.2 (`bash -c`) by hand; the rows marked so ran the payload.
 */

let root: string;
beforeAll(async () => {
  await loadShellParser();
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-shell-bypasses-')));
  mkdirSync(path.join(root, 'src'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const covered = (pattern: string, command: string): boolean => coverCommand(command, [{ tool: 'bash', pattern, decision: 'allow', source: 'user' }], { root }) !== undefined;

/** Lines that run a command besides `git status`: never covered by `Bash(git status:*)`. */
const ALLOW_BYPASSES: [string, string][] = [
  // bash's blanks are space, tab and newline only: `\r#` is a word to bash, a blank and a comment to the grammar
  ['git status \r# ; rm -rf x', 'blank mismatch (CR)'],
  ['git status \v# ; rm -rf x', 'blank mismatch (VT)'],
  ['git status \f# ; rm -rf x', 'blank mismatch (FF)'],
  // a variable's value evaluated as arithmetic runs `a[$(cmd)]`; `$_` is the previous command's last argument
  ["echo 'a[$(rm x)]'; git status $(( $_ ))", 'arithmetic on $_'],
  ["for x in 'a[$(rm y)]'; do git status $((x)); done", 'arithmetic on a loop variable'],
  ["for x in 'a[$(rm y)]'; do git status $[x]; done", 'old arithmetic $[ ]'],
  ["for x in 'a[$(rm y)]'; do ((x)); git status; done", 'arithmetic command (( ))'],
  ["for x in 'a[$(rm y)]'; do [[ $x -eq 1 ]]; git status; done", '[[ -eq ]] arithmetic'],
  ["for x in 'a[$(rm y)]'; do [[ -v $x ]]; git status; done", '[[ -v ]] subscript'],
  ["for x in 'a[$(rm y)]'; do git status ${z:x}; done", 'substring offset arithmetic'],
  ["for x in 'a[$(rm y)]'; do git status ${z[x]}; done", 'array subscript arithmetic'],
  ["for x in 'a[$(rm y)]'; do git status \"${y:-$((x))}\"; done", 'arithmetic the grammar reads as $( )'],
  ["for x in 'a[$(rm y)]'; do for ((x; 0; )); do :; done; git status; done", 'for (( )) arithmetic'],
  ["[[ 'a[$(rm y)]' =~ .* ]]; git status $((BASH_REMATCH))", 'arithmetic on BASH_REMATCH'],
  // prompt expansion and indirection run substitutions held in a value
  ["echo '$(rm x)'; git status ${_@P}", '${x@P} prompt expansion'],
  ["for x in '$(rm y)'; do git status ${x@P}; done", '${x@P} on a loop variable'],
  ["for x in 'a[$(rm y)]'; do git status ${!x}; done", '${!x} indirection'],
  // the grammar leaves the word inside `${x#…}`, `${x/…/…}`, `${x:-`…`}` as plain text, substitutions and all
  ['git status ${x:-`rm y`}', 'backticks in a ${x:-…} default'],
  ['git status ${x#$(rm y)}', '$( ) in a ${x#…} pattern'],
  ['git status ${x//a/`rm y`}', 'backticks in a ${x//…/…} replacement'],
  ['git status ${x^^$(rm y)}', '$( ) in a ${x^^…} pattern'],
  ['git status "${x%$(rm y)}"', '$( ) in a quoted ${x%…} pattern'],
  // a transparent wrapper that writes a file it is given
  ['command time -o /tmp/seek-x git status', 'time -o FILE writes'],
  ['command time --output=/tmp/seek-x git status', 'time --output writes'],
  // code a command runs besides the one after it
  ['git -c core.pager=\'rm -rf x\' status', 'git -c program setting'],
  ['coproc { git status; rm x; }', 'coproc group'],
];

/** Other allow rules, against options that make the allowed program run code or write files. */
const OTHER_ALLOW_BYPASSES: [string, string, string][] = [
  ['npm test:*', 'npm test --script-shell=/tmp/x', 'npm --script-shell'],
  ['npm test:*', 'npm test --node-options="--require /tmp/x.js"', 'npm --node-options'],
  ['npm test:*', 'npm test --prefix /tmp/evil', "npm --prefix (another project's scripts)"],
  ['npm test:*', 'npm test --userconfig /tmp/rc', 'npm --userconfig'],
  ['npm test:*', 'npm test --git=/tmp/x', 'npm --git'],
  ['npm test:*', 'npm_config_script_shell=/tmp/x npm test', 'npm_config_* variable'],
  ['npm test:*', 'for o in --script-shell=/tmp/x; do npm test $o; done', 'npm option from a loop variable'],
  ['git log:*', 'git log --output=/tmp/x', 'git log --output writes'],
  ['git log:*', 'for o in --output=/tmp/x; do git log $o; done', 'git log option from a loop variable'],
  ['git diff:*', 'git diff $(echo --output=/tmp/x)', 'git diff option from a substitution'],
  ['git grep:*', 'git grep -O"rm -rf x" foo', 'git grep -O runs a program'],
  ['git rebase:*', 'git rebase --exec "rm -rf x" HEAD~1', 'git rebase --exec'],
];

/** Lines that stay covered: the checks above are not a blanket refusal. */
const STILL_COVERED: string[] = [
  'git status',
  'git status $((1+2))',
  'git status $(( $# + 1 ))',
  'git status ${x:-a}',
  'git status "$(echo a)"',
  'git status ${a[0]}',
  'git status ${x#$y}',
  'git status ${x%.txt}',
  'git status ${x:-$(echo a)}',
];

/** Lines that run `rm` (or may): `Bash(rm:*)` must match each. */
const DENY_SPELLINGS: [string, string][] = [
  ["for x in 'a[$(rm y)]'; do echo $((x)); done", 'arithmetic on a loop variable'],
  ["for x in '$(rm y)'; do echo ${x@P}; done", '${x@P}'],
  ['echo \r# ; rm x', 'blank mismatch (CR)'],
  ['echo ${x:-`rm y`}', 'backticks in a ${x:-…} default'],
  ['local x=${y#$(rm z)}', '$( ) in a ${x#…} pattern of an assignment'],
  // variables whose value a program runs as code, wherever they are set
  ['GIT_PAGER="rm x" git log', 'GIT_PAGER prefix assignment'],
  ['PAGER="rm x" git log', 'PAGER'],
  ['GIT_EXTERNAL_DIFF="rm x" git diff', 'GIT_EXTERNAL_DIFF'],
  ['GIT_SSH_COMMAND="rm x" git fetch', 'GIT_SSH_COMMAND'],
  ['EDITOR="rm x" git commit', 'EDITOR'],
  ['LESSOPEN="|rm x %s" less y', 'LESSOPEN input filter'],
  ["PS4='$(rm x)' bash -xc :", 'PS4 prompt'],
  ['export PAGER="rm x"; git log', 'export'],
  ['PAGER="rm x"; export PAGER; git log', 'bare assignment'],
  ['declare -x GIT_PAGER="rm x"; git log', 'declare -x'],
  ["env 'BASH_FUNC_ls%%=() { rm x; }' bash -c ls", 'exported function via env'],
  ['sudo PAGER="rm x" git log', 'sudo VAR=value'],
  ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0="rm x" git log', 'GIT_CONFIG_* (unknown)'],
  ['BASH_ENV=x bash y', 'BASH_ENV (unknown)'],
  ['LD_PRELOAD=./x.so ls', 'LD_PRELOAD (unknown)'],
  ['NODE_OPTIONS="--require ./x.js" npm test', 'NODE_OPTIONS --require (unknown)'],
  ["for x in 'a[$(rm y)]'; do declare -i n; n=$x; done", 'declare -i (unknown)'],
  ["for x in 'a[$(rm y)]'; do let x; done", 'let (unknown)'],
  // bash builtins that run code given in an option, or read commands from input
  ['mapfile -C "rm" -c 1 < f', 'mapfile -C callback'],
  ['readarray -C rm -c 1 < f', 'readarray -C callback'],
  ['compgen -C "rm x" ls', 'compgen -C'],
  ['complete -C "rm x" ls', 'complete -C'],
  ['bind -x \'"a":rm x\'', 'bind -x (unknown)'],
  ['enable -f ./x.so rm', 'enable -f (unknown)'],
  ['hash -p /bin/rm ls; ls x', 'hash -p (unknown)'],
  ['fc -e rm', 'fc (unknown)'],
  ['source /dev/stdin <<< "rm x"', 'source /dev/stdin'],
  ['. <(echo rm x)', 'source a process substitution'],
  ['sh /dev/stdin <<< "rm x"', 'sh /dev/stdin'],
  ['bash <(echo rm x)', 'bash a process substitution'],
  // wrappers' forms
  ['coproc X { rm x; }', 'named coproc group'],
  ['coproc { rm x; }', 'coproc group'],
  ['env -S"X=1 rm x"', 'env -S with an assignment inside'],
  ['env -S "-i rm x"', 'env -S with an option inside'],
  // git's own ways to run programs
  ['git -c core.pager="rm x" log', 'git -c core.pager'],
  ['git -c core.sshCommand="rm x" fetch', 'git -c core.sshCommand'],
  ['git -c diff.external="rm x" diff', 'git -c diff.external'],
  ['git -c credential.helper="!rm x" fetch', 'git -c credential.helper !'],
  ['git -c core.hooksPath=/tmp/h commit', 'git -c core.hooksPath (unknown)'],
  ['git --config-env=core.pager=X log', 'git --config-env program (unknown)'],
  ['git --exec-path=/tmp/x status', 'git --exec-path=DIR (unknown)'],
  ['git submodule foreach "rm x"', 'git submodule foreach'],
  ['git submodule foreach --recursive rm x', 'git submodule foreach --recursive'],
  ['git bisect run rm x', 'git bisect run'],
  ['git rebase --exec "rm x" HEAD~1', 'git rebase --exec'],
  ['git rebase -x "rm x" HEAD~1', 'git rebase -x'],
  ['git difftool -x "rm" HEAD', 'git difftool -x'],
  ['git difftool --extcmd="rm x"', 'git difftool --extcmd'],
  ['git grep -O"rm x" foo', 'git grep -O'],
  ['git grep --open-files-in-pager="rm x" foo', 'git grep --open-files-in-pager'],
  ["git filter-branch --tree-filter 'rm x' HEAD", 'git filter-branch --tree-filter'],
  ['git -c pager.log="rm x" log', 'git -c pager.<cmd>'],
  ["git -c 'core.pager=sh -c \"rm x\"' log", 'git -c pager running sh -c'],
  ['for o in -Orm; do git grep $o x; done', 'git grep option from a loop variable'],
  // npm and its kin
  ['npx -c "rm x"', 'npx -c'],
  ['npm exec --call="rm x"', 'npm exec --call'],
  ['npm test --script-shell="rm x"', 'npm --script-shell (unknown)'],
  // $'…' ends at a NUL (ran rm in bash 5.2)
  ["$'rm\\0x' y", "$'…\\0' NUL"],
  ["$'r\\x6d\\x00zz' y", "$'…\\x00' NUL"],
  ["$'rm\\c@' y", "$'…\\c@' NUL"],
];

/** The same rules still cover their plain use. */
const OTHER_STILL_COVERED: [string, string][] = [
  ['npm test:*', 'npm test'],
  ['npm test:*', 'npm test -- --run a.test.ts'],
  ['npm test:*', 'npm test -- $X'],
  ['npm test:*', 'npm test --silent'],
  ['git log:*', 'git log --oneline -5'],
  ['git diff:*', 'git diff -- $(echo x)'],
  ['git grep:*', 'git grep -n foo'],
];

/** Lines that do not run rm: `Bash(rm:*)` must leave them alone. */
const NOT_RM: string[] = [
  'echo $((1 + 2))',
  'echo "rm x"',
  "echo '$(rm x)'",
  'for ((;;)); do break; done',
  'PAGER=cat git log',
  'export PAGER=less',
  'git -c color.ui=never log',
  'git -c core.pager=cat log',
  'git grep -c rm',
  'git -C . grep -c rm',
  'git log --grep rm',
  'NODE_OPTIONS=--max-old-space-size=4096 npm test',
  'mapfile -t lines < f',
  'coproc cat',
  'env -S "echo rm"',
  'git diff $(git merge-base main HEAD)',
  'npm test -- $FILE',
  'npm run build',
];

describe('allow rules hold against adversarial spellings (Bash(git status:*))', () => {
  it.each(ALLOW_BYPASSES)('does not cover %j (%s)', (command) => {
    expect(covered('git status:*', command)).toBe(false);
  });

  it.each(STILL_COVERED.map((command) => [command]))('still covers %j', (command) => {
    expect(covered('git status:*', command)).toBe(true);
  });

  it.each(OTHER_ALLOW_BYPASSES)('Bash(%s) does not cover %j (%s)', (pattern, command) => {
    expect(covered(pattern, command)).toBe(false);
  });

  it.each(OTHER_STILL_COVERED)('Bash(%s) still covers %j', (pattern, command) => {
    expect(covered(pattern, command)).toBe(true);
  });
});

describe('deny rules match every spelling (Bash(rm:*))', () => {
  it.each(DENY_SPELLINGS)('matches %j (%s)', (command) => {
    expect(denyMatch('rm:*', command)).toBeDefined();
  });

  it.each(NOT_RM.map((command) => [command]))('leaves %j alone', (command) => {
    expect(denyMatch('rm:*', command)).toBeUndefined();
  });
});
