import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Ending everything a command started. A command runs detached, leading its own process group,
 * so `kill(-pgid)` reaches `sleep 100 &` and `nohup … &`; but `setsid …` and any daemon that
 * double-forks and calls setsid leave the group (and the session). So every command also carries a
 * random tag in its environment (SEEK_COMMAND_TAGS, inherited by everything it starts, like
 * Jenkins' ProcessTreeKiller cookie), and ending a command signals its group plus every process
 * whose environment holds the tag (found through /proc on Linux).
 *
 * Not caught (documented limits): a process that drops or rewrites its environment before it
 * leaves the group (`setsid env -i …`, `sudo`, a setuid program whose environ we cannot read); a
 * process started on the command's behalf by a daemon (`docker run -d`, `systemd-run`, `at`); and
 * on systems without /proc (macOS) anything that left the group. Sandboxed commands need none of
 * this on Linux: bubblewrap runs them in their own pid namespace, which dies with them.
 * If seek itself is SIGKILLed, nothing runs to clean up.
 */

/** Grace period between SIGTERM and SIGKILL when stopping a process group. */
export const KILL_GRACE_MS = 2_000;
/** How often, during the grace period, we look whether everything has gone. */
const SETTLE_POLL_MS = 100;

/** The environment variable holding the tags of the seek commands a process descends from
 * (space-separated, outermost first, so a seek run inside a seek command keeps both). */
export const COMMAND_TAGS_VARIABLE = 'SEEK_COMMAND_TAGS';

/** A fresh tag for one command: unguessable, so no unrelated process carries it. */
export function newCommandTag(): string {
  return `${process.pid}-${randomBytes(8).toString('hex')}`;
}

/** `env` with `tag` added to SEEK_COMMAND_TAGS. */
export function withCommandTag(env: NodeJS.ProcessEnv, tag: string): NodeJS.ProcessEnv {
  const existing = env[COMMAND_TAGS_VARIABLE];
  return { ...env, [COMMAND_TAGS_VARIABLE]: existing ? `${existing} ${tag}` : tag };
}

/**
 * Sends `signal` to the whole process group led by `pid` (children started with `detached: true`
 * lead their own group); signal 0 only probes. Returns false when the group is already gone.
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  if (!(pid > 1)) return false; // kill(-0) or kill(-1) would reach our own group or every process
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: nothing left to signal
  }
}

/**
 * Pids of the live processes whose environment carries `tag` (never this process). Linux only:
 * elsewhere, or when /proc cannot be read, the list is empty. Synchronous, so it also works in an
 * exit handler; a walk reads one small file per process (a few milliseconds).
 */
export function findTaggedProcesses(tag: string): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(tag);
  const found: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // A zombie's environ reads empty: it has exited already and needs no signal.
      if (readFileSync(`/proc/${pid}/environ`).includes(needle)) found.push(pid);
    } catch {
      // Gone meanwhile, or another user's process (not ours to end).
    }
  }
  return found;
}

/** One command's processes: its group (until seen empty, as its number may then be reused) and its tag. */
interface CommandProcesses {
  leaderPid: number;
  tag: string | undefined;
  groupGone: boolean;
}

/** Signals what remains of `command`. True if anything was there. */
function signalCommand(command: CommandProcesses, signal: NodeJS.Signals | 0): boolean {
  let any = false;
  if (!command.groupGone) {
    if (signalProcessGroup(command.leaderPid, signal)) any = true;
    else command.groupGone = true;
  }
  for (const pid of command.tag === undefined ? [] : findTaggedProcesses(command.tag)) {
    try {
      process.kill(pid, signal);
      any = true;
    } catch {
      // exited meanwhile
    }
  }
  return any;
}

/** Commands running or being ended, so an exit of seek can SIGKILL what remains of them. */
const pending = new Set<CommandProcesses>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const command of pending) signalCommand(command, 'SIGKILL');
  });
}

/** A running command whose processes are ended with `end` (or by seek's exit, whichever is first). */
export interface TrackedCommand {
  /**
   * Ends everything the command started: SIGTERM now to its process group and every tagged
   * process; during the grace period, checks every 100 ms whether all have gone; SIGKILL to
   * whatever remains at its end. Returns at once; the rest runs on unref'd timers. Repeated
   * calls do nothing.
   */
  end(graceMs?: number): void;
  /** Stops tracking without signalling (a command that became a background job, which
   * background-jobs.ts ends from then on); `end` then does nothing. */
  forget(): void;
}

/** Starts tracking a command that leads process group `leaderPid` and carries `tag` (if any). */
export function trackCommand(leaderPid: number, tag: string | undefined): TrackedCommand {
  const command: CommandProcesses = { leaderPid, tag, groupGone: false };
  installExitHook();
  pending.add(command);
  let ended = false;
  return {
    end(graceMs = KILL_GRACE_MS) {
      if (ended) return;
      ended = true;
      if (!signalCommand(command, 'SIGTERM')) {
        pending.delete(command);
        return;
      }
      const deadline = Date.now() + graceMs;
      const check = (): void => {
        const last = Date.now() >= deadline;
        if (!signalCommand(command, last ? 'SIGKILL' : 0) || last) {
          pending.delete(command);
          return;
        }
        setTimeout(check, Math.max(1, Math.min(SETTLE_POLL_MS, deadline - Date.now()))).unref();
      };
      setTimeout(check, Math.max(1, Math.min(SETTLE_POLL_MS, graceMs))).unref();
    },
    forget() {
      ended = true;
      pending.delete(command);
    },
  };
}

/** Signals `leaderPid`'s group (unless undefined: a group known to be gone) and every process
 * tagged `tag` (synchronous: safe in an exit handler). True if anything was there. */
export function signalCommandProcesses(leaderPid: number | undefined, tag: string | undefined, signal: NodeJS.Signals | 0): boolean {
  return signalCommand({ leaderPid: leaderPid ?? 0, tag, groupGone: leaderPid === undefined }, signal);
}

/** Stops a child's process group (no tag: only the group), SIGKILL after `graceMs` to what
 * ignores SIGTERM. Callers wait for the child's own events. */
export function terminateProcessGroup(child: ChildProcess, graceMs: number = KILL_GRACE_MS): void {
  if (child.pid === undefined) return;
  trackCommand(child.pid, undefined).end(graceMs);
}
