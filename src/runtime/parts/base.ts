/**
 * The ground a session stands on, settled before anything is written: seek's home, the project
 * (identity from its real path), whether it is a git repository, the user's configuration and the
 * hooks files (which fail closed: an unusable one stops seek here, exit status 2).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configureModels } from '../../providers/index.js';
import { readConfig, type SeekConfig } from '../../config/config.js';
import { configFile, manifestFile, resolveProject, seekHome, type ProjectLocation } from '../../config/paths.js';
import { hooksStartupError } from '../../hooks/problems.js';
import { loadSessionHooks } from '../../hooks/session-hooks.js';
import { startSandboxDetection } from '../permissions.js';
import type { OpenSessionOptions } from '../session-types.js';
import { createNoticeBoard, type NoticeBoard } from './notices.js';

export interface SessionBase {
  home: string;
  configFile: string;
  project: ProjectLocation;
  projectRoot: string;
  pid: string;
  /** Worktrees need git; elsewhere their tools are not registered and isolated children fail. */
  inGit: boolean;
  /** `--worktree` or `--worktree-branch` was given. */
  worktreeFlag: boolean;
  config: SeekConfig;
  loadedHooks: Awaited<ReturnType<typeof loadSessionHooks>>;
  board: NoticeBoard;
}

export async function openBase(options: OpenSessionOptions): Promise<SessionBase> {
  const home = seekHome(options.env);
  const project = resolveProject(options.cwd, home);
  const { root: projectRoot, pid } = project;
  const inGit = existsSync(join(projectRoot, '.git'));
  // --worktree is refused before anything is written (memory, manifest, session file).
  const worktreeFlag = options.worktree !== undefined && options.worktree !== false;
  if (worktreeFlag && !inGit) throw new Error(`--worktree needs a git repository; ${projectRoot} is not one`);
  const config = await readConfig(home);
  configureModels(config.models); // prices and windows set in config win over the catalog
  // Interactive sessions detect the OS sandbox at start (overlapping the rest of start-up) and say
  // when there is none; headless ones on their first tool call (`sandboxReady`).
  if (options.interactive) startSandboxDetection(options.env, config, configFile(home));
  const loadedHooks = await loadSessionHooks({ seekHome: home, projectRoot });
  const hooksError = hooksStartupError(loadedHooks);
  if (hooksError) throw hooksError;
  const board = createNoticeBoard();
  if (project.ignoredPointer) board.add('info', ignoredPointerNotice(home, projectRoot, pid, project.ignoredPointer));
  return { home, configFile: configFile(home), project, projectRoot, pid, inGit, worktreeFlag, config, loadedHooks, board };
}

/** Why this directory is not the project its `.seek/project-id` names, and how to make it so when
 * it really is that project, moved. */
function ignoredPointerNotice(home: string, root: string, pid: string, ignored: { id: string; reason: string }): string {
  return (
    `${join(root, '.seek', 'project-id')} names project ${ignored.id}, but ${ignored.reason}: this directory is project ${pid}, ` +
    `with its own memory and sessions (a project's identity never comes from its files). If it really is ${ignored.id} moved here, ` +
    `set "abs_path" to ${root} in ${manifestFile(home, ignored.id)}.`
  );
}
