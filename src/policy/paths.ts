import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childOf, isNormalAbsolute } from '../util/normal-path.js';

/** Max symlink hops followed for paths that do not (fully) exist; loops resolve to the last hop. */
const MAX_LINK_HOPS = 40;

/**
 * The path `p` would reach on disk: symlinks resolved, including a dangling symlink and any links
 * in the existing prefix of a path that does not exist yet (a write target). Without this, writing
 * `<root>/evil/x` where `evil -> /etc` (or a dangling `evil -> /etc/x`) would look inside the root.
 * Synchronous on purpose: the policy decides synchronously, and these are a few syscalls.
 */
export function resolveReal(p: string, hops = 0): string {
  const abs = isNormalAbsolute(p) ? p : path.resolve(p);
  try {
    return fs.realpathSync.native(abs);
  } catch {
    // Not fully existing (or a loop): resolve the parent, then look at the last component.
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const candidate = path.join(resolveReal(parent, hops), path.basename(abs));
  if (hops < MAX_LINK_HOPS) {
    try {
      if (fs.lstatSync(candidate).isSymbolicLink()) {
        const target = fs.readlinkSync(candidate);
        return resolveReal(path.resolve(path.dirname(candidate), target), hops + 1);
      }
    } catch {
      // Does not exist: the candidate is where it would be created.
    }
  }
  return candidate;
}

/** True when `target` is `root` or inside it, after resolving symlinks on both sides. */
export function isInside(root: string, target: string): boolean {
  return isInsideResolved(resolveReal(root), resolveReal(target));
}

/** Containment on already-resolved absolute paths (no filesystem access). */
export function isInsideResolved(realRoot: string, realTarget: string): boolean {
  // The common answer without path.relative (util/normal-path.ts says why); the rest below.
  if (realTarget === realRoot || childOf(realRoot, realTarget) !== undefined) return true;
  const rel = path.relative(realRoot, realTarget);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Expands a leading `~` / `~/` to the home directory; `~user` forms are returned unchanged. */
export function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return p;
}
