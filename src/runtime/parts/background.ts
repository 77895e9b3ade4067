/**
 * Background children's piece of a session (runtime/background-agents.ts does the work): the
 * session's `agent` tool with run_in_background, agent_status, and the results waiting for the
 * model. The subagent manager's events are observed from its creation on (`observer`), the
 * children themselves only exist once the session is the parent (`startBackground`).
 */
import type { BackgroundChildren } from '../../subagents/background.js';
import type { SpawnParent, SubagentManager } from '../../subagents/manager.js';
import { observingSink, wireBackground, type BackgroundWiring } from '../background-agents.js';
import type { PreparedSession } from '../session-types.js';
import type { SessionBase } from './base.js';
import type { Conversation } from './conversation.js';

export interface BackgroundObserver {
  observer: { current?: BackgroundChildren };
  /** The subagent manager's sink: the session's, seen by the background children first. */
  sink: PreparedSession['subagentSink'];
}

export function observeBackground(subagentSink: PreparedSession['subagentSink']): BackgroundObserver {
  const observer: { current?: BackgroundChildren } = {};
  return { observer, sink: observingSink(subagentSink, observer) };
}

export function startBackground(base: SessionBase, conversation: Conversation, subagents: SubagentManager, parent: () => SpawnParent, watch: BackgroundObserver, save = true): BackgroundWiring {
  const wiring = wireBackground({ subagents, parent, seekHome: base.home, projectId: base.pid, sessionId: conversation.id, notify: base.board.info, save });
  watch.observer.current = wiring.background;
  return wiring;
}
