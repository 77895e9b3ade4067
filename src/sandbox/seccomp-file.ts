import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seccompProgram, seccompSupported } from './seccomp.js';

const written = new Map<string, string>();

/**
 * The seccomp filter as a file bwrap can be handed (`inheritFiles`, then `--seccomp 3`): kept in
 * seek's home (`cache/sandbox/`, private to the user), written once per content and checked on
 * the first use in each process, so a damaged or stale file is replaced before any command
 * runs under it. Undefined where seek has no filter for the architecture.
 */
export function seccompFile(seekHome: string, options: { allowUnixSockets: boolean }): string | undefined {
  if (!seccompSupported()) return undefined;
  const program = seccompProgram(options);
  const file = path.join(seekHome, 'cache', 'sandbox', `seccomp-${process.arch}${options.allowUnixSockets ? '-unix' : ''}.bpf`);
  if (written.get(file) === program.toString('hex')) return file;
  if (!sameBytes(file, program)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, program, { mode: 0o600 });
    renameSync(temp, file);
  }
  written.set(file, program.toString('hex'));
  return file;
}

function sameBytes(file: string, program: Buffer): boolean {
  try {
    return readFileSync(file).equals(program);
  } catch {
    return false;
  }
}
