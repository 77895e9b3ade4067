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
  const parts = path.relative(realRoot, real).split(path.sep).map(fileSystemName);
  if (parts.some((part) => part === '.git' || part === 'git~1')) return 'git metadata, which git runs programs from';
  if (parts.length > 0 && (parts[0] === '.seek' || parts[0] === 'seek~1')) return "the project's seek configuration";
  return undefined;
}

/** Characters HFS+ ignores in names (git's is_hfs_dotgit list): `.g\u200cit` is `.git` there. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * The name a component stands for on the file systems seek may run on, as git compares `.git`
 * (is_ntfs_dotgit, is_hfs_dotgit): without case, without the characters HFS+ ignores, and without
 * what NTFS drops or reads as a stream (`.git.`, `.git `, `.git::$INDEX_ALLOCATION`); the 8.3
 * short names `git~1`/`seek~1` are compared by the caller. Applied everywhere: on a file system
 * that keeps such names apart, refusing them only asks a person about an odd name.
 */
function fileSystemName(part: string): string {
  const name = part.replace(HFS_IGNORED, '').toLowerCase().split(':')[0]!;
  const trimmed = name.replace(/[. ]+$/, '');
  return trimmed === '' ? name : trimmed;
}
