import type { ChildProcess } from 'node:child_process';

/** Grace period between SIGTERM and SIGKILL when stopping a process group. */
export const KILL_GRACE_MS = 2_000;

/**
 * Sends `signal` to the whole process group led by `pid` (children started with `detached: true`
 * lead their own group); signal 0 only probes. Returns false when the group is already gone.
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: nothing left to signal
  }
}

/**
 * Stops a child's process group: SIGTERM now, SIGKILL after `graceMs` unless the group leader's
 * stdio has closed by then (everything holding its pipes is gone). Resolves when the kill is sent;
 * callers wait for the child's own events.
 */
export function terminateProcessGroup(child: ChildProcess, graceMs: number = KILL_GRACE_MS): void {
  const pid = child.pid;
  if (pid === undefined) return;
  signalProcessGroup(pid, 'SIGTERM');
  const escalate = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), graceMs);
  escalate.unref();
  child.once('close', () => {
    // Stragglers that closed their pipes but ignore SIGTERM still get the SIGKILL.
    if (signalProcessGroup(pid, 0)) return;
    clearTimeout(escalate);
  });
}
