/**
 * Cheap answers about paths that are already absolute and normalised, which is what nearly every
 * path on a tool call is (path.resolve made them). node:path normalises a path character by
 * character in JavaScript: on every tool call that is several slow passes while the code is cold,
 * and later a TurboFan compile of its loop that lands in the middle of a turn (bench/loop-workload).
 *
 * Contract: each function answers only when the answer is certain to be what node:path would give
 * and returns false/undefined otherwise, so callers fall back to node:path. On Windows (other
 * separators, drive letters, case-insensitive comparison) they always fall back.
 */
import { sep } from 'node:path';

const POSIX = sep === '/';

/** True when `p` is what path.resolve(p) returns: absolute, with no empty, `.` or `..` segment and
 * no trailing separator (POSIX; always false on Windows). */
export function isNormalAbsolute(p: string): boolean {
  if (!POSIX || p.charCodeAt(0) !== 47 /* / */) return false;
  if (p.length === 1) return true;
  if (p.endsWith('/') || p.endsWith('/.') || p.endsWith('/..')) return false;
  return !p.includes('//') && !p.includes('/./') && !p.includes('/../');
}

/**
 * `target` relative to `dir` when `target` is a normalised absolute path strictly below `dir`
 * (`/a/b`, `/a/b/c` -> `c`): what path.relative(dir, target) gives then. Undefined otherwise.
 */
export function childOf(dir: string, target: string): string | undefined {
  // An absolute `dir` that ends where a segment of a normalised `target` ends is normalised too.
  if (dir.charCodeAt(0) !== 47 || target.length <= dir.length || !target.startsWith(dir) || !isNormalAbsolute(target)) return undefined;
  if (dir.endsWith('/')) return dir.length === 1 ? target.slice(1) : undefined;
  return target.charCodeAt(dir.length) === 47 ? target.slice(dir.length + 1) : undefined;
}
