import { Command, InvalidArgumentError } from 'commander';
import { readConfig } from '../../config/config.js';
import { resolveProject, seekHome } from '../../config/paths.js';
import { shortSubSid } from '../../subagents/result-format.js';
import {
  DISCARDED_MAX_AGE_MS,
  formatAge,
  formatPruneMessage,
  isGitRepository,
  parseDuration,
  symlinksFromConfig,
  WorktreeError,
  WorktreeManager,
  type CleanupOutcome,
  type WorktreeListing,
} from '../../worktree/index.js';
import { guardedBy, processIO, type CommandIO } from '../command-io.js';

/** Where the command reads and writes; tests replace it. */
export type WorktreeCommandIO = CommandIO;

const defaultIO = processIO;

/** A refusal for people: printed as `seek: <message>` with exit status 1. */
class Refusal extends Error {}

/** `--older-than`: `48h`, `30m`, `7d`, `90s`, `1h30m`, `0` (everything). Bad values are usage errors (exit 2). */
function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError('expected a duration such as 48h, 30m, 7d, 90s, or 0 for all');
  return ms;
}

/**
 * `seek worktree list [--json] | gc [--older-than D] | merge ID|PATH | remove ID [--discard]` for the
 * project of the working directory (CONTRACT.md). Exit 0 on success, 1 on problems (not a git
 * repository, unknown id, a merge conflict, a dirty worktree without --discard), 2 on bad usage.
 * IDs may be a full id, a unique prefix of 4+ characters, or a path at or inside the worktree.
 */
