/**
 * seek's own bookkeeping for worktrees: the metadata file `worktrees/<id>.json` that sits next to
 * the worktree directory `worktrees/<id>/` (outside it, so it never shows in the worktree's git
 * status), and the path <-> id mapping. Metadata is advisory: a worktree whose file is lost is
 * still found through its directory, its git registration and its anchor ref.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { isSessionId } from '../session/format.js';
import { isProcessAlive } from '../util/process.js';

const metaSchema = lazySchema((z) =>
  z.looseObject({
    schema_version: z.literal(1),
    id: z.string(),
    path: z.string(),
    branch: z.string(),
    base: z.string(),
    created_at: z.string(),
    owner_sub_sid: z.string().optional(),
    /** The seek process that created it, so gc never removes a worktree a live session works in. */
    owner_pid: z.number().int().optional(),
    owner_host: z.string().optional(),
  }),
);

export type WorktreeMeta = z.infer<ReturnType<typeof metaSchema>>;

/** The owner pid when it is another process that still runs on this host; undefined otherwise
 * (no owner recorded, this process, gone, or another host where liveness cannot be told). */
export function liveOtherOwner(meta: WorktreeMeta | undefined): number | undefined {
  const owner = meta?.owner_pid;
  if (owner === undefined || owner === process.pid || meta?.owner_host !== hostname()) return undefined;
  return isProcessAlive(owner) ? owner : undefined;
}

export const metaFile = (dir: string, id: string): string => join(dir, `${id}.json`);

export async function writeMeta(dir: string, meta: WorktreeMeta): Promise<void> {
  await writeFileAtomic(metaFile(dir, meta.id), `${JSON.stringify(meta, null, 2)}\n`);
}

export async function removeMeta(dir: string, id: string): Promise<void> {
  await rm(metaFile(dir, id), { force: true });
}

export async function readMeta(dir: string, id: string): Promise<WorktreeMeta | undefined> {
  try {
    // Read before the schema is built: a missing file needs no zod (src/util/zod.ts).
    const json: unknown = JSON.parse(await readFile(metaFile(dir, id), 'utf8'));
    const parsed = metaSchema().safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** What `worktrees/` holds: metadata per id, and the ids that have a directory. */
export async function readWorktreesDir(dir: string): Promise<{ metas: Map<string, WorktreeMeta>; dirs: Set<string> }> {
  const metas = new Map<string, WorktreeMeta>();
  const dirs = new Set<string>();
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return { metas, dirs };
  }
  const metaIds: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() && isSessionId(entry.name)) dirs.add(entry.name);
    const id = entry.name.endsWith('.json') ? entry.name.slice(0, -'.json'.length) : '';
    if (entry.isFile() && isSessionId(id)) metaIds.push(id);
  }
  const read = await Promise.all(metaIds.map((id) => readMeta(dir, id)));
  for (const meta of read) if (meta) metas.set(meta.id, meta);
  return { metas, dirs };
}

/** `YYYYMMDD-HHMMSS-…` -> ISO time, for worktrees without metadata. */
export function createdAtFromId(id: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(id);
  if (!m) return '';
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`;
}

export function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/**
 * Where seek's worktrees of one project live, in the two spellings a path may come in: as
 * computed from SEEK_HOME, and symlink-free (git records the real path of every worktree).
 */
export class WorktreeDirs {
  private real: string | undefined;

  constructor(readonly dir: string) {}

  /** The symlink-free spelling, once the directory exists. */
  realDir(): string | undefined {
    if (this.real === undefined && existsSync(this.dir)) {
      try {
        this.real = realpathSync.native(this.dir);
      } catch {
        return undefined;
      }
    }
    return this.real;
  }

  private forms(): string[] {
    const real = this.realDir();
    return real && real !== this.dir ? [this.dir, real] : [this.dir];
  }

  /** For a path at or inside `<dir>/<id>`: the id and the rest of the path; else undefined. */
  split(path: string): { id: string; rest: string[] } | undefined {
    const absolute = resolve(path);
    for (const base of this.forms()) {
      const rel = relative(base, absolute);
      if (rel === '' || isOutside(rel)) continue;
      const [id, ...rest] = rel.split(sep);
      if (id !== undefined && isSessionId(id)) return { id, rest };
    }
    return undefined;
  }

  /** The worktree directory of `id` (real spelling when known, so it matches git's). */
  pathOf(id: string): string {
    return join(this.realDir() ?? this.dir, id);
  }
}

/**
 * The repository's common git directory (where refs live), found without spawning git: `.git`
 * is a directory, or a file `gitdir: X` (a linked worktree or submodule) whose X may name the
 * common directory in `X/commondir`. Undefined when there is no `.git` at `root`.
 */
export function commonGitDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (stat.isDirectory()) return dotGit;
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!pointer) return undefined;
    const gitDir = resolve(root, pointer);
    const common = join(gitDir, 'commondir');
    return existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
  } catch {
    return undefined;
  }
}

/**
 * Whether the repository may hold refs under one of `prefixes` (`refs/seek/worktrees/`, …): a
 * loose directory of one, a packed ref, or a ref backend seek cannot read cheaply (reftable:
 * answers yes, so git decides).
 */
export function mayHaveRefs(gitDir: string, prefixes: readonly string[]): boolean {
  if (existsSync(join(gitDir, 'reftable')) || prefixes.some((prefix) => existsSync(join(gitDir, prefix)))) return true;
  try {
    const packed = readFileSync(join(gitDir, 'packed-refs'), 'utf8');
    return prefixes.some((prefix) => packed.includes(` ${prefix}`));
  } catch {
    return false;
  }
}
