import { Command, InvalidArgumentError } from 'commander';
import { configFile, resolveProject, seekHome } from '../../config/paths.js';
import { readConfig } from '../../config/config.js';
import {
  checkpointEntry,
  checkpointLimits,
  checkpointSettingsFrom,
  checkpointsOf,
  conflictText,
  notRestorableText,
  openCheckpointRepository,
  planCodeRewind,
  rewindCode,
  rewindPoints,
  type CheckpointRecord,
  type CodeRewindPlan,
  type RewindPoint,
} from '../../checkpoints/index.js';
import { findSession, newestSession } from '../../session/list.js';
import { lockSession } from '../../session/lock.js';
import { readSession } from '../../session/reader.js';
import { forkSessionBefore } from '../../session/resume.js';
import { SessionWriter } from '../../session/writer.js';
import { guardedBy, processIO, type CommandIO } from '../command-io.js';

interface RewindOptions {
  list?: boolean;
  session?: string;
  json?: boolean;
  code?: boolean;
  conversation?: boolean;
  both?: boolean;
  dryRun?: boolean;
  force?: boolean;
}

type Checkpoint = CheckpointRecord & { entryIndex: number };

function turnNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a checkpoint number from seek rewind --list');
  return n;
}

/**
 * `seek rewind --list [--session SID] [--json]` and
 * `seek rewind TURN [--code|--conversation|--both] [--session SID] [--dry-run] [--force]` for the
 * project of the working directory (default session: the newest). Exit 0 on success, 1 when
 * refused or impossible (unknown session or turn, changes made outside the session without
 * --force, the session open in another seek process), 2 on bad usage.
 */
export function createRewindCommand(io: CommandIO = processIO): Command {
  const guarded = guardedBy(io);
  return new Command('rewind')
    .description("go back to a checkpoint taken at the start of a turn: the code (the whole working tree), the conversation (a fork), or both")
    .argument('[turn]', 'checkpoint number, as seek rewind --list shows it', turnNumber)
    .option('--list', "list the session's checkpoints: prompt, time, files changed since each")
    .option('--session <sid>', 'the session (default: the newest of this project)')
    .option('--json', 'with --list: print JSON')
    .option('--code', 'restore the working tree only')
    .option('--conversation', 'fork the conversation only (a new session holding the history before that turn)')
    .option('--both', 'restore the code and fork the conversation (the default)')
    .option('--dry-run', 'print what would change and change nothing')
    .option('--force', 'restore even over files changed outside this session since it last saw them')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .action(
      guarded(async (turn: number | undefined, opts: RewindOptions) => {
        const home = seekHome(io.env);
        const { pid } = resolveProject(io.cwd(), home);
        const ref = opts.session ? await findSession(home, pid, opts.session) : await newestSession(home, pid, { what: 'seek rewind', another: 'name another with `--session ID`' });
        if (!ref) throw new Error('this project has no session to rewind yet');
        const session = await readSession(ref.path);
        const checkpoints = checkpointsOf(session.entries);
        if (opts.list) return list(io, home, pid, ref.id, checkpoints, opts.json === true);
        if (turn === undefined) throw new InvalidArgumentError('give a checkpoint number (see seek rewind --list), or --list');
        const target = checkpoints.find((c) => c.turn === turn);
        if (!target) throw new Error(`session ${ref.id} has no checkpoint ${turn}; seek rewind --list shows them`);
        const modes = [opts.code, opts.conversation, opts.both].filter(Boolean).length;
        if (modes > 1) throw new InvalidArgumentError('give at most one of --code, --conversation, --both');
        const code = opts.conversation !== true;
        let conversation = opts.code !== true;
        if (target.kind !== 'turn' && conversation) {
          const by = target.kind === 'merge' ? 'before a merge' : 'by a rewind';
          if (opts.conversation) throw new Error(`checkpoint ${turn} was taken ${by}, not at the start of a turn: only --code can go back to it`);
          conversation = false;
        }
        const context = { io, home, pid, sessionId: ref.id, path: ref.path, checkpoints, target, opts };
        if (code && !(await rewindTree(context))) return;
        if (conversation) await forkConversation(context);
      }),
    );
}

interface RewindContext {
  io: CommandIO;
  home: string;
  pid: string;
  sessionId: string;
  path: string;
  checkpoints: Checkpoint[];
  target: Checkpoint;
  opts: RewindOptions;
}

