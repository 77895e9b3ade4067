/**
 * Housekeeping: a session's checkpoints are kept while the session is, then pruned with it. The
 * refs of a session (or subagent) whose file is gone go, and so do those of a session not written
 * to for `checkpoints.keepDays` (default 30; its file stays, and `seek rewind` then says the checkpoint was
 * pruned). Objects are left to git's own gc in the user's repository (never run here); the shadow
 * repository of a project without git is seek's own, so it is collected at once.
 */
import { stat } from 'node:fs/promises';
import type { CheckpointRepository } from './repository.js';
import { CHECKPOINT_PREFIX } from './repository.js';

export interface PruneOptions {
  /** Session and subagent ids with their files. */
  sessions: ReadonlyArray<{ id: string; path: string }>;
  /** Checkpoints of sessions not written to for longer than this go too. */
  keepMs: number;
  now: Date;
  dryRun?: boolean;
}

export interface PruneReport {
  /** Sessions whose checkpoints were (or, dry run, would be) pruned, and why. */
  pruned: Array<{ sessionId: string; refs: number; why: 'session gone' | 'session old' }>;
  kept: number;
}

/** Deletes the checkpoint refs of sessions that are gone or old (see the top of this file). */
export async function pruneCheckpoints(repo: CheckpointRepository, options: PruneOptions): Promise<PruneReport> {
  const listed = await repo.git.ok(repo.root, ['for-each-ref', '--format=%(refname)', CHECKPOINT_PREFIX]);
  const bySession = new Map<string, string[]>();
  for (const ref of listed.split('\n').filter(Boolean)) {
    const sid = ref.slice(CHECKPOINT_PREFIX.length).split('/')[0] ?? '';
    bySession.set(sid, [...(bySession.get(sid) ?? []), ref]);
  }
  const files = new Map(options.sessions.map((s) => [s.id, s.path]));
  const report: PruneReport = { pruned: [], kept: 0 };
  const doomed: string[] = [];
  for (const [sessionId, refs] of bySession) {
    const path = files.get(sessionId);
    const modified = path ? (await stat(path).catch(() => undefined))?.mtimeMs : undefined;
    const why = modified === undefined ? 'session gone' : options.now.getTime() - modified > options.keepMs ? 'session old' : undefined;
    if (!why) {
      report.kept += refs.length;
      continue;
    }
    report.pruned.push({ sessionId, refs: refs.length, why });
    doomed.push(...refs);
  }
  if (options.dryRun || doomed.length === 0) return report;
  await repo.git.ok(repo.root, ['update-ref', '--stdin'], { input: doomed.map((ref) => `delete ${ref}\n`).join('') });
  if (repo.shadow) await repo.git.ok(repo.root, ['gc', '--quiet', '--prune=now']);
  return report;
}
