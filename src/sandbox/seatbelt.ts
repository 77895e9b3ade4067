import type { SandboxScope } from './types.js';

/**
 * A sandbox-exec (Seatbelt) profile for one sandboxed command (macOS). Same contract as the
 * bubblewrap arguments: reads everywhere but the private home and hidden paths, writes only in
 * writable roots (minus protected paths and git metadata) and the command's own temp dir, no
 * network unless allowed. Seatbelt evaluates the last matching rule, so denials come after the
 * allowances they narrow. What it cannot match: no seccomp (sandbox-exec has no capabilities to
 * drop), and a new `.git` in a subfolder is left to the audit, as on Linux.
 */
export function seatbeltProfile(scope: SandboxScope, tempDir: string): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow process-info* (target same-sandbox))',
    '(allow ipc-posix-shm)',
    '(allow ipc-posix-sem)',
    '(allow iokit-open)',
    '(allow file-ioctl (regex #"^/dev/tty"))',
    '(allow pseudo-tty)',
    '(allow file-read*)',
  ];
  // The private home: contents unreadable (metadata stays, so walking up from the project to
  // find its parents still works), toolchains and the roots readable again, secrets never.
  if (scope.scratch.length > 0) lines.push(`(deny file-read-data file-read-xattr ${scope.scratch.map(subpath).join(' ')})`);
  const shown = [...scope.readable, ...scope.visible, ...scope.writable];
  if (scope.scratch.length > 0 && shown.length > 0) lines.push(`(allow file-read* ${shown.map(subpath).join(' ')})`);
  if (scope.hidden.length > 0) lines.push(`(deny file-read* ${scope.hidden.map(subpath).join(' ')})`);
  const globs = scope.deniedGlobs ?? { read: [], write: [] };
  if (globs.read.length > 0) lines.push(`(deny file-read-data ${globs.read.map(regex).join(' ')})`);
  const writable = scope.profile === 'workspace-write' ? scope.writable : [];
  lines.push(
    `(allow file-write* ${[tempDir, ...writable].map(subpath).join(' ')} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/fd/") (regex #"^/dev/tty"))`,
  );
  // Denied paths that do not exist yet too: a path rule needs nothing to exist (absent-denied.ts).
  const readOnlyAgain = [...scope.protectedPaths, ...(scope.absentDenied ?? []).map((denied) => denied.path), ...scope.hidden];
  if (writable.length > 0 && readOnlyAgain.length > 0) lines.push(`(deny file-write* ${readOnlyAgain.map(subpath).join(' ')})`);
  const globWrites = [...globs.write, ...globs.read];
  if (writable.length > 0 && globWrites.length > 0) lines.push(`(deny file-write* ${globWrites.map(regex).join(' ')})`);
  // Git metadata in order, as bwrap mounts it: a later rule wins, like a later mount.
  for (const mount of writable.length > 0 ? scope.gitMounts : []) lines.push(`(${mount.mode === 'rw' ? 'allow' : 'deny'} file-write* ${subpath(mount.path)})`);
  if (scope.network) {
    lines.push('(allow network*)', '(allow system-socket)');
    // Unix sockets reach daemons outside; the system resolver's one is needed for DNS.
    if (!scope.unixSockets) lines.push('(deny network-outbound (remote unix-socket))', '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))');
  }
  return `${lines.join('\n')}\n`;
}

function regex(source: string): string {
  return `(regex #"${source.replace(/"/g, '\\"')}")`;
}

function subpath(p: string): string {
  return `(subpath ${quote(p)})`;
}

/** A Seatbelt string literal: backslashes and quotes escaped. */
function quote(p: string): string {
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
