import { statSync } from 'node:fs';
import type { SandboxScope } from './types.js';

/**
 * bubblewrap arguments for one sandboxed command (Linux). Mounts are applied in order, so the
 * order below is the contract:
 *  1. the whole filesystem read-only, a fresh /dev and /proc (in a new pid namespace, so no other
 *     process's environment is readable), a private /tmp;
 *  2. hidden paths: an empty tmpfs over directories, /dev/null over files and sockets;
 *  3. the roots that must stay visible (the agent's root, which may sit under /tmp or under a
 *     hidden SEEK_HOME, as worktrees do), writable for workspace-write;
 *  4. protected paths inside writable roots, read-only again (`.git/hooks`, `.git/config`, `.seek`),
 *     and hidden paths inside a root hidden again;
 *  5. every namespace unshared (network too, unless allowed), killed with seek, in its own session
 *     (no terminal to push keystrokes into).
 */
export function bwrapArguments(scope: SandboxScope, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const writable = new Set(scope.profile === 'workspace-write' ? scope.writable : []);
  const roots = [...scope.visible, ...writable];
  // A hidden directory that holds a root (a worktree under SEEK_HOME) stays a writable tmpfs, so
  // bwrap can create the root's mount point in it; what is written there vanishes with the command.
  for (const hidden of scope.hidden) args.push(...hide(hidden, !roots.some((root) => root.startsWith(`${hidden}/`))));
  for (const root of scope.visible) {
    if (!writable.has(root)) args.push('--ro-bind', root, root);
  }
  for (const root of writable) args.push('--bind', root, root);
  for (const protectedPath of scope.protectedPaths) args.push('--ro-bind', protectedPath, protectedPath);
  // A root that contains a hidden path (seek run in ~) must not bring it back: hide it again.
  for (const hidden of scope.hidden) {
    if (roots.some((root) => hidden.startsWith(`${root}/`))) args.push(...hide(hidden, true));
  }
  args.push('--unshare-all');
  if (scope.network) args.push('--share-net');
  args.push('--die-with-parent', '--new-session', '--chdir', cwd);
  return args;
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
