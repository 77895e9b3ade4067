/** What a rewind tells the user about files it will not or cannot bring back (CLI and TUI alike). */
import type { UnrestorableFile } from './large-files.js';

function size(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${Math.ceil(bytes / 1024)} KiB`;
}

/** Files the checkpoint could not copy (too large): they stay as they are now. */
export function notRestorableText(files: readonly UnrestorableFile[]): string {
  const lines = files.map((f) => `  ${f.path} (${size(f.size)} then, sha256 ${f.sha256.slice(0, 12)})`);
  return `not restorable, left as they are: the checkpoint only recorded them, being larger than checkpoints.maxFileSize:\n${lines.join('\n')}`;
}

/** The files a restore needs consent for: changed outside seek, or too large to checkpoint first. */
export function conflictText(conflicts: readonly string[], unrecoverable: readonly string[]): string {
  const large = new Set(unrecoverable);
  const lines = conflicts.map((path) => `  ${path}${large.has(path) ? ' (too large to checkpoint first: the rewind cannot be undone for it)' : ''}`);
  const outside = conflicts.some((path) => !large.has(path));
  const why = outside ? 'changed outside seek since this session last saw them' : 'too large to checkpoint before they are replaced';
  return `${why}, and the rewind would overwrite or delete them:\n${lines.join('\n')}`;
}
