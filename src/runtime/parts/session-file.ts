/**
 * The session file, opened last: a new session's file is created with its first message (nothing
 * is left by a session that never started); a resumed one is locked, or forked when another
 * process is writing it, and repaired (calls an interrupted run left without results are answered,
 * so the history is valid again). The worktree the session starts in is recorded.
 */
import { ensureProjectManifest, sessionFile } from '../../config/paths.js';
import type { Message, ToolCall } from '../../providers/types.js';
import { unwrapProxyCall } from '../../agent/tool-proxy.js';
import { SessionWriter } from '../../session/writer.js';
import { interruptedToolResults } from '../../session/reader.js';
import { resumeWriter } from '../../session/resume.js';
import { toolsHash } from '../../session/format.js';
import type { ToolSchema } from '../../providers/types.js';
import { recoverOrphans } from '../../subagents/index-log.js';
import type { WorktreeManager } from '../../worktree/manager.js';
import { SEEK_VERSION } from '../../util/version.js';
import { unansweredBackgroundNotice } from '../background-agents.js';
import { recordMove, recordMoves, restoreWorkspace, type Workspace } from '../workspace.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';
import type { Conversation } from './conversation.js';
import type { OrchestrationPart } from './orchestration.js';
import type { WorkspaceStart } from './workspace-start.js';

export interface SessionFileNeeds {
  conversation: Conversation;
  toolSchemas: ToolSchema[];
  worktrees: WorktreeManager | undefined;
  workspace: Workspace;
  orchestration: OrchestrationPart;
  start: WorkspaceStart;
}

export interface SessionFile {
  writer: SessionWriter | undefined;
  /** delegate_tasks calls a crash interrupted after some tasks completed: finished before the next prompt. */
  pendingCalls: ToolCall[];
}

export async function openSessionFile(base: SessionBase, options: OpenSessionOptions, needs: SessionFileNeeds): Promise<SessionFile> {
  const writer = options.save === false ? undefined : await createWriter(base, options, needs);
  const { history, resumed } = needs.conversation;
  /** A message seek adds before the first prompt: into history and the session file. */
  const add = (message: Message): void => {
    history.push(message);
    writer?.append({ type: 'message', message });
  };
  const pendingCalls = resumed ? repairResumed(base, needs, add) : [];
  const { started, inWorktree } = needs.start;
  if (writer) {
    if (started) recordMove(writer, started.info);
    recordMoves(needs.workspace, writer);
    needs.orchestration.journalSink.append = (entry) => writer.append(entry);
  }
  if (started) {
    base.board.add('info', started.notice);
    add(started.note);
  }
  if (inWorktree) {
    const restored = await restoreWorkspace(needs.workspace, needs.worktrees, inWorktree);
    base.board.add(restored.notice.level, restored.notice.text);
    if (restored.note) add(restored.note);
  }
  return { writer, pendingCalls };
}

async function createWriter(base: SessionBase, options: OpenSessionOptions, needs: SessionFileNeeds): Promise<SessionWriter> {
  const { home, pid, projectRoot, board } = base;
  // Inside a seek worktree the manifest keeps naming the owner's main tree.
  if (base.project.worktreeId === undefined) await ensureProjectManifest(home, pid, projectRoot);
  if (needs.worktrees) {
    const problems = await needs.worktrees.startupHousekeeping({ maxMs: 2000 });
    for (const text of problems) board.add('warn', text);
  }
  const orphaned = await recoverOrphans(home, pid);
  if (orphaned.length > 0) {
    board.add('info', `${orphaned.length} subagent(s) of a seek process that ended abruptly marked orphaned (see seek subagent list)`);
  }
  const { resumed, id, settings, model, systemPrompt } = needs.conversation;
  if (resumed) return resumeWriter(resumed);
  return SessionWriter.deferred(sessionFile(home, pid, id), {
    id,
    cwd: options.cwd,
    project_root: projectRoot,
    project_id: pid,
    provider: settings.provider,
    model,
    system_prompt: systemPrompt,
    tools_hash: toolsHash(needs.toolSchemas),
    seek_version: SEEK_VERSION,
  });
}

/** An interrupted run left calls without results: answer them so the history is valid again,
 * except delegate_tasks calls with completed tasks on record, which the session finishes. A call
 * made through call_tool is finished as the delegate_tasks call it stands for. */
function repairResumed(base: SessionBase, needs: SessionFileNeeds, add: (message: Message) => void): ToolCall[] {
  const resumed = needs.conversation.resumed!;
  const { journal } = needs.orchestration;
  for (const text of resumed.notices) base.board.add('warn', text); // repairs, a fork
  const unanswered = unansweredBackgroundNotice(needs.conversation.history);
  if (unanswered) base.board.add('info', unanswered);
  const resumable = (call: ToolCall): boolean => unwrapProxyCall(call).name === 'delegate_tasks' && journal.plansOfCall(call.id).length > 0;
  const pendingCalls = resumed.danglingToolCalls.filter(resumable).map(unwrapProxyCall);
  for (const call of pendingCalls) {
    const done = journal.plansOfCall(call.id).reduce((sum, hash) => sum + journal.completed(hash).size, 0);
    base.board.add('info', `the interrupted delegate_tasks call continues before your next prompt (${done} completed task(s) are reused)`);
  }
  for (const result of interruptedToolResults(resumed.danglingToolCalls.filter((call) => !resumable(call)))) add(result);
  return pendingCalls;
}
