import type { SandboxScope } from './types.js';

/**
 * A sandbox-exec (Seatbelt) profile for one sandboxed command (macOS). Same contract as the
 * bubblewrap arguments: reads everywhere but hidden paths, writes only in writable roots (minus
 * protected paths) and the command's own temp dir, no network unless allowed. Seatbelt evaluates
 * the last matching rule, so denials come after the allowances they narrow.
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
  if (scope.hidden.length > 0) lines.push(`(deny file-read* ${scope.hidden.map(subpath).join(' ')})`);
  const writable = scope.profile === 'workspace-write' ? scope.writable : [];
  lines.push(
    `(allow file-write* ${[tempDir, ...writable].map(subpath).join(' ')} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/fd/") (regex #"^/dev/tty"))`,
  );
  const readOnlyAgain = [...scope.protectedPaths, ...scope.hidden];
  if (writable.length > 0 && readOnlyAgain.length > 0) lines.push(`(deny file-write* ${readOnlyAgain.map(subpath).join(' ')})`);
  if (scope.network) lines.push('(allow network*)', '(allow system-socket)');
  return `${lines.join('\n')}\n`;
}

function subpath(p: string): string {
  return `(subpath ${quote(p)})`;
}

/** A Seatbelt string literal: backslashes and quotes escaped. */
function quote(p: string): string {
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
