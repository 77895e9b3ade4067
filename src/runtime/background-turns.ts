/**
 * A headless prompt with background children: after the model answers, the run waits for the
 * children still running; each result that arrives goes to the model in a run of its own, until
 * none is left. The model's last answer is the run's. When the run ends otherwise (--max-turns,
 * --max-budget-usd, an error, a cancellation), the children still running are stopped, recorded as killed, and
 * listed in the run's summary. Figures cover the whole: every run and every child.
 */
import type { RunSummary } from './events.js';
import type { AgentSession } from './session.js';
import { shortSubSid } from '../subagents/result-format.js';

export async function promptSettled(session: AgentSession, text: string, signal: AbortSignal, notify: (text: string) => void, attached: Parameters<AgentSession['prompt']>[2] = {}): Promise<RunSummary> {
  const mark = session.mark();
  const { background } = session;
  let summary = await session.prompt(text, signal, attached);
  let turns = summary.turns;
  while (summary.reason === 'completed' && !summary.commandFailed && background.pending && !signal.aborted) {
    const running = background.running().length;
    if (running > 0 && background.inbox.size === 0) notify(`waiting for ${running} background subagent(s) before the final answer`);
    if (!(await background.inbox.arrival(signal))) break;
    const overBudget = session.overBudget(); // results not taken stay for the session's close
    if (overBudget) {
      summary = { ...summary, reason: 'max_budget_usd', errorMessage: `stopped: ${overBudget}` };
      break;
    }
    const results = background.inbox.take();
    if (!results) continue;
    summary = await session.prompt(results.content, signal);
    turns += summary.turns;
  }
  if (signal.aborted && summary.reason === 'completed') {
    summary = { ...summary, reason: 'aborted', errorMessage: 'cancelled while waiting for background subagents' };
  }
  const left = background.running();
  if (left.length > 0) {
    notify(`the run ended (${summary.reason}); stopping ${left.length} background subagent(s): ${left.map((child) => shortSubSid(child.subSid)).join(', ')}`);
    await background.stopAll();
  }
  return {
    ...session.summarySince(mark),
    reason: summary.reason,
    finalText: summary.finalText,
    ...(summary.errorMessage ? { errorMessage: summary.errorMessage } : {}),
    ...(summary.commandFailed ? { commandFailed: true } : {}),
    turns,
  };
}
