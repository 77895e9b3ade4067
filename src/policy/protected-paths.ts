import path from 'node:path';
import { isInsideResolved, resolveReal } from './paths.js';

/**
 * Files inside the project that seek's own file tools (write_file, edit_file) never write without a
 * person's yes, in every mode but yolo: what the OS sandbox keeps read-only for commands (git
 * metadata, `.seek/`), because those tools run outside it, in seek's process. Without this,
 * `--auto` (or an approved plan, or an allow rule such as `Edit(**)`) let a prompt-injected model
 * write `.git/config` (`core.fsmonitor`, run by the user's next `git status`), `.git/hooks/*`, or
 * `.seek/config.json` (removing the project's deny rules), none of which a sandboxed command can.
 *
 *  - any path with a `.git` component, at any depth: a repository's git directory (config, hooks,
 *    a worktree's `commondir`/`gitdir` pointers, submodules' `modules/`) or a `.git` file that
 *    points git at another directory; compared without case (a case-insensitive file system reads
 *    `.GIT/config` as `.git/config`);
 *  - `.seek/` at the root: the project's rules, hooks, MCP servers, commands and agents.
 * The target is judged where it really lands: symlinks resolved (paths.ts), so a link inside the
 * project that points into `.git` is the same file.
 */
export function protectedWrite(root: string, target: string): string | undefined {
  const realRoot = resolveReal(root);
  const real = resolveReal(target);
  if (!isInsideResolved(realRoot, real)) return undefined;
  const parts = path.relative(realRoot, real).split(path.sep);
  if (parts.some((part) => part.toLowerCase() === '.git')) return 'git metadata, which git runs programs from';
  if (parts.length > 0 && parts[0]!.toLowerCase() === '.seek') return "the project's seek configuration";
  return undefined;
}
