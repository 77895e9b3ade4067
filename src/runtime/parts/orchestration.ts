/** Orchestration's piece of a session: delegate_tasks plans, their journal in the session file
 * (a resumed session reuses the tasks it completed), and the review before a plan runs. */
import { SessionJournal, type JournalSink } from '../../orchestrator/journal.js';
import type { SpawnParent, SubagentManager } from '../../subagents/manager.js';
import type { PermissionPolicy } from '../../policy/policy.js';
import type { WorktreeManager } from '../../worktree/manager.js';
import { Orchestration } from '../orchestration.js';
import type { OpenSessionOptions, PreparedSession } from '../session-types.js';
import type { Conversation } from './conversation.js';

export interface OrchestrationPart {
  orchestration: Orchestration;
  journal: SessionJournal;
  /** Where journal entries go; connected to the session file once it is open. */
  journalSink: JournalSink;
  sink: PreparedSession['orchestrationSink'];
}

export interface OrchestrationNeeds {
  subagents: SubagentManager;
  worktrees: WorktreeManager | undefined;
  parent: () => SpawnParent;
  conversation: Conversation;
  policy: PermissionPolicy;
}

export function createOrchestration(options: OpenSessionOptions, needs: OrchestrationNeeds): OrchestrationPart {
  const journalSink: JournalSink = {};
  const resumed = needs.conversation.resumed;
  const journal = new SessionJournal(resumed ? resumed.entries.map(({ entry }) => entry) : [], journalSink);
  const sink: PreparedSession['orchestrationSink'] = {};
  const orchestration = new Orchestration({
    subagents: needs.subagents,
    ...(needs.worktrees ? { worktrees: needs.worktrees } : {}),
    parent: needs.parent,
    journal,
    sink,
    ...(options.reviewPlan ? { reviewPlan: options.reviewPlan } : {}),
    shouldReview: () => needs.policy.mode === 'ask',
    ...(options.dispatch ? { dispatch: options.dispatch } : {}),
  });
  return { orchestration, journal, journalSink, sink };
}
