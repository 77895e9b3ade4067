import type { Tool } from '../agent/types.js';
import { createBashTool } from './bash.js';
import { createEditFileTool } from './edit-file.js';
import { createEnterWorktreeTool } from './enter-worktree.js';
import { createExitWorktreeTool } from './exit-worktree.js';
import { createGitTool } from './git.js';
import { createGlobTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { createListDirTool } from './list-dir.js';
import { createReadFileTool } from './read-file.js';
import { createTodoStore, type TodoStore } from './todo-store.js';
import { createTodoWriteTool } from './todo-write.js';
import { createWriteFileTool } from './write-file.js';
import type { TextFileOverlay } from './file-overlay.js';
import type { CommandRunner } from './command-runner.js';
import type { ForegroundCommands } from './foreground-commands.js';

export { backgroundOutputDir, killBackgroundJobs, listBackgroundJobs, type BackgroundJob } from './background-jobs.js';
export { displayPath, isInside, resolvePath } from './paths.js';
export { createTodoStore, type TodoStore } from './todo-store.js';
export { ForegroundCommands } from './foreground-commands.js';
export { OVERLAY_MAX_BYTES, type TextFileOverlay } from './file-overlay.js';
export type { CommandRunner, CommandRunRequest, CommandRunResult } from './command-runner.js';
export {
  createBashTool,
  createEditFileTool,
  createEnterWorktreeTool,
  createExitWorktreeTool,
  createGitTool,
  createGlobTool,
  createGrepTool,
  createListDirTool,
  createReadFileTool,
  createTodoWriteTool,
  createWriteFileTool,
};

export interface CoreToolDeps {
  /** The session's todo list; a fresh one when absent. */
  todoStore?: TodoStore;
  /** Where read_file, write_file and edit_file take text from and write it to, when an editor
   * holds it (ACP); the disk alone when absent. */
  files?: TextFileOverlay;
  /** Where bash runs foreground commands when an editor offers its terminals (ACP); seek's own
   * children when absent. */
  commands?: CommandRunner;
  /** The session's foreground commands the user may move to the background (Ctrl+B); only the
   * session's own bash gets it, never a child's. */
  foregroundCommands?: ForegroundCommands;
}

/** Names of the core tools that never change anything (they run concurrently within a turn). */
export const READ_ONLY_TOOL_NAMES: readonly string[] = ['read_file', 'glob', 'grep', 'list_dir', 'git'];

/**
 * The nine built-in tools, in the fixed order the model sees them: read_file, write_file,
 * edit_file, bash, glob, grep, list_dir, git, todo_write. Keep the order stable: tool schemas are
 * part of the cached prompt prefix.
 */
export function createCoreTools(deps: CoreToolDeps = {}): Tool[] {
  const tools: Tool[] = [
    createReadFileTool({ files: deps.files }),
    createWriteFileTool({ files: deps.files }),
    createEditFileTool({ files: deps.files }),
    createBashTool({ runner: deps.commands, ...(deps.foregroundCommands ? { foreground: deps.foregroundCommands } : {}) }),
    createGlobTool(),
    createGrepTool(),
    createListDirTool(),
    createGitTool(),
    createTodoWriteTool({ store: deps.todoStore ?? createTodoStore() }),
  ];
  return tools;
}
