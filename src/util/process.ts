/**
 * Whether a process with this pid exists. Signal 0 checks without signalling: ESRCH means gone,
 * EPERM means it exists but belongs to someone else (alive). Non-positive pids are never alive
 * (0 and negatives address process groups). Known limit: a reused pid looks alive.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
