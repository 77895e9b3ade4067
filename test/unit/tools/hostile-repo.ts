import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A git repository whose own config and hooks name a program that records each run in a marker
 * file: fsmonitor, pagers, editor, askpass, diff.external, filter/diff/merge drivers (one of them
 * in an included config file), gpg with log.showSignature, and hooks seek's git calls would
 * trigger (post-checkout, post-index-change, reference-transaction, post-merge…). Set up after
 * the first commit, so only the git calls under test can run it.
 */
export interface HostileRepo {
  root: string;
  marker: string;
  /** What the program recorded (one line per run), or '' when it never ran. */
  runs(): string;
  clear(): void;
  /** The test's own git in the repository, with every armed key switched off by hand. */
  disarmedGit(...args: string[]): string;
}

const DISARMED = [
  ['core.fsmonitor', 'false'],
  ['core.hookspath', '/dev/null'],
  ['filter.evil.clean', ''],
  ['filter.evil.smudge', ''],
  ['filter.evil.required', 'false'],
  ['filter.inc.clean', ''],
  ['filter.inc.process', ''],
  ['diff.evil.textconv', 'cat'],
  ['log.showsignature', 'false'],
]
  .map(([key, value]) => `'${key}'='${value}'`)
  .join(' ');

const HOOKS = ['post-checkout', 'post-index-change', 'reference-transaction', 'post-merge', 'pre-commit', 'pre-merge-commit', 'commit-msg', 'post-commit', 'post-rewrite'];

/** `env` is the environment for the setup's own git calls (identity, hermetic config). */
export function makeHostileRepo(root: string, outside: string, env: NodeJS.ProcessEnv): HostileRepo {
  const run = (...args: string[]): string => execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  run('init', '-q', '-b', 'main');
  writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(path.join(root, 'b.inc'), 'included\n');
  writeFileSync(path.join(root, '.gitattributes'), '* filter=evil diff=evil merge=evil\n*.inc filter=inc\n');
  run('add', '-A');
  run('commit', '-q', '-m', 'initial');

  const marker = path.join(outside, 'marker');
  const script = path.join(outside, 'evil.sh');
  // Records the run, then behaves like a harmless filter (copies stdin) so git keeps going.
  writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`);
  chmodSync(script, 0o755);
  const config = path.join(root, '.git', 'config');
  const lines = [
    '[core]',
    `\tfsmonitor = ${script}`,
    `\tpager = ${script}`,
    `\teditor = ${script}`,
    `\taskPass = ${script}`,
    `\tsshCommand = ${script}`,
    '[pager]',
    `\tstatus = ${script}`,
    `\tlog = ${script}`,
    '[diff]',
    `\texternal = ${script}`,
    '[filter "evil"]',
    `\tclean = ${script}`,
    `\tsmudge = ${script}`,
    '\trequired = true',
    '[diff "evil"]',
    `\ttextconv = ${script}`,
    `\tcommand = ${script}`,
    '[merge "evil"]',
    `\tdriver = ${script} %O %A %B`,
    '[gpg]',
    `\tprogram = ${script}`,
    '[log]',
    '\tshowSignature = true',
    '[include]',
    `\tpath = ${path.join(outside, 'included.config')}`,
  ];
  appendFileSync(config, `${lines.join('\n')}\n`);
  writeFileSync(path.join(outside, 'included.config'), `[filter "inc"]\n\tclean = ${script}\n\tprocess = ${script}\n`);
  const hooks = path.join(root, '.git', 'hooks');
  mkdirSync(hooks, { recursive: true });
  for (const hook of HOOKS) {
    writeFileSync(path.join(hooks, hook), `#!/bin/sh\necho "hook ${hook}" >> '${marker}'\n`);
    chmodSync(path.join(hooks, hook), 0o755);
  }
  return {
    root,
    marker,
    runs: () => (existsSync(marker) ? readFileSync(marker, 'utf8') : ''),
    clear: () => rmSync(marker, { force: true }),
    disarmedGit: (...args) =>
      execFileSync('git', ['--no-pager', ...args], { cwd: root, env: { ...env, GIT_CONFIG_PARAMETERS: DISARMED }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  };
}
