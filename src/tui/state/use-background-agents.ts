import { useLatestInput } from '../input/use-latest-input.js';
import { useEffect, useState } from 'react';
import type { AgentSession } from '../../runtime/session.js';

export interface BackgroundAgentsHook {
  session: AgentSession;
  /** Nothing runs, nothing is queued, no question is open: a result may start a turn. */
  idle: boolean;
  /** Runs a turn with this text as the prompt (the App's own `send`). */
  send: (text: string) => Promise<void>;
  notice: (text: string) => void;
}

/**
 * Background subagents in the terminal UI. A result that arrives while the session is idle starts
 * a turn to take it (said in the transcript); a busy session takes it at its next request
 * boundary (the session does that). Ctrl+B moves the running foreground child (else the running
 * foreground bash command, which becomes a background job) to the background
 * (the editor also takes Ctrl+B as ←, which is harmless while a turn runs).
 */
export function useBackgroundAgents({ session, idle, send, notice }: BackgroundAgentsHook): void {
  const [version, setVersion] = useState(0);
  // Absent in sessions that cannot run children (test doubles of the session); nothing to do then.
  const background = session.background as AgentSession['background'] | undefined;
  useEffect(() => background?.subscribe(() => setVersion((v) => v + 1)), [background]);
  useEffect(() => {
    if (!idle || !background || background.inbox.size === 0) return;
    const results = background.inbox.take();
    if (!results) return;
    notice('a background subagent ended: seek takes its result now');
    void send(results.content);
  }, [idle, version, background, send, notice]);
  useLatestInput((input, key) => {
    if (!key.ctrl || input !== 'b' || !background) return;
    if (background.hasForeground) {
      const moved = background.detachForeground();
      if (moved) notice(`moved "${moved}" to the background; /agents shows it, its result comes back by itself`);
      return;
    }
    const command = background.commands.size > 0 ? background.commands.detachNewest() : undefined;
    if (command) notice(`moved the command "${oneLine(command)}" to the background; it keeps running, its output goes to its job's log`);
  });
}

function oneLine(command: string): string {
  const line = command.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
