/**
 * Finding every seek-managed worktree of a project, healthy or not. Four sources are joined by
 * id: git's registrations (`git worktree list --porcelain`) under the worktrees directory, the
 * directories there, seek's metadata files, and the anchor refs `refs/seek/worktrees/<id>`. A
 * worktree whose directory is gone, or whose directory git no longer knows, is reported as a
 * problem and never removed automatically (`seek worktree remove ID` does that on request).
 */
import { readdirSync } from 'node:fs';
import { WorktreeError } from './errors.js';
export { formatAge } from '../util/age.js';
export { parseDuration } from '../util/duration.js';
import type { GitClient } from './git.js';
import { DISCARDED_PREFIX, pruneDiscarded } from './rescue.js';
import { commonGitDir, createdAtFromId, mayHaveRefs, readWorktreesDir, type WorktreeDirs, type WorktreeMeta } from './store.js';
import type { WorktreeListing } from './types.js';

export const ANCHOR_PREFIX = 'refs/seek/worktrees/';
/** Discarded work older than this is pruned at start-up. */
export const DISCARDED_MAX_AGE_MS = 48 * 3_600_000;

export interface Registration {
  path: string;
  /** Short branch name, or undefined when detached. */
  branch?: string;
  head?: string;
}

/** One seek worktree as found on disk and in git (no status yet). */
export interface ScannedWorktree {
  id: string;
  path: string;
  registration?: Registration;
  meta?: WorktreeMeta;
  hasDirectory: boolean;
  anchored: boolean;
}

/** Parses `git worktree list --porcelain` output, NUL- (`-z`) or newline-separated. */
export function parseWorktreeList(output: string): Registration[] {
  const separator = output.includes('\0') ? '\0' : '\n';
  const registrations: Registration[] = [];
  let current: Registration | undefined;
  for (const line of output.split(separator)) {
    if (line.startsWith('worktree ')) {
      current = { path: unquote(line.slice('worktree '.length)) };
      registrations.push(current);
    } else if (current && line.startsWith('HEAD ')) {
      current.head = line.slice('HEAD '.length);
    } else if (current && line.startsWith('branch ')) {
      current.branch = line.slice('branch '.length).replace(/^refs\/heads\//, '');
    }
  }
  return registrations;
}

/** Undoes git's C-style quoting (newline mode quotes unusual paths). */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  const body = Buffer.from(path.slice(1, -1), 'utf8');
  const escapes: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== 92) {
      bytes.push(body[i]!);
      continue;
    }
    const next = String.fromCharCode(body[i + 1] ?? 0);
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.subarray(i + 1, i + 4).toString('latin1'), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? body[i + 1]!);
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

async function registrations(git: GitClient, root: string): Promise<Registration[]> {
  // -z needs git 2.36; older versions print newline-separated, quoted paths.
  const nul = await git.run(root, ['worktree', 'list', '--porcelain', '-z']);
  if (nul.code === 0) return parseWorktreeList(nul.stdout);
  return parseWorktreeList(await git.ok(root, ['worktree', 'list', '--porcelain']));
}

async function anchors(git: GitClient, root: string): Promise<Set<string>> {
  const out = await git.ok(root, ['for-each-ref', '--format=%(refname)', ANCHOR_PREFIX]);
  return new Set(
    out
      .split('\n')
      .filter((ref) => ref.startsWith(ANCHOR_PREFIX))
      .map((ref) => ref.slice(ANCHOR_PREFIX.length)),
  );
}

/** Every seek worktree of the project, newest first. Three git-free reads and two git calls. */
export async function scanWorktrees(git: GitClient, root: string, dirs: WorktreeDirs): Promise<ScannedWorktree[]> {
  const [registered, anchored, disk] = await Promise.all([registrations(git, root), anchors(git, root), readWorktreesDir(dirs.dir)]);
  const byId = new Map<string, ScannedWorktree>();
  const entry = (id: string): ScannedWorktree => {
    let found = byId.get(id);
    if (!found) {
      found = { id, path: dirs.pathOf(id), hasDirectory: disk.dirs.has(id), anchored: anchored.has(id) };
      byId.set(id, found);
    }
    return found;
  };
  for (const registration of registered) {
    const split = dirs.split(registration.path);
    if (split && split.rest.length === 0) entry(split.id).registration = registration;
  }
  for (const [id, meta] of disk.metas) entry(id).meta = meta;
  for (const id of disk.dirs) entry(id);
  for (const id of anchored) entry(id);
  return [...byId.values()].sort((a, b) => createdAt(b).localeCompare(createdAt(a)) || b.id.localeCompare(a.id));
}

