import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { readConfig } from '../../config/config.js';
import { configFile, resolveProject, seekHome } from '../../config/paths.js';
import { checkpointSettingsFrom, openCheckpointRepository, pruneCheckpoints } from '../../checkpoints/index.js';
import { allSessionRefs } from '../../session/list.js';
import { parseDuration } from '../../util/duration.js';
import { guardedBy, processIO, type CommandIO } from '../command-io.js';

interface GcOptions {
  olderThan?: number;
  workdir?: string;
  dryRun?: boolean;
  json?: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError('expected a duration such as 30d, 48h, or 0 for all');
  return ms;
}

/**
 * `seek gc [--older-than D] [--dry-run] [--json]`: prunes the checkpoints of this project's
 * sessions that are gone, or not written to for `checkpoints.keepDays` (default 30 days; see
 * checkpoints/prune.ts). `seek worktree gc` does the same for discarded worktree changes. Exit 0,
 * 1 on a problem (the config unreadable, git failing), 2 on bad usage.
 *
 * `seek gc --workdir DIR` instead cleans a fleet worker's workdir (src/fleet/retention.ts):
 * leftover checkouts, the job sessions' transcripts (under this SEEK_HOME: run it with the
 * worker's) and mirrors unused for `--older-than` (default 7 days), never a running job's.
 */
export function createGcCommand(io: CommandIO = processIO): Command {
  const guarded = guardedBy(io);
  return new Command('gc')
    .description("prune checkpoints of sessions that are gone or older than checkpoints.keepDays (default 30 days)")
    .option('--older-than <duration>', 'prune the checkpoints of sessions not written to for this long (e.g. 7d, 0 for all); with --workdir, what is older than this', duration)
    .option('--workdir <dir>', "clean a fleet worker's workdir instead: leftover checkouts, job transcripts and unused mirrors (default older than 7 days)")
    .option('--dry-run', 'print what would be pruned and change nothing')
    .option('--json', 'print the report as JSON')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .action(
      guarded(async (opts: GcOptions) => {
        const home = seekHome(io.env);
        if (opts.workdir !== undefined) return cleanWorkdir(io, home, opts);
        const { root, pid } = resolveProject(io.cwd(), home);
        const settings = checkpointSettingsFrom(await readConfig(home), configFile(home));
        const keepMs = opts.olderThan ?? settings.keepDays * DAY_MS;
        const repo = await openCheckpointRepository({ root, seekHome: home, projectId: pid });
        const sessions = await allSessionRefs(home, pid);
        const report = await pruneCheckpoints(repo, { sessions, keepMs, now: new Date(), dryRun: opts.dryRun === true });
        if (opts.json) {
          io.out(`${JSON.stringify({ dry_run: opts.dryRun === true, pruned: report.pruned.map((p) => ({ session_id: p.sessionId, refs: p.refs, why: p.why })), kept_refs: report.kept }, null, 2)}\n`);
          return;
        }
        const verb = opts.dryRun ? 'would prune' : 'pruned';
        for (const p of report.pruned) io.out(`${verb} ${p.refs} checkpoint ref${p.refs === 1 ? '' : 's'} of session ${p.sessionId} (${p.why})\n`);
        const total = report.pruned.reduce((sum, p) => sum + p.refs, 0);
        io.out(total === 0 ? `no checkpoints to prune (${report.kept} kept)\n` : `${verb} ${total} in all; ${report.kept} kept\n`);
      }),
    );
}

/** `seek gc --workdir DIR`: a fleet worker's leftovers, as its own sweeps remove them. */
async function cleanWorkdir(io: CommandIO, home: string, opts: GcOptions): Promise<void> {
  const { DEFAULT_KEEP_DAYS, WORKDIR_MARK, sweepSummary, sweepWorkdir } = await import('../../fleet/retention.js');
  const workdir = resolve(io.cwd(), opts.workdir!);
  if (!existsSync(join(workdir, WORKDIR_MARK))) throw new Error(`${workdir} is not a seek worker's workdir (it has no ${WORKDIR_MARK}, which a worker writes when it starts)`);
  const keepMs = opts.olderThan ?? DEFAULT_KEEP_DAYS * DAY_MS;
  const report = await sweepWorkdir({ workdir, seekHome: home, keepMs, dryRun: opts.dryRun === true });
  if (opts.json) {
    const { checkouts, transcripts, mirrors, running } = report;
    io.out(`${JSON.stringify({ dry_run: opts.dryRun === true, workdir, checkouts, transcripts, mirrors, running }, null, 2)}\n`);
    return;
  }
  const verb = opts.dryRun ? 'would remove' : 'removed';
  for (const path of report.checkouts) io.out(`${verb} checkout ${path}\n`);
  for (const path of report.transcripts) io.out(`${verb} job transcripts ${path}\n`);
  for (const path of report.mirrors) io.out(`${verb} mirror ${path}\n`);
  for (const path of report.running.checkouts) io.out(`kept ${path} (its job is running)\n`);
  io.out(`${verb} ${sweepSummary(report)}\n`);
}