/** The code half. False when it stopped (a dry run's report, or a refusal reported). */
async function rewindTree(c: RewindContext): Promise<boolean> {
  const limits = checkpointLimits(checkpointSettingsFrom(await readConfig(c.home), configFile(c.home)));
  const repo = await openCheckpointRepository({ root: c.target.root, seekHome: c.home, projectId: c.pid, ...limits });
  const sameRoot = c.checkpoints.filter((k) => k.root === c.target.root);
  const latest = sameRoot.at(-1) ?? c.target;
  const plan = await planCodeRewind(repo, c.sessionId, c.target, latest);
  if (c.opts.dryRun) {
    c.io.out(describePlan(plan, c.target));
    return true;
  }
  if (plan.notRestorable.length > 0) c.io.err(`seek: ${notRestorableText(plan.notRestorable)}\n`);
  if (plan.conflicts.length > 0 && !c.opts.force) {
    c.io.err(
      `seek: refusing to rewind: ${conflictText(plan.conflicts, plan.unrecoverable)}\n` +
        'Run again with --force to overwrite them (a checkpoint of the current state is taken first, so the rewind can be undone, except for files too large to checkpoint).\n',
    );
    c.io.setExitCode(1);
    return false;
  }
  const locked = await lockSession(c.path);
  if (!('lock' in locked)) {
    const who = locked.heldBy ? `seek process ${locked.heldBy.pid}` : 'another seek process';
    throw new Error(`session ${c.sessionId} is open in ${who}; close it first (or rewind from there)`);
  }
  const writer = SessionWriter.openForAppend(c.path, { lock: locked.lock });
  try {
    const turn = c.checkpoints.reduce((max, k) => Math.max(max, k.turn), 0) + 1;
    const result = await rewindCode(repo, plan, { sessionId: c.sessionId, turn, parent: latest, record: (r) => void writer.append(checkpointEntry(r)) });
    const files = plan.changes.length === 1 ? '1 file' : `${plan.changes.length} files`;
    c.io.out(`restored the working tree to checkpoint ${c.target.turn} (${files} changed)\n`);
    if (result.skippedIgnored.length > 0) c.io.out(`left alone (ignored by git now): ${result.skippedIgnored.join(', ')}\n`);
    c.io.out(`the state before is checkpoint ${turn}: seek rewind ${turn} --code --session ${c.sessionId} undoes this\n`);
  } finally {
    await writer.close();
  }
  return true;
}

/** The conversation half: a fork holding the history before the target turn's user message. */
async function forkConversation(c: RewindContext): Promise<void> {
  if (c.opts.dryRun) {
    c.io.out(`would fork session ${c.sessionId} before turn ${c.target.turn} ("${c.target.prompt}") into a new session\n`);
    return;
  }
  const fork = await forkSessionBefore(c.home, c.pid, c.path, c.target.entryIndex);
  c.io.out(`conversation forked before turn ${c.target.turn}: new session ${fork.id} (continue it with: seek --resume ${fork.id}; session ${c.sessionId} is unchanged)\n`);
}

function describePlan(plan: CodeRewindPlan, target: Checkpoint): string {
  if (plan.changes.length === 0) return `dry run: the working tree already equals checkpoint ${target.turn}; nothing to restore\n`;
  const verb = { added: 'restore', modified: 'overwrite', deleted: 'delete' } as const;
  const lines = plan.changes.map((change) => `  ${verb[change.status]} ${change.path}\n`).join('');
  const conflicts = plan.conflicts.length > 0 ? `needs --force: ${conflictText(plan.conflicts, plan.unrecoverable)}\n` : '';
  const skipped = plan.notRestorable.length > 0 ? `${notRestorableText(plan.notRestorable)}\n` : '';
  return `dry run: rewinding to checkpoint ${target.turn} would\n${lines}${conflicts}${skipped}`;
}

async function list(io: CommandIO, home: string, pid: string, sessionId: string, checkpoints: Checkpoint[], json: boolean): Promise<void> {
  const points: RewindPoint[] = [];
  for (const root of new Set(checkpoints.map((c) => c.root))) {
    const repo = await openCheckpointRepository({ root, seekHome: home, projectId: pid });
    points.push(...(await rewindPoints(repo, checkpoints.filter((c) => c.root === root))));
  }
  points.sort((a, b) => a.turn - b.turn);
  if (json) {
    const rows = points.map((p) => ({
      turn: p.turn,
      kind: p.kind,
      prompt: p.prompt,
      at: p.at,
      ref: p.ref,
      commit: p.commit,
      root: p.root,
      changed_since: p.changedSince,
      ...(p.unrestorable ? { not_restorable: p.unrestorable } : {}),
    }));
    io.out(`${JSON.stringify({ session_id: sessionId, checkpoints: rows }, null, 2)}\n`);
    return;
  }
  if (points.length === 0) {
    io.out(`session ${sessionId} has no checkpoints\n`);
    return;
  }
  io.out(`session ${sessionId}: checkpoints (files changed since each)\n`);
  for (const p of points) {
    const label = p.kind === 'turn' ? p.prompt : `(${p.prompt})`;
    io.out(`${String(p.turn).padStart(3)}  ${p.at.slice(0, 19).replace('T', ' ')}  ${label}\n`);
    for (const row of p.changedSince) {
      const counts = row.added === undefined ? 'binary' : `+${row.added} −${row.removed}`;
      io.out(`       ${counts.padEnd(10)} ${row.path}\n`);
    }
    if (p.changedSince.length === 0) io.out('       (no change since)\n');
    for (const file of p.unrestorable ?? []) io.out(`       not restorable (too large to copy): ${file.path}\n`);
  }
}
