import { statSync } from 'node:fs';
import type { SandboxScope } from './types.js';

/** The descriptor bwrap reads the seccomp filter from: the spawner opens the filter file as the
 * first of `inheritFiles`, which lands on descriptor 3. */
export const SECCOMP_FD = 3;

/**
 * bubblewrap arguments for one sandboxed command (Linux). Mounts are applied in order, so the
 * order below is the contract:
 *  1. the whole filesystem read-only, a fresh /dev and /proc (in a new pid namespace, so no other
 *     process's environment is readable), a private /tmp;
 *  2. scratch directories (every home directory, /run, /var/run): an empty, writable tmpfs, so
 *     no secret and no daemon socket there is visible;
 *  3. the home's toolchain folders shown again, read-only;
 *  4. hidden paths: an empty tmpfs over directories, /dev/null over files and sockets;
 *  5. the roots that must stay visible (the agent's root, which may sit under /tmp, the home or a
 *     hidden SEEK_HOME, as worktrees do), writable for workspace-write;
 *  6. the folders holding protected or hidden paths inside a root pinned (bound onto themselves,
 *     so they cannot be renamed away), git metadata (git-layout.ts: the `.git` directory pinned,
 *     its config, hooks and pointers read-only), then other protected paths read-only (`.seek`,
 *     `denyWrite` and the files of `Edit(...)` deny rules), and hidden paths inside a root or a
 *     toolchain folder hidden again;
 *  7. every namespace unshared (network too, unless allowed), no capabilities at all (as root
 *     too), the seccomp filter (seccomp.ts) on descriptor 3 when `seccomp` is set, killed with
 *     seek, in its own session (no terminal to push keystrokes into).
 */
export function bwrapArguments(scope: SandboxScope, cwd: string, options: { seccomp: boolean }): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const writable = new Set(scope.profile === 'workspace-write' ? scope.writable : []);
  const roots = [...scope.visible, ...writable];
  const shown = [...roots, ...scope.readable];
  const under = (p: string, dirs: readonly string[]): boolean => dirs.some((dir) => p.startsWith(`${dir}/`));
  for (const dir of scope.scratch) args.push('--tmpfs', dir);
  for (const p of scope.readable) args.push(...showReadOnly(p));
  // A hidden path under a scratch directory is gone already, unless something shows it again.
  const hidden = scope.hidden.filter((p) => !under(p, scope.scratch) || under(p, shown) || shown.includes(p));
  // A hidden directory that holds a root (a worktree under SEEK_HOME) stays a writable tmpfs, so
  // bwrap can create the root's mount point in it; what is written there vanishes with the command.
  for (const p of hidden) args.push(...hide(p, !roots.some((root) => root.startsWith(`${p}/`))));
  for (const root of scope.visible) {
    if (!writable.has(root)) args.push('--ro-bind', root, root);
  }
  for (const root of writable) args.push('--bind', root, root);
  for (const dir of scope.pinned ?? []) args.push('--bind', dir, dir);
  for (const mount of scope.gitMounts) args.push(mount.mode === 'rw' ? '--bind' : '--ro-bind', mount.path, mount.path);
  for (const protectedPath of scope.protectedPaths) args.push('--ro-bind', protectedPath, protectedPath);
  // A root or toolchain folder that contains a hidden path (seek run in ~) must not bring it back.
  for (const p of hidden) {
    if (under(p, shown)) args.push(...hide(p, true));
  }
  args.push('--unshare-all');
  if (scope.network) args.push('--share-net');
  args.push('--cap-drop', 'ALL');
  if (options.seccomp) args.push('--seccomp', String(SECCOMP_FD));
  args.push('--die-with-parent', '--new-session', '--chdir', cwd);
  return args;
}

/** Shown read-only; a symlink (`~/.gitconfig` into a dotfiles folder) shows what it points at. */
function showReadOnly(p: string): string[] {
  return ['--ro-bind-try', p, p];
}

function hide(p: string, readOnly: boolean): string[] {
  if (!isDirectory(p)) return ['--ro-bind', '/dev/null', p];
  return readOnly ? ['--tmpfs', p, '--remount-ro', p] : ['--tmpfs', p];
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
