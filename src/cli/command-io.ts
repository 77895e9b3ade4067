import { CommanderError } from 'commander';
import { redact } from '../util/redact.js';

/** Where a subcommand reads and writes; tests replace it with one that records. */
export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
  cwd(): string;
  env: NodeJS.ProcessEnv;
  /** Exit status for problems (1); usage errors go through commander (2). */
  setExitCode(code: number): void;
}

/** The real process: stdout, stderr, its working directory and environment, `process.exitCode`. */
export const processIO: CommandIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  cwd: () => process.cwd(),
  env: process.env,
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/**
 * Wraps a subcommand's action: an Error becomes `seek: <message><hint>` on stderr and exit status
 * 1 (refusals and failures for people); anything else is a bug and propagates, and so does a
 * commander error (a usage error raised in an action: main makes it exit status 2).
 */
export function guardedBy(io: CommandIO, hint: (error: Error) => string = () => '') {
  return <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await action(...args);
      } catch (error) {
        if (!(error instanceof Error) || error instanceof CommanderError) throw error;
        io.err(`seek: ${redact(`${error.message}${hint(error)}`)}\n`);
        io.setExitCode(1);
      }
    };
}
