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
];

/** Lines that stay covered: the checks above are not a blanket refusal. */
const STILL_COVERED: string[] = ['git status', 'git status $((1+2))', 'git status $(( $# + 1 ))', 'git status ${x:-a}', 'git status "$(echo a)"', 'git status ${a[0]}'];

/** Lines that run `rm` (or may): `Bash(rm:*)` must match each. */
const DENY_SPELLINGS: [string, string][] = [
  ["for x in 'a[$(rm y)]'; do echo $((x)); done", 'arithmetic on a loop variable'],
  ["for x in '$(rm y)'; do echo ${x@P}; done", '${x@P}'],
  ['echo \r# ; rm x', 'blank mismatch (CR)'],
];

/** Lines that do not run rm: `Bash(rm:*)` must leave them alone. */
const NOT_RM: string[] = ['echo $((1 + 2))', 'echo "rm x"', "echo '$(rm x)'", 'for ((;;)); do break; done'];

describe('allow rules hold against adversarial spellings (Bash(git status:*))', () => {
  it.each(ALLOW_BYPASSES)('does not cover %j (%s)', (command) => {
    expect(covered('git status:*', command)).toBe(false);
  });

  it.each(STILL_COVERED.map((command) => [command]))('still covers %j', (command) => {
    expect(covered('git status:*', command)).toBe(true);
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
