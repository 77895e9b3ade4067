/**
 * Every path seek uses, computed in one place so all subsystems agree (CONTRACT.md "Files").
 *
 * ```
 * <home>/config.json  soul.md  dream-state.json  hooks.toml  trusted-projects.json
 * <home>/projects/<pid>/manifest.json  memory.jsonl  archived.jsonl  observations.jsonl  subagents.jsonl
 * <home>/projects/<pid>/sessions/<sid>.jsonl
 * <home>/projects/<pid>/sessions/<sid>/subagents/<sub-sid>/transcript.jsonl
 * <home>/projects/<pid>/worktrees/<wt-id>/
 * ```
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { readTrustedFileSync } from '../util/trusted-read.js';
import { writeFileAtomic } from './atomic-file.js';
import { addToStartupCache, readStartupCache } from './startup-cache.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `SEEK_HOME` when set (made absolute), else `~/.seek`. XDG variables are deliberately ignored. */
export function seekHome(env: Env = process.env): string {
  const override = env.SEEK_HOME;
  if (override !== undefined && override.trim() !== '') return resolve(override);
  return join(homedir(), '.seek');
}

/**
 * The project root: the git top level containing `cwd`, else `cwd` itself. Always an absolute,
 * symlink-free path.
 *
 * Runs on every start, so it walks up looking for a `.git` entry instead of spawning git. A `.git`
 * directory marks an ordinary repository; a `.git` file marks a linked worktree or a submodule,
 * whose top level is the directory holding that file (the same answer as `git rev-parse
 * --show-toplevel`).
 */
