/**
 * The session's side of background subagents: the `agent` tool that can run children in the
 * background, `agent_status` (on demand), and the delivery of their results to the model: before
 * a prompt, at every request boundary of a run (the loop's `beforeRequest`), and in runs of their
 * own when nothing else runs (a headless run waiting for them, an idle terminal UI).
 */
import type { Tool } from '../agent/types.js';
import type { Message, UserMessage } from '../providers/types.js';
import { BackgroundChildren } from '../subagents/background.js';
import { backgroundStatus } from '../subagents/background-status.js';
import { BACKGROUND_SOURCE } from '../subagents/results-inbox.js';
import type { SpawnParent, SubagentManager } from '../subagents/manager.js';
import type { SubagentEvent } from '../subagents/types.js';
import { createAgentStatusTool } from '../tools/agent-status.js';

export interface BackgroundWiring {
  background: BackgroundChildren;
  /** `agent` (with run_in_background) and `agent_status`. */
  tools: Tool[];
}

export function wireBackground(options: {
  subagents: SubagentManager;
  parent: () => SpawnParent;
  seekHome: string;
  projectId: string;
  sessionId: string;
  notify: (text: string) => void;
  /** False for `--no-save`: no transcripts, so no child can be continued. */
  save: boolean;
}): BackgroundWiring {
  const resume = options.save ? { resume: { seekHome: options.seekHome, projectId: options.projectId, sessionId: options.sessionId } } : {};
  const background = new BackgroundChildren({ manager: options.subagents, notify: options.notify, ...resume });
  const status = createAgentStatusTool((query) => backgroundStatus(query, { background, seekHome: options.seekHome, projectId: options.projectId, sessionId: options.sessionId }));
  return { background, tools: [background.agentTool(options.parent), status] };
}

/** The manager's sink: background children learn their progress, then the session hears it. */
export function observingSink(sink: { emit?: (event: SubagentEvent) => void }, observer: { current?: BackgroundChildren }): { emit: (event: SubagentEvent) => void } {
  return {
    emit: (event) => {
      observer.current?.observe(event);
      sink.emit?.(event);
    },
  };
}

/** The results waiting, as the message to append before the next request (undefined: none). */
export function backgroundResults(background: BackgroundChildren): UserMessage | undefined {
  return background.inbox.take();
}

/** A resumed session whose last entries are background results the model has not answered yet
 * (the parent ended before they were taken): one notice saying so, shown at start. */
export function unansweredBackgroundNotice(history: readonly Message[]): string | undefined {
  let count = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (message.role !== 'user' || !message.content.startsWith(`<context source="${BACKGROUND_SOURCE}">`)) break;
    count += (message.content.match(/^Background subagent /gm) ?? []).length;
  }
  return count > 0 ? `${count} background subagent result(s) from the last run (see /agents or agent_status) go to the model with your next prompt` : undefined;
}
