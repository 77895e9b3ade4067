/**
 * Checkpoints in the session file: an event entry (format.ts), so readers that do not know
 * checkpoints keep it as an event and nothing else changes (compatible with schema 1):
 *
 *   {"type":"event","ts":"<time>","name":"checkpoint","data":{"turn":3,"kind":"turn",
 *    "ref":"refs/seek/checkpoints/<sid>/3","commit":"<sha>","tree":"<sha>","root":"/project",
 *    "prompt":"first line of the prompt"}}
 *
 * `turn` is the checkpoint's number in the session (what `seek rewind TURN` takes): 1 for the
 * first user turn, one more for every checkpoint after it, copied ones included (a fork carries
 * its origin's checkpoints, whose refs keep the origin's session id). `kind` is `turn` for the
 * start of a user turn and `restore` for the state just before a rewind replaced it (rewinding to
 * that one undoes the rewind), and `merge` for the state just before work was merged into the tree
 * (a worktree's, or delegate_tasks' editors'). `unrestorable` (absent when empty) lists changed
 * files too large to copy, by path, size and SHA-256 (large-files.ts); `leftOut` (absent when
 * empty) the untracked directories left out for their size (untracked.ts).
 */
import { lazySchema } from '../util/zod.js';
import type { IndexedEntry } from '../session/reader.js';
import type { SessionEntryInput } from '../session/format.js';
import type { UnrestorableFile } from './large-files.js';
import type { LeftOutDirectory } from './untracked.js';

export const CHECKPOINT_EVENT = 'checkpoint';

export type CheckpointKind = 'turn' | 'restore' | 'merge';

export interface CheckpointRecord {
  turn: number;
  kind: CheckpointKind;
  ref: string;
  commit: string;
  tree: string;
  /** The directory checkpointed (the project, or the worktree the session worked in). */
  root: string;
  /** The prompt's first line (for `restore`: what was rewound). */
  prompt: string;
  /** When it was taken (the entry's ts). */
  at: string;
  /** Files left out for their size: a restore cannot bring them back. */
  unrestorable?: UnrestorableFile[];
  /** Untracked directories left out for their size: a restore leaves what is under them alone. */
  leftOut?: LeftOutDirectory[];
}

const dataSchema = lazySchema((z) =>
  z.looseObject({
    turn: z.number().int().positive(),
    kind: z.enum(['turn', 'restore', 'merge']),
    ref: z.string().min(1),
    commit: z.string().min(1),
    tree: z.string().min(1),
    root: z.string().min(1),
    prompt: z.string(),
    unrestorable: z.array(z.object({ path: z.string(), size: z.number(), sha256: z.string() })).optional(),
    leftOut: z.array(z.object({ path: z.string().min(1), scope: z.enum(['tree', 'files']), files: z.number(), bytes: z.number() })).optional(),
  }),
);

/** A checkpoint entry for the session file. */
export function checkpointEntry(record: CheckpointRecord): SessionEntryInput {
  const { at, unrestorable, leftOut, ...rest } = record;
  const data = { ...rest, ...(unrestorable?.length ? { unrestorable } : {}), ...(leftOut?.length ? { leftOut } : {}) };
  return { type: 'event', ts: at, name: CHECKPOINT_EVENT, data };
}

/** The checkpoints recorded in a session's entries, in order, with the index of the place each
 * stands for (where a conversation rewind forks). */
export function checkpointsOf(entries: readonly IndexedEntry[]): Array<CheckpointRecord & { entryIndex: number }> {
  const found: Array<CheckpointRecord & { entryIndex: number }> = [];
  for (const { index, entry } of entries) {
    if (entry.type !== 'event' || entry.name !== CHECKPOINT_EVENT) continue;
    const parsed = dataSchema().safeParse(entry.data);
    if (!parsed.success) continue;
    const { turn, kind, ref, commit, tree, root, prompt, unrestorable, leftOut } = parsed.data;
    // A turn's checkpoint recorded after the turn's prompt (its snapshot overlapped the request)
    // stands where it was reserved: `position` (session/writer.ts reserve).
    const entryIndex = entry.position !== undefined && entry.position < index ? entry.position : index;
    found.push({ turn, kind, ref, commit, tree, root, prompt, at: entry.ts, entryIndex, ...(unrestorable?.length ? { unrestorable } : {}), ...(leftOut?.length ? { leftOut } : {}) });
  }
  return found;
}

/** The first line of a prompt, cut to 120 characters. */
export function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
