/**
 * Kill requests across processes. `seek subagent kill` (any terminal) writes a small file next to
 * the child's transcript, `.../subagents/<sub-sid>/kill`; the seek process running that child
 * polls for it and stops the child, which then records `killed` in the index itself.
 *
 * Why polling and not `fs.watch`: watching is unreliable across platforms and file systems
 * (network mounts, some containers and macOS report nothing or report late, and one watcher per
 * child directory costs descriptors). A `stat` per running child every 250 ms is negligible (at
 * most a few children run at once) and behaves the same everywhere.
 */
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { subagentKillRequestFile } from '../config/paths.js';

export const DEFAULT_KILL_POLL_MS = 250;

/** What a kill request file holds (for a human looking at it; only its existence counts). */
export interface KillRequest {
  /** The process that asked. */
  requested_by_pid: number;
  ts: string;
}

/**
 * Writes the kill request for a child (creating its directory when missing). Throws when the file
 * cannot be written: the caller (the CLI) must tell the user the request did not go out.
 */
export function requestKill(home: string, pid: string, parentSid: string, subSid: string): void {
  const file = subagentKillRequestFile(home, pid, parentSid, subSid);
  mkdirSync(dirname(file), { recursive: true });
  const request: KillRequest = { requested_by_pid: process.pid, ts: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(request)}\n`, { mode: 0o600 });
}

export interface KillWatcherOptions {
  /** The children to watch now (asked again on every poll, so it follows spawns and ends). */
  files: () => Iterable<{ subSid: string; file: string }>;
  /** Called once per child whose request file appeared; the file is deleted first. */
  onKill: (subSid: string) => void;
  intervalMs?: number;
}

export interface KillWatcher {
  /** Starts polling; idempotent. */
  start(): void;
  /** Stops polling; idempotent. It may be started again. */
  stop(): void;
}

/**
 * Polls the kill files of the given children. The timer is unref'ed: a watcher never keeps the
 * process alive. `onKill` fires at most once per sub-sid for the watcher's lifetime, even when the
 * file cannot be deleted (sub-sids are unique, so remembering them is safe). A throwing `onKill`
 * is ignored so polling goes on for the other children.
 */
export function createKillWatcher(options: KillWatcherOptions): KillWatcher {
  const intervalMs = options.intervalMs ?? DEFAULT_KILL_POLL_MS;
  const fired = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const poll = (): void => {
    for (const { subSid, file } of options.files()) {
      if (fired.has(subSid) || !existsSync(file)) continue;
      fired.add(subSid);
      try {
        unlinkSync(file);
      } catch {
        // Already gone or not ours to delete: the request is still honoured once.
      }
      try {
        options.onKill(subSid);
      } catch {
        // The watcher must outlive a failing handler.
      }
    }
  };

  return {
    start() {
      if (timer !== undefined) return;
      timer = setInterval(poll, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
    },
  };
}
