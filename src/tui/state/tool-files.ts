import type { ActionRequest } from '../../agent/types.js';
import { resolvePath } from '../../tools/paths.js';

/**
 * The files a tool row links (see tool-lines.ts `headerLine`): live, the absolute paths its action
 * described; resumed, the same paths as the session file kept them (ToolCallView.paths, written
 * from the same action), or for a session saved without them, the call's `path` argument resolved
 * against the session's directory. Commands (bash, git) link nothing.
 */

/** Tools whose `path` argument is the one file or directory they work on (the search tools and
 * list_dir default to the directory they run in). */
const PATH_TOOLS: Readonly<Record<string, { defaultPath?: string }>> = {
  read_file: {},
  write_file: {},
  edit_file: {},
  list_dir: { defaultPath: '.' },
  glob: { defaultPath: '.' },
  grep: { defaultPath: '.' },
};

/** `{ paths }` for a live call's row, or nothing. */
export function filesOf(action: ActionRequest | undefined): { paths?: string[] } {
  if (!action || action.kind === 'bash' || action.kind === 'git' || action.paths.length === 0) return {};
  return { paths: action.paths };
}

/** `{ paths }` for a resumed call's row, or nothing. */
export function savedFiles(tool: string, kept: unknown, args: unknown, cwd: string | undefined): { paths?: string[] } {
  if (Array.isArray(kept) && kept.length > 0 && kept.every((entry) => typeof entry === 'string')) return { paths: kept as string[] };
  const known = PATH_TOOLS[tool];
  if (known === undefined || cwd === undefined) return {};
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const given = typeof record.path === 'string' && record.path.trim() !== '' ? record.path : known.defaultPath;
  return given === undefined ? {} : { paths: [resolvePath({ cwd }, given)] };
}
