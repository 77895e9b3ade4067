/**
 * The launcher's own trace: with `SEEK_LAUNCH_TRACE=1` it writes one line to stderr for each
 * script it compiles (what became of its code cache) and for the memory saver's decision
 * (memory-saver.ts), each starting `seek launch: `. Tests read it; users may, to see why a start is
 * slow or a long run large. Off by default: a run's stderr is the user's.
 */
export function launchTrace(line: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env['SEEK_LAUNCH_TRACE'] === '1') process.stderr.write(`seek launch: ${line}\n`);
}
