import type { EnvVariable } from '@agentclientprotocol/sdk';
import type { CommandSpawn } from '../agent/types.js';

/** What `terminal/create` is given: the program, its arguments and the variables to set. */
export interface TerminalCommand {
  command: string;
  args: string[];
  env: EnvVariable[];
}

/** Descriptors a POSIX shell can redirect by number: 3 to 9. */
const MAX_INHERITED = 7;

/**
 * A spawn spec (the bash tool's, sandbox wrapper included) as one command line an editor's
 * terminal can start with nothing but argv, cwd and variables, running exactly what seek would:
 *  - files the spawner must hand over as descriptors 3, 4, … (bubblewrap's seccomp filter) are
 *    opened by a `/bin/sh` prelude that then execs the program; a file that cannot be opened stops
 *    the shell before the program starts (status 126), so the sandbox never runs unfiltered;
 *  - an environment that drops variables seek has (the sandbox's reduced one) is set with `env -i`
 *    in front, so nothing of the editor's own environment reaches the command either; an
 *    environment that only adds (an unsandboxed command) goes as `env`, just what differs.
 */
export function terminalCommand(spec: CommandSpawn, base: NodeJS.ProcessEnv = process.env): TerminalCommand {
  let argv = [spec.file, ...spec.args];
  const files = spec.inheritFiles ?? [];
  if (files.length > MAX_INHERITED) throw new Error(`cannot hand ${files.length} descriptors to a terminal command (at most ${MAX_INHERITED})`);
  if (files.length > 0) {
    const opens = files.map((_, index) => `exec ${3 + index}<"$1" || exit 126; shift; `).join('');
    argv = ['/bin/sh', '-c', `${opens}exec "$@"`, 'seek-terminal', ...files, ...argv];
  }
  const entries = Object.entries(spec.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const reduced = Object.entries(base).some(([name, value]) => value !== undefined && spec.env[name] === undefined);
  if (reduced) {
    argv = ['env', '-i', ...entries.map(([name, value]) => `${name}=${value}`), ...argv];
    return { command: argv[0]!, args: argv.slice(1), env: [] };
  }
  const env = entries.filter(([name, value]) => base[name] !== value).map(([name, value]) => ({ name, value }));
  return { command: argv[0]!, args: argv.slice(1), env };
}
