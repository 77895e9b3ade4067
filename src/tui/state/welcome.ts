import { readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import type { AgentSession } from '../../runtime/session.js';
import { SEEK_VERSION } from '../../util/version.js';
import type { Line, Style } from '../markdown/ansi.js';
import { wrapSegments } from '../markdown/width.js';

/** What the first screen says about the session. */
export interface WelcomeInfo {
  version: string;
  model: string;
  provider?: string;
  mode: string;
  projectRoot: string;
  /** The branch checked out (or a short commit when detached); absent outside git. */
  branch?: string;
  cwd: string;
}

const DIM: Style = { dim: true };
const TIPS = ['/ for commands, @ to mention a file', 'shift+tab changes the mode, esc cancels a turn', 'ctrl+o shows tool output and reasoning in full'];

/**
 * The first rows of a session (printed once, above the conversation): seek's version, the model
 * and its provider, the permission mode, the project with its branch and the working directory,
 * then three tips. Wrapped to `width`.
 */
export function welcomeLines(info: WelcomeInfo, width: number): Line[] {
  const project = `${basename(info.projectRoot) || info.projectRoot}${info.branch ? ` (${info.branch})` : ''}`;
  const where = info.cwd === info.projectRoot ? info.projectRoot : info.cwd;
  const rows: Line[] = [
    [{ text: `seek ${info.version}`, style: { bold: true } }, { text: ` · ${info.model}${info.provider ? ` via ${info.provider}` : ''} · mode ${info.mode}` }],
    [{ text: `project ${project} · ${where}`, style: DIM }],
    ...TIPS.map((tip): Line => [{ text: `  tip: ${tip}`, style: DIM }]),
  ];
  return rows.flatMap((segments) => wrapSegments(segments, Math.max(1, width)));
}

/** What the first screen says about `session` (its branch read from git now). */
export function welcomeOf(session: AgentSession): WelcomeInfo {
  // Test doubles of a session may leave the project root out.
  const root = (session.projectRoot as string | undefined) ?? session.cwd;
  const branch = session.worktree?.branch ?? currentBranch(root);
  return { version: SEEK_VERSION, model: session.model, provider: session.provider, mode: session.policy.mode, projectRoot: root, cwd: session.cwd, ...(branch ? { branch } : {}) };
}

/** The branch checked out in the git checkout at `root` (a worktree's `.git` file is followed),
 * or the first 7 characters of a detached HEAD; undefined when it is not a git checkout. */
export function currentBranch(root: string): string | undefined {
  try {
    const dotGit = join(root, '.git');
    let gitDir = dotGit;
    if (statSync(dotGit).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (!pointer) return undefined;
      gitDir = isAbsolute(pointer) ? pointer : join(root, pointer);
    }
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head)?.[1];
    return ref ?? (/^[0-9a-f]{7,}$/.test(head) ? head.slice(0, 7) : undefined);
  } catch {
    return undefined;
  }
}