export function findProjectRoot(cwd: string): string {
  const start = realPathOrResolved(cwd);
  for (let dir = start; ; ) {
    const git = statSync(join(dir, '.git'), { throwIfNoEntry: false });
    if (git && (git.isDirectory() || git.isFile())) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

function realPathOrResolved(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

const PROJECT_ID_PATTERN = /^[0-9a-f]{16}$/;

/** Whether `value` has the shape of a project id: 16 lowercase hex digits. */
export function isProjectId(value: string): boolean {
  return PROJECT_ID_PATTERN.test(value);
}

/** `<root>/.seek/project-id`: an optional hint, from older seeks, naming the id a project had
 * before it moved. It is honoured only when seek's own record agrees (see projectIdentity). */
export function projectIdPointerFile(root: string): string {
  return join(root, '.seek', 'project-id');
}

/** Which project a directory is, and a `.seek/project-id` hint that was not followed (and why). */
export interface ProjectIdentity {
  pid: string;
  ignoredPointer?: { id: string; reason: string };
}

/**
 * The project's identity. It never comes from the repository: the id is the first 16 hex digits
 * of sha256 of the root's real path, something a clone cannot forge. A `<root>/.seek/project-id`
 * holding another valid id is only a hint, followed when seek's own record under `home`
 * (`projects/<id>/manifest.json`, written by seek when it ran there) says that project's root is
 * this very directory: so a project that kept its id that way keeps its memory and sessions,
 * while a clone or a forged file gets an identity of its own, never another project's. Without
 * `home` nothing can be checked and the hint is never followed. Every subsystem must use this
 * function (or projectId/resolveProject), never its own hash.
 */
export function projectIdentity(root: string, home?: string): ProjectIdentity {
  const absolute = resolve(root);
  const canonical = pathHash(absolute, home);
  const pointer = readPointer(absolute);
  if (pointer === undefined || pointer === canonical) return { pid: canonical };
  const recorded = home === undefined ? undefined : recordedRoot(home, pointer);
  if (recorded === absolute) return { pid: pointer };
  const reason =
    recorded === undefined
      ? `seek has no record of a project ${pointer}`
      : `seek's record of project ${pointer} (${manifestFile(home!, pointer)}) names another directory, ${recorded}`;
  return { pid: canonical, ignoredPointer: { id: pointer, reason } };
}

/** The project id: projectIdentity's. */
export function projectId(root: string, home?: string): string {
  return projectIdentity(root, home).pid;
}

/** The id a valid `.seek/project-id` holds (16 lowercase hex, surrounding whitespace ignored),
 * read only as a small regular file inside the root (util/trusted-read.ts). */
function readPointer(root: string): string | undefined {
  const read = readTrustedFileSync(projectIdPointerFile(root), { within: [root], maxBytes: 256 });
  if (!read.ok) return undefined;
  const pointer = read.text.trim();
  return isProjectId(pointer) ? pointer : undefined;
}

/** The root seek recorded for `pid` (its manifest's `abs_path`), if it has a valid record. */
function recordedRoot(home: string, pid: string): string | undefined {
  try {
    const manifest: unknown = JSON.parse(readFileSync(manifestFile(home, pid), 'utf8'));
    return isProjectManifest(manifest) && manifest.project_id === pid ? manifest.abs_path : undefined;
  } catch {
    return undefined;
  }
}

/** The path's hash, remembered under `home` (cache/project-ids.json, startup-cache.ts) when one is
 * given: it never changes for a path, and node:crypto costs 1.5 ms to load at a start that needs
 * nothing else of it (bench/say-hello). */
function pathHash(absolute: string, home: string | undefined): string {
  const known = home === undefined ? undefined : readStartupCache(home, 'project-ids.json')[absolute];
  if (known !== undefined && isProjectId(known)) return known;
  const id = createHash('sha256').update(absolute).digest('hex').slice(0, 16);
  if (home !== undefined) addToStartupCache(home, 'project-ids.json', { [absolute]: id });
  return id;
}

/** Where seek is running: the project's root (the git top level containing cwd), its id, and,
 * when that root is one of seek's own worktrees, the worktree's id. */
export interface ProjectLocation {
  readonly root: string;
  readonly pid: string;
  /** Set when `root` is `<home>/projects/<pid>/worktrees/<id>`: a session started inside a seek
   * worktree belongs to the project that owns the worktree (same memory, sessions and
   * subagents), not to a new project named after the worktree's path. */
  readonly worktreeId?: string;
  /** A `.seek/project-id` that was not followed, and why (projectIdentity). */
  readonly ignoredPointer?: { id: string; reason: string };
}

/**
 * The one answer to "which project is this?" for every subsystem (memory, sessions, subagents,
 * worktrees): `findProjectRoot` plus `projectId`, except inside a seek-managed worktree, whose
 * project id is its owner's.
 */
export function resolveProject(cwd: string, home: string): ProjectLocation {
  const root = findProjectRoot(cwd);
  const owner = seekWorktreeOwner(root, home);
  if (owner) return { root, pid: owner.pid, worktreeId: owner.id };
  const identity = projectIdentity(root, home);
  return identity.ignoredPointer ? { root, pid: identity.pid, ignoredPointer: identity.ignoredPointer } : { root, pid: identity.pid };
}

/** `{pid, id}` when `root` is `<home>/projects/<pid>/worktrees/<id>` of an existing project. */
function seekWorktreeOwner(root: string, home: string): { pid: string; id: string } | undefined {
  const id = basename(root);
  const worktrees = dirname(root);
  const project = dirname(worktrees);
  const pid = basename(project);
  if (basename(worktrees) !== 'worktrees' || !isProjectId(pid)) return undefined;
  if (realPathOrResolved(dirname(project)) !== realPathOrResolved(join(home, 'projects'))) return undefined;
  return { pid, id };
}

// ---- Files under SEEK_HOME ----------------------------------------------------------------------

export const configFile = (home: string): string => join(home, 'config.json');
export const soulFile = (home: string): string => join(home, 'soul.md');
export const userHooksFile = (home: string): string => join(home, 'hooks.toml');
export const trustedProjectsFile = (home: string): string => join(home, 'trusted-projects.json');
/** Automatic dreaming's counter: `{schema_version, last_dream_at?, sessions_since_dream}`. */
export const dreamStateFile = (home: string): string => join(home, 'dream-state.json');

// ---- Files under projects/<pid> -----------------------------------------------------------------

export const projectDir = (home: string, pid: string): string => join(home, 'projects', pid);
export const manifestFile = (home: string, pid: string): string => join(projectDir(home, pid), 'manifest.json');
export const memoryFile = (home: string, pid: string): string => join(projectDir(home, pid), 'memory.jsonl');
export const archivedMemoryFile = (home: string, pid: string): string =>
  join(projectDir(home, pid), 'archived.jsonl');
/** Outcomes of memory_observe checks (append-only): what the model proposed and why it was kept or not. */
export const observationsLogFile = (home: string, pid: string): string => join(projectDir(home, pid), 'observations.jsonl');
/** The append-only subagent index (spec 3.6). */
export const subagentIndexFile = (home: string, pid: string): string =>
  join(projectDir(home, pid), 'subagents.jsonl');
export const sessionsDir = (home: string, pid: string): string => join(projectDir(home, pid), 'sessions');
export const sessionFile = (home: string, pid: string, sid: string): string =>
  join(sessionsDir(home, pid), `${sid}.jsonl`);
/** Per-session side directory (subagents, checkpoints); sits next to `<sid>.jsonl`. */
export const sessionSideDir = (home: string, pid: string, sid: string): string => join(sessionsDir(home, pid), sid);
/** All subagents of one parent session: `sessions/<sid>/subagents/`. */
export const subagentsDir = (home: string, pid: string, parentSid: string): string =>
  join(sessionSideDir(home, pid, parentSid), 'subagents');
/** One subagent's directory: `sessions/<sid>/subagents/<sub-sid>/`. */
export const subagentDir = (home: string, pid: string, parentSid: string, subSid: string): string =>
  join(subagentsDir(home, pid, parentSid), subSid);
/** One subagent's transcript (same format as a session): `.../subagents/<sub-sid>/transcript.jsonl`. */
export const subagentTranscriptFile = (home: string, pid: string, parentSid: string, subSid: string): string =>
  join(subagentDir(home, pid, parentSid, subSid), 'transcript.jsonl');
/** A request to stop a running subagent, written by `seek subagent kill` (maybe from another
 * process) and polled by the process that runs the child: `.../subagents/<sub-sid>/kill`. */
export const subagentKillRequestFile = (home: string, pid: string, parentSid: string, subSid: string): string =>
  join(subagentDir(home, pid, parentSid, subSid), 'kill');
export const worktreesDir = (home: string, pid: string): string => join(projectDir(home, pid), 'worktrees');

// ---- Project files under the project root -------------------------------------------------------

export const projectHooksFile = (root: string): string => join(root, '.seek', 'hooks.toml');
export const projectAgentsDir = (root: string): string => join(root, '.seek', 'agents');
/** Claude Code's subagent definitions, read too: `<root>/.claude/agents/*.md`. */
export const projectClaudeAgentsDir = (root: string): string => join(root, '.claude', 'agents');
/** User-level definitions: `~/.seek/agents/*.md`. */
export const userAgentsDir = (home: string): string => join(home, 'agents');

// ---- Manifest -----------------------------------------------------------------------------------

/** `projects/<pid>/manifest.json`. Unknown keys are kept, so a newer seek's fields survive. */
export interface ProjectManifest {
  schema_version: 1;
  project_id: string;
  abs_path: string;
  first_seen: string;
  last_seen: string;
  [key: string]: unknown;
}

/** Checked by hand, not with zod: every saved run reads the manifest, and a plain run should not
 * load zod for it (src/util/zod.ts). */
function isProjectManifest(value: unknown): value is ProjectManifest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  return fields.schema_version === 1 && ['project_id', 'abs_path', 'first_seen', 'last_seen'].every((key) => typeof fields[key] === 'string');
}

/** How stale `last_seen` may get before a run rewrites the manifest for it alone: it is a day's
 * precision, so most runs in a project read the manifest and write nothing. */
export const MANIFEST_REFRESH_MS = 24 * 60 * 60 * 1000;

/**
 * Records that seek ran in this project: writes `projects/<pid>/manifest.json`, keeping
 * `first_seen` from an existing valid manifest and updating `abs_path` and `last_seen`. This is the
 * record projectIdentity checks a `.seek/project-id` against; `pid` is always the root's own id or
 * one whose record already names `root`, so a run never points another project's record here. A
 * corrupt manifest is replaced. The write is atomic (temp file + rename), so a concurrent seek never reads half a manifest. A valid
 * manifest with the same `abs_path` and a `last_seen` less than MANIFEST_REFRESH_MS old is left as
 * it is (and returned): a run that changes nothing else rewrites nothing.
 */
export async function ensureProjectManifest(
  home: string,
  pid: string,
  root: string,
  now: Date = new Date(),
): Promise<ProjectManifest> {
  const file = manifestFile(home, pid);
  const timestamp = now.toISOString();
  let firstSeen = timestamp;
  let preserved: Record<string, unknown> = {};
  try {
    const existing: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (isProjectManifest(existing)) {
      const seenAgo = now.getTime() - Date.parse(existing.last_seen);
      if (existing.abs_path === resolve(root) && existing.project_id === pid && seenAgo >= 0 && seenAgo < MANIFEST_REFRESH_MS) return existing;
      firstSeen = existing.first_seen;
      preserved = existing;
    }
  } catch {
    // Missing or unparsable: write a fresh one.
  }
  const manifest: ProjectManifest = {
    ...preserved,
    schema_version: 1,
    project_id: pid,
    abs_path: resolve(root),
    first_seen: firstSeen,
    last_seen: timestamp,
  };
  await writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
