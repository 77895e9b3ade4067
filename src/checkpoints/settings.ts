/**
 * `"checkpoints": {...}` in ~/.seek/config.json:
 *   enabled       false turns checkpoints off (no refs written, `seek rewind` has nothing to list)
 *   maxFileSize   bytes; a changed or new file larger than this is not copied into a checkpoint
 *                 but recorded by size and SHA-256 and reported as not restorable (default 10 MiB)
 *   maxUntrackedFiles  an untracked directory (one git reports as a whole, or the untracked files
 *                 of one directory) with more files than this is left out of checkpoints, with one
 *                 notice per session naming it (default 10,000)
 *   maxUntrackedBytes  the same for the bytes of its files (default 200 MiB)
 *   keepDays      checkpoints of a session not written to for this many days are pruned by
 *                 `seek gc` (default 30); a deleted session's go at once
 * Only the user's own config sets it (a project cannot make seek copy more of itself).
 */
import { lazySchema } from '../util/zod.js';

export interface CheckpointSettings {
  enabled: boolean;
  maxFileSize: number;
  maxUntrackedFiles: number;
  maxUntrackedBytes: number;
  keepDays: number;
}

export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = {
  enabled: true,
  maxFileSize: 10 * 1024 * 1024,
  maxUntrackedFiles: 10_000,
  maxUntrackedBytes: 200 * 1024 * 1024,
  keepDays: 30,
};

/** What a snapshot may copy (large-files.ts, untracked.ts): every place that opens a checkpoint
 * repository passes the same, so a restore's snapshot of the tree leaves out what the checkpoints did. */
export type CheckpointLimits = Pick<CheckpointSettings, 'maxFileSize' | 'maxUntrackedFiles' | 'maxUntrackedBytes'>;

/** The limits of `settings`. */
export function checkpointLimits(settings: CheckpointLimits): CheckpointLimits {
  const { maxFileSize, maxUntrackedFiles, maxUntrackedBytes } = settings;
  return { maxFileSize, maxUntrackedFiles, maxUntrackedBytes };
}

const schema = lazySchema((z) =>
  z.strictObject({
    enabled: z.boolean().optional(),
    maxFileSize: z.number().int().nonnegative().optional(),
    maxUntrackedFiles: z.number().int().nonnegative().optional(),
    maxUntrackedBytes: z.number().int().nonnegative().optional(),
    keepDays: z.number().nonnegative().optional(),
  }),
);

export class CheckpointSettingsError extends Error {
  override readonly name = 'CheckpointSettingsError';
  /** A configuration error: exit 2, like bad usage. */
  readonly exitStatus = 2;
}

/** The settings from a config object's `checkpoints` field; throws with the offending field. */
export function checkpointSettingsFrom(config: Readonly<Record<string, unknown>>, file: string): CheckpointSettings {
  if (config.checkpoints === undefined) return { ...DEFAULT_CHECKPOINT_SETTINGS };
  const parsed = schema().safeParse(config.checkpoints);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `checkpoints.${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new CheckpointSettingsError(`${file}: ${problems}`);
  }
  return { ...DEFAULT_CHECKPOINT_SETTINGS, ...parsed.data };
}
