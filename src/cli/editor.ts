/**
 * Editing text in the user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, on a temporary file.
 * The file is kept when the caller cannot use what was written (`keep`), so no typing is lost.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EditSession {
  /** The text after the editor closed. */
  text: string;
  /** The temporary file (deleted by `discard`, kept otherwise). */
  file: string;
  discard(): void;
}

export function editText(text: string, name: string, env: NodeJS.ProcessEnv = process.env): EditSession {
  const dir = mkdtempSync(join(tmpdir(), 'seek-edit-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const editor = env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
  // Through the shell: editors are often configured with arguments ("code --wait").
  const result = spawnSync(`${editor} "$SEEK_EDIT_FILE"`, { shell: true, stdio: 'inherit', env: { ...env, SEEK_EDIT_FILE: file } });
  if (result.error || result.status !== 0) {
    throw new Error(`the editor (${editor}) failed${result.error ? `: ${result.error.message}` : ` with status ${result.status}`}; your text is in ${file}`);
  }
  return { text: readFileSync(file, 'utf8'), file, discard: () => rmSync(dir, { recursive: true, force: true }) };
}
