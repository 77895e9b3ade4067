import { lstatSync, realpathSync, renameSync } from 'node:fs';
import path from 'node:path';

/**
 * Deny rules may name files that do not exist yet (`Edit(./deploy/prod.yml)` before the first
 * deploy, `sandbox.denyWrite: [".env.production"]`). A mount needs something to mount over, and
 * making an empty file on the user's disk for each such path (what some sandboxes do) litters the
 * project with files the user denied, and blocks the user's own tools while a command runs. So,
 * like new git metadata (git-audit.ts), a denied path that a sandboxed command brings into being is
 * found when the command ends and moved aside (`<path>.seek-quarantine`, never deleted), with a
 * line in the command's result; on macOS the profile forbids creating it outright as well.
 *
 * Routes around it, and what closes them:
 *  - a link made where a missing folder on the way was (`ln -s elsewhere config`, then write
 *    `config/deploy.yml` through it): a new link on the way is moved aside the same way;
 *  - the folders on the way that did exist swapped for others (`mv deploy d2 && mkdir deploy`):
 *    they are pinned (bound onto themselves, launcher.ts), so they cannot be renamed;
 *  - a path outside the root: every write outside the writable roots fails anyway.
 * Limits: the denied file exists from its creation until the command ends (a process the command
 * starts can read it meanwhile); a background command is checked when it ends or when seek exits.
 */
export interface AbsentDenied {
  /** The denied path, its existing folders resolved (no link on the way when measured). */
  path: string;
  /** How many of its components below the root existed then (those are real folders). */
  existing: number;
}

/** The entries (absolute, or relative to `root`) that do not exist now and would lie inside `root`. */
export function absentInRoot(entries: readonly string[], root: string): AbsentDenied[] {
  const found = new Map<string, AbsentDenied>();
  for (const entry of entries) {
    const target = path.isAbsolute(entry) ? entry : path.join(root, entry);
    if (exists(target)) continue;
    const resolved = resolveExisting(target);
    if (!resolved || !resolved.path.startsWith(`${root}/`)) continue;
    const existing = path.relative(root, resolved.base).split(path.sep).filter(Boolean).length;
    found.set(resolved.path, { path: resolved.path, existing });
  }
  return [...found.values()];
}

/** The folders of `absent` that exist, between `root` (excluded) and each path: to be pinned. */
export function existingFoldersOf(absent: readonly AbsentDenied[], root: string): string[] {
  return absent.flatMap(({ path: p, existing }) => {
    const parts = path.relative(root, p).split(path.sep);
    return parts.slice(0, existing).map((_, i) => path.join(root, ...parts.slice(0, i + 1)));
  });
}

/** After a command: each denied path it created (or a link it put on the way) moved aside. */
export function moveAsideCreated(absent: readonly AbsentDenied[], root: string): string[] {
  const lines: string[] = [];
  for (const denied of absent) {
    const parts = path.relative(root, denied.path).split(path.sep);
    for (let i = denied.existing; i < parts.length; i++) {
      const here = path.join(root, ...parts.slice(0, i + 1));
      const last = i === parts.length - 1;
      const st = lstatOrNull(here);
      if (!st) break;
      if (last) lines.push(moveAside(here, root, 'created it, and a deny rule forbids writing it'));
      else if (st.isSymbolicLink()) lines.push(moveAside(here, root, `put a link where a folder on the way to ${path.relative(root, denied.path)} (denied) was missing`));
      if (last || !st.isDirectory()) break;
    }
  }
  return lines;
}

const SUFFIX = '.seek-quarantine';

/** Renames `target` to `<target>.seek-quarantine` (or `-2`, `-3`, ...): never overwrites, never deletes. */
function moveAside(target: string, root: string, why: string): string {
  const show = (p: string): string => path.relative(root, p);
  for (let i = 1; i < 100; i++) {
    const dest = `${target}${SUFFIX}${i === 1 ? '' : `-${i}`}`;
    if (lstatOrNull(dest)) continue;
    try {
      renameSync(target, dest);
      return `moved ${show(target)} aside to ${show(dest)}: a sandboxed command ${why}`;
    } catch (error) {
      return `could not move ${show(target)} aside (${(error as NodeJS.ErrnoException).code ?? 'error'}): a sandboxed command ${why}`;
    }
  }
  return `could not move ${show(target)} aside (no free ${SUFFIX} name): a sandboxed command ${why}`;
}

/** The deepest existing folder of `target` resolved through its links, and `target` below it. */
function resolveExisting(target: string): { base: string; path: string } | undefined {
  const rest: string[] = [];
  let base = target;
  while (!exists(base)) {
    const parent = path.dirname(base);
    if (parent === base) return undefined;
    rest.unshift(path.basename(base));
    base = parent;
  }
  try {
    const real = realpathSync(base); // throws for a dangling link on the way: left alone
    if (!lstatSync(real).isDirectory()) return undefined; // a file in the way: nothing can be made below it
    return { base: real, path: path.join(real, ...rest) };
  } catch {
    return undefined;
  }
}

function exists(p: string): boolean {
  return lstatOrNull(p) !== null;
}

function lstatOrNull(p: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}
