/**
 * Results of background children waiting for the parent's model. Each is delivered once: as a
 * user-role context message appended at a request boundary (the session's `beforeRequest`, or
 * before a prompt), or through `agent_status` when the model asks first. History only ever grows,
 * so the provider's prefix cache keeps hitting.
 */
import type { UserMessage } from '../providers/types.js';
import { injectedContext } from '../session/context.js';
import { shortSubSid } from './result-format.js';

export const BACKGROUND_SOURCE = 'background-agents';

export interface InboxEntry {
  subSid: string;
  description: string;
  /** The `agent` tool's result, as a foreground call would have returned it. */
  content: string;
}

export class ResultsInbox {
  private readonly waiting: InboxEntry[] = [];
  private readonly waiters = new Set<() => void>();

  get size(): number {
    return this.waiting.length;
  }

  push(entry: InboxEntry): void {
    this.waiting.push(entry);
    for (const wake of [...this.waiters]) wake();
  }

  /** Every waiting result as one message (undefined when none waits); they count as delivered. */
  take(): UserMessage | undefined {
    if (this.waiting.length === 0) return undefined;
    return backgroundMessage(this.waiting.splice(0));
  }

  /** Removes `subSid`'s result (the model got it through agent_status). */
  drop(subSid: string): void {
    const at = this.waiting.findIndex((entry) => entry.subSid === subSid);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  /** Resolves when a result waits (at once if one does), or false when `signal` aborts first. */
  async arrival(signal: AbortSignal): Promise<boolean> {
    if (this.waiting.length > 0) return true;
    if (signal.aborted) return false;
    return new Promise((resolve) => {
      const done = (value: boolean): void => {
        this.waiters.delete(wake);
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const wake = (): void => done(true);
      const onAbort = (): void => done(false);
      this.waiters.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** The message the model sees: one section per ended child, its contract result verbatim. */
export function backgroundMessage(entries: readonly InboxEntry[]): UserMessage {
  const sections = entries.map((entry) => `Background subagent ${shortSubSid(entry.subSid)} ("${entry.description}") ended:\n${entry.content}`);
  return injectedContext(BACKGROUND_SOURCE, `\n${sections.join('\n\n')}\n`);
}
