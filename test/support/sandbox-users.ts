import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SEEK_BIN } from './seek-process.js';
import { removeTree, tempDir } from './temp-dirs.js';

/**
 * Who the sandbox tests run seek as. Always the current user; when that is root (CI, containers:
 * where `--auto` is used most), also an unprivileged user, uid 65534, dropped to with `setpriv`,
 * so every route is tried both ways. Not root: the current user is the unprivileged case, and the
 * root case cannot be tried here (CI runs it).
 */
export interface SandboxUser {
  name: string;
  /** Runs a program as this user: `[...prefix, program, ...args]`. Empty for the current user. */
  prefix: string[];
  /** seek's launcher as this user can read it. */
  bin: string;
  /** Hands a directory tree to this user (chown), so seek can write its files. */
  own(path: string): void;
  uid: number;
}

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

const current: SandboxUser = { name: isRoot ? 'root' : 'an unprivileged user', prefix: [], bin: SEEK_BIN, own: () => undefined, uid: process.getuid?.() ?? 0 };

function unprivileged(): SandboxUser {
  const prefix = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
  return {
    name: `an unprivileged user (uid ${NOBODY}, via setpriv)`,
    prefix,
    bin: readableBin(prefix),
    own: (path) => execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, path]),
    uid: NOBODY,
  };
}

/** The checkout may sit where uid 65534 cannot reach (under /root): then a copy of the built
 * launcher (bin/ and dist/, which need nothing else at run time) in a world-readable folder. */
function readableBin(prefix: string[]): string {
  if (spawnSync(prefix[0]!, [...prefix.slice(1), 'test', '-r', SEEK_BIN], { stdio: 'ignore' }).status === 0) return SEEK_BIN;
  const base = tempDir('seek-bin-', '/var/tmp');
  chmodSync(base, 0o755);
  const checkout = dirname(dirname(SEEK_BIN));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(checkout, part), join(base, part), { recursive: true });
  mkdirSync(join(base, 'node_modules'), { recursive: true });
  return join(base, 'bin', 'seek.js');
}

export const sandboxUsers: SandboxUser[] = isRoot && hasSetpriv ? [current, unprivileged()] : [current];

if (isRoot && !hasSetpriv && process.env.CI === 'true') throw new Error('CI runs as root and must also try the sandbox as an unprivileged user, but setpriv is missing');

/** A scratch folder outside /tmp (the sandbox's /tmp is private, so a path there proves nothing)
 * that the user can write, removed after the test file. */
export function hostDir(prefix: string, user: SandboxUser): string {
  const dir = tempDir(prefix, '/var/tmp');
  chmodSync(dir, 0o755);
  user.own(dir);
  return dir;
}

export { removeTree };
