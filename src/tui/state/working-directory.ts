import { relative, resolve } from 'node:path';

/** What of a session tells where it works now. */
export interface SessionPlace {
  /** The directory the session started in. */
  readonly cwd: string;
  readonly projectRoot: string;
  /** The worktree it entered (enter_worktree), if any. */
  readonly worktree?: { readonly path: string } | undefined;
}

/**
 * The session's working directory now: where it started, or, after enter_worktree, the same
 * place inside the worktree (as runtime/workspace.ts `Workspace.cwd` computes it for the tools).
 */
export function sessionWorkingDirectory(session: SessionPlace): string {
  if (!session.worktree) return session.cwd;
  return resolve(session.worktree.path, relative(session.projectRoot, session.cwd));
}
