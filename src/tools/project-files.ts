import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext } from '../agent/types.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { mkdirConfined, readFileConfined, writeFileConfined } from '../util/confined-fs.js';
import { partsBelow } from '../util/confined-walk.js';
import { isInside } from './paths.js';

/**
 * Where write_file and edit_file read and write on disk. Inside the project (the policy's root: a
 * worktree once one is entered) they are confined (util/confined-fs.ts): a sandboxed command
 * running meanwhile may swap a directory for a symlink to anywhere, and seek's own write must not
 * follow it out. Links that stay inside the project still work (a symlinked file is written
 * through and stays a link); one leading out is refused, even when the user approved a write
 * outside: that approval named the path as it was then. A path outside the project (the user was
 * asked about it) is written as before.
 */
export function confinementRoot(ctx: Pick<ToolContext, 'projectRoot'>, absPath: string): string | undefined {
  const root = ctx.projectRoot;
  const lexical = partsBelow(root, absPath);
  if (lexical !== undefined && lexical.length > 0) return root;
  return lexical === undefined && isInside(root, absPath) ? root : undefined;
}

/** Creates the parent directories of `absPath`. */
export async function makeParentDirs(ctx: Pick<ToolContext, 'projectRoot'>, absPath: string): Promise<void> {
  const root = confinementRoot(ctx, absPath);
  const parent = path.dirname(absPath);
  if (root === undefined) await mkdir(parent, { recursive: true });
  else if (confinementRoot(ctx, parent) !== undefined) mkdirConfined(root, parent, { followLinks: true });
}

/** Replaces `absPath` the way an editor does (atomic, durable, mode and owner kept; see
 * writeFileAtomic's `preserve`). */
export async function writeTextFile(ctx: Pick<ToolContext, 'projectRoot'>, absPath: string, text: string): Promise<void> {
  const root = confinementRoot(ctx, absPath);
  if (root === undefined) await writeFileAtomic(absPath, text, { preserve: true, durable: true });
  else await writeFileConfined(root, absPath, text, { preserve: true, durable: true, followLinks: true });
}

/** The bytes of `absPath`; inside the project, never read through a link leading out of it. */
export async function readFileBytes(ctx: Pick<ToolContext, 'projectRoot'>, absPath: string): Promise<Buffer> {
  const root = confinementRoot(ctx, absPath);
  return root === undefined ? readFile(absPath) : readFileConfined(root, absPath, { followLinks: true });
}