export function createWorktreeCommand(io: WorktreeCommandIO = defaultIO): Command {
  /** The manager for the cwd's project; refuses outside a git repository. */
  const manager = async (): Promise<WorktreeManager> => {
    const home = seekHome(io.env);
    const { root, pid } = resolveProject(io.cwd(), home);
    if (!(await isGitRepository(root))) {
      throw new Refusal(`${root} is not a git repository; seek worktrees need one (run git init, or cd into a repository)`);
    }
    // A broken config.json must not block these commands; symlinks only matter for creating.
    const symlinks = symlinksFromConfig(await readConfig(home).catch(() => ({})));
    return new WorktreeManager({ projectRoot: root, seekHome: home, projectId: pid, symlinks });
  };
  /** Runs an action; refusals and the manager's errors become `seek: …` and exit 1. */
  const guarded = guardedBy(io, (error) => (error instanceof WorktreeError && error.code === 'not_found' ? '; run seek worktree list to see them' : ''));

  const command = new Command('worktree')
    .description('seek-managed git worktrees of this project: list, merge, remove, prune rescued changes')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  command
    .command('list')
    .description('this project\'s seek worktrees, newest first, with uncommitted changes and problems')
    .option('--json', 'print the rows as JSON')
    .action(
      guarded(async (opts: { json?: boolean }) => {
        const rows = await (await manager()).list();
        if (opts.json) io.out(`${JSON.stringify(rows, null, 2)}\n`);
        else io.out(rows.length === 0 ? 'no seek-managed worktrees in this project\n' : `${listTable(rows, new Date())}\n`);
      }),
    );

  command
    .command('gc')
    .description('delete rescued changes (refs/seek/discarded/*) and clean abandoned worktrees older than a duration')
    .option('--older-than <duration>', 'age such as 48h, 30m, 7d, 90s; 0 means any age (default 48h)', duration, DISCARDED_MAX_AGE_MS)
    .action(
      guarded(async (opts: { olderThan: number }) => {
        const worktrees = await manager();
        io.out(`${formatPruneMessage(await worktrees.gc({ olderThanMs: opts.olderThan }))}\n`);
        const stale = await worktrees.collectStale({ olderThanMs: opts.olderThan });
        if (stale.removed.length > 0) io.out(`removed ${count(stale.removed.length, 'clean worktree')} whose seek process had ended\n`);
        if (stale.dirty.length > 0) {
          io.out(`kept ${count(stale.dirty.length, 'worktree')} with uncommitted changes: ${stale.dirty.join(', ')} (merge them, or seek worktree remove ID --discard)\n`);
        }
        if (stale.inUse.length > 0) io.out(`kept ${count(stale.inUse.length, 'worktree')} of a seek process still running: ${stale.inUse.join(', ')}\n`);
      }),
    );

  command
    .command('diff')
    .description('what a worktree holds against the commit it started from: commits, uncommitted changes, new files')
    .argument('<id-or-path>', 'worktree id (or a unique start of it) or a path in it')
    .action(
      guarded(async (target: string) => {
        const { id, base, text } = await (await manager()).diff(target);
        io.out(text === '' ? `worktree ${id} holds nothing new since ${base.slice(0, 12)}\n` : text.endsWith('\n') ? text : `${text}\n`);
      }),
    );

  command
    .command('merge')
    .description('merge a worktree\'s changes (commits and uncommitted work) into the current branch, then remove it')
    .argument('<id-or-path>', 'worktree id (or a unique start of it) or a path in it')
    .action(
      guarded(async (target: string) => {
        const outcome = await (await manager()).merge(target);
        report(outcome, 'merge');
      }),
    );

  command
    .command('remove')
    .description('remove a worktree; one with uncommitted changes only with --discard (they are rescued first)')
    .argument('<id>', 'worktree id (or a unique start of it) or a path in it')
    .option('--discard', 'remove even with uncommitted changes (saved under refs/seek/discarded/ first)')
    .action(
      guarded(async (target: string, opts: { discard?: boolean }) => {
        const worktrees = await manager();
        try {
          report(await worktrees.remove(target, { discard: opts.discard === true }), 'remove');
        } catch (error) {
          if (!(error instanceof WorktreeError && error.code === 'dirty')) throw error;
          const listing = await worktrees.findByPathOrId(target).catch(() => undefined);
          throw new Refusal(dirtyRefusal(listing, error.message));
        }
      }),
    );

  /** Prints an outcome: its contract line on stdout (scripts parse it), then a hint for people. */
  const report = (outcome: CleanupOutcome, action: 'merge' | 'remove'): void => {
    switch (outcome.kind) {
      case 'merged':
        io.out(`${outcome.result}\nmerged ${outcome.branch} into the current branch as ${outcome.commit}; the worktree is removed, its branch kept\n`);
        return;
      case 'cleaned':
        io.out(`${outcome.result}\n${action === 'merge' ? 'nothing to merge: the worktree held no new work; it is removed' : 'the worktree is removed'}\n`);
        return;
      case 'discarded':
        io.out(`${outcome.result}\n${outcome.rescueRef ? recoveryHelp(outcome.rescueRef) : ''}`);
        return;
      case 'kept':
        io.out(`${outcome.result}\n`);
        return;
      case 'merge_conflict':
        io.out(`${outcome.result}\n`);
        io.setExitCode(1);
        return;
      case 'failed':
        io.err(`${outcome.result}\n`);
        io.setExitCode(1);
        return;
    }
  };

  return command;
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** How to get discarded changes back from their rescue ref (a stash-shaped commit). */
export function recoveryHelp(ref: string): string {
  return [
    `the changes are saved at ${ref}; to get them back:`,
    `  all files, in a checkout:   git restore --source=${ref} --worktree -- .`,
    `  one file:                   git show ${ref}:<path>`,
    `  with staged state:          git stash apply --index ${ref}`,
    `(seek worktree gc deletes rescue refs older than 48h; seek also prunes them at start-up)`,
    '',
  ].join('\n');
}

/** The refusal of `remove` without --discard: the change count and both ways forward. */
function dirtyRefusal(listing: WorktreeListing | undefined, fallback: string): string {
  if (!listing || listing.changes === undefined) return fallback;
  const changes = `${listing.changes} uncommitted change${listing.changes === 1 ? '' : 's'}`;
  return [
    `worktree ${listing.id} has ${changes} (${listing.path}); nothing was removed`,
    `  keep them by merging into the current branch:  seek worktree merge ${listing.id}`,
    `  drop them (saved under refs/seek/discarded/ first):  seek worktree remove ${listing.id} --discard`,
  ].join('\n');
}

const PROBLEM_TEXT: Record<NonNullable<WorktreeListing['problem']>, string> = {
  missing_directory: '! missing directory',
  not_registered: '! not registered with git',
};

/** One row per worktree: id, branch, changes, owner, age, problem, and the path last (never cut:
 * people copy it). A problem row also says which command fixes it. */
export function listTable(rows: readonly WorktreeListing[], now: Date): string {
  const cells = [['ID', 'BRANCH', 'CHANGES', 'OWNER', 'AGE', 'PATH']];
  for (const row of rows) {
    cells.push([
      row.id,
      row.branch,
      row.changes === undefined ? '-' : String(row.changes),
      row.ownerSubSid ? shortSubSid(row.ownerSubSid) : '-',
      formatAge(row.createdAt, now),
      row.problem ? `${row.path}  ${PROBLEM_TEXT[row.problem]}` : row.path,
    ]);
  }
  const widths = cells[0]!.map((_, col) => Math.max(...cells.map((r) => (r[col] ?? '').length)));
  const lines = cells.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  ').trimEnd());
  const problems = rows.filter((row) => row.problem);
  if (problems.length > 0) {
    lines.push('');
    for (const row of problems) {
      const fix = row.problem === 'missing_directory' ? `seek worktree remove ${row.id}` : `seek worktree remove ${row.id} --discard`;
      lines.push(`${row.id}: ${PROBLEM_TEXT[row.problem!].slice(2)}; clean up with: ${fix}`);
    }
  }
  return lines.join('\n');
}
