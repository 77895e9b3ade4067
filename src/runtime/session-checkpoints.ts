/**
 * The checkpoints a session takes (checkpoints/turns.ts), wired to its file and its worktrees:
 * none for a session that is not saved (nothing could list them) or with `checkpoints.enabled`
 * false; otherwise one per user turn, recorded in the session file, and one before every merge
 * into a tree of the project (the worktree manager's `beforeMerge`).
 */
import { TurnCheckpoints } from '../checkpoints/turns.js';
import { checkpointLimits } from '../checkpoints/settings.js';
import type { PreparedSession } from './prepare.js';
import type { Tool } from '../agent/types.js';
import { READ_ONLY_TOOL_NAMES } from '../tools/index.js';

/** Whether `tool` is a core tool that only reads: it neither waits for the turn-start checkpoint
 * nor makes the turn's end take a snapshot (checkpoints/turns.ts beforeTool). */
export function readsOnly(tool: Tool): boolean {
  return tool.readOnly && READ_ONLY_TOOL_NAMES.includes(tool.name);
}

export function sessionCheckpoints(prepared: PreparedSession, warn: (text: string) => void): TurnCheckpoints | undefined {
  const { writer, checkpointSettings } = prepared;
  if (!writer || !checkpointSettings.enabled) return undefined;
  const checkpoints = new TurnCheckpoints({
    sessionId: prepared.id,
    seekHome: prepared.seekHome,
    projectId: prepared.projectId,
    recorded: prepared.recordedCheckpoints,
    append: (entry) => writer.append(entry),
    reserve: () => writer.reserve(),
    notice: warn,
    ...checkpointLimits(checkpointSettings),
  });
  // The repository is opened now, off the first turn's path.
  checkpoints.warm(prepared.workspace.root);
  if (prepared.worktrees) prepared.worktrees.beforeMerge = (root, what) => checkpoints.beforeMerge(root, what);
  return checkpoints;
}
