import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext } from '../agent/types.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { mkdirConfined, readFileConfined, writeFileConfined } from '../util/confined-fs.js';
import { locateFollowing, partsBelow } from '../util/confined-walk.js';
import { isInside, realpathOfNearestExisting } from './paths.js';

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

type WriteContext = Pick<ToolContext, 'projectRoot' | 'checkWrite'>;

/** A write the gate's check refuses (ToolContext.checkWrite): `message` says where it now leads. */
export class WriteRedirected extends Error {
  readonly code = 'EREDIRECTED';
}

/**
 * Where a write of `absPath` inside `root` lands, links inside the root resolved now, after the
 * gate's check of that very file (ToolContext.checkWrite). The caller then acts on the real path
 * without following links (confined-fs.ts), so a link planted after this refuses or is replaced,
 * never followed: the file checked is the file written.
 */
function checkedRealPath(ctx: WriteContext, root: string, absPath: string): { root: string; real: string } {
  const loc = locateFollowing(root, absPath, 'write');
  const real = path.join(loc.root, ...loc.parts);
  check(ctx, real);
  return { root: loc.root, real };
}

function check(ctx: WriteContext, real: string): void {
  const refusal = ctx.checkWrite?.(real);
  if (refusal !== undefined) throw new WriteRedirected(refusal);
}

/** Creates the parent directories of `absPath` (judged as the file they are made for). */
export async function makeParentDirs(ctx: WriteContext, absPath: string): Promise<void> {
  const root = confinementRoot(ctx, absPath);
  const parent = path.dirname(absPath);
  if (root === undefined) {
    check(ctx, realpathOfNearestExisting(absPath));
    await mkdir(parent, { recursive: true });
  } else if (confinementRoot(ctx, parent) !== undefined) {
    const at = checkedRealPath(ctx, root, parent);
    check(ctx, path.join(at.real, path.basename(absPath)));
    mkdirConfined(at.root, at.real);
  }
}

/** Replaces `absPath` the way an editor does (atomic, durable, mode and owner kept; see
 * writeFileAtomic's `preserve`). Inside the project a symlink to a file inside it is written
 * through (the real file is replaced; the link stays). */
export async function writeTextFile(ctx: WriteContext, absPath: string, text: string): Promise<void> {
  const root = confinementRoot(ctx, absPath);
  if (root === undefined) {
    check(ctx, realpathOfNearestExisting(absPath));
    await writeFileAtomic(absPath, text, { preserve: true, durable: true });
    return;
  }
  const at = checkedRealPath(ctx, root, absPath);
  await writeFileConfined(at.root, at.real, text, { preserve: true, durable: true });
}

/** The check alone, for a write seek hands to someone else (an editor's buffer, files.writeText). */
export function checkWriteTarget(ctx: WriteContext, absPath: string): void {
  check(ctx, realpathOfNearestExisting(absPath));
}

/** The bytes of `absPath`; inside the project, never read through a link leading out of it. */
export async function readFileBytes(ctx: Pick<ToolContext, 'projectRoot'>, absPath: string): Promise<Buffer> {
  const root = confinementRoot(ctx, absPath);
  return root === undefined ? readFile(absPath) : readFileConfined(root, absPath, { followLinks: true });
}