export function createdAt(found: ScannedWorktree): string {
  return found.meta?.created_at ?? createdAtFromId(found.id);
}

export function problemOf(found: ScannedWorktree): WorktreeListing['problem'] {
  if (!found.hasDirectory) return 'missing_directory';
  return found.registration ? undefined : 'not_registered';
}

/** The listing row of a scanned worktree; `changes` comes from the caller's status call. */
export function toListing(found: ScannedWorktree, changes: number | undefined): WorktreeListing {
  const listing: WorktreeListing = {
    id: found.id,
    path: found.path,
    branch: found.registration ? (found.registration.branch ?? '(detached)') : (found.meta?.branch ?? `seek/wt/${found.id}`),
    changes,
    createdAt: createdAt(found),
  };
  if (found.meta?.owner_sub_sid) listing.ownerSubSid = found.meta.owner_sub_sid;
  const problem = problemOf(found);
  if (problem) listing.problem = problem;
  return listing;
}

/** The worktree named by exact id, a path at or inside it, or a unique id prefix (4+ chars). */
export function findWorktree(all: ScannedWorktree[], idOrPath: string, dirs: WorktreeDirs): ScannedWorktree {
  const byPath = dirs.split(idOrPath)?.id;
  const exact = all.find((entry) => entry.id === (byPath ?? idOrPath));
  if (exact) return exact;
  const prefixed = byPath || idOrPath.length < 4 ? [] : all.filter((entry) => entry.id.startsWith(idOrPath));
  if (prefixed.length === 1) return prefixed[0]!;
  if (prefixed.length > 1) {
    throw new WorktreeError(`"${idOrPath}" matches ${prefixed.length} worktrees: ${prefixed.map((e) => e.id).join(', ')}`, 'ambiguous');
  }
  throw new WorktreeError(`no seek worktree ${idOrPath} in this project`, 'not_found');
}

export interface HousekeepingReport {
  /** Nothing seek-related in this project: no git process was started. */
  skipped: boolean;
  pruned: number;
  /** Worktrees whose directory or git registration is gone (reported, never removed). */
  problems: WorktreeListing[];
  timedOut: boolean;
}

/** Start-up housekeeping (see `WorktreeManager.housekeep`). */
export async function housekeep(git: GitClient, root: string, dirs: WorktreeDirs, now: Date, maxMs: number): Promise<HousekeepingReport> {
  const report: HousekeepingReport = { skipped: false, pruned: 0, problems: [], timedOut: false };
  const gitDir = commonGitDir(root);
  // Only worktree anchors and discarded refs matter here: checkpoint refs (refs/seek/checkpoints/,
  // written by every saved session) must not make every start run git.
  if (!gitDir || (!mayHaveRefs(gitDir, [ANCHOR_PREFIX, DISCARDED_PREFIX]) && !hasEntries(dirs.dir))) return { ...report, skipped: true };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), maxMs);
  const bounded = git.withSignal(controller.signal);
  try {
    const [pruned, found] = await Promise.all([
      pruneDiscarded(bounded, root, DISCARDED_MAX_AGE_MS, now),
      scanWorktrees(bounded, root, dirs),
    ]);
    report.pruned = pruned;
    report.problems = found.filter((entry) => problemOf(entry)).map((entry) => toListing(entry, undefined));
  } catch {
    report.timedOut = controller.signal.aborted;
  } finally {
    clearTimeout(timer);
  }
  return report;
}

/** The start-up notice for a problem worktree: what is wrong and the command that fixes it. */
export function problemNotice(listing: WorktreeListing): string {
  if (listing.problem === 'missing_directory') {
    return `seek worktree ${listing.id} (branch ${listing.branch}): its directory ${listing.path} is gone; drop its records with: seek worktree remove ${listing.id}`;
  }
  return `seek worktree ${listing.id}: git no longer knows the directory ${listing.path}; look at its files, then delete it with: seek worktree remove ${listing.id} --discard`;
}

function hasEntries(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}
