import type { ToolCall } from '../providers/types.js';

/**
 * Stops a model that is stuck: the same tool call (name and arguments, byte for byte) made
 * `limit` times in a row, across turns, ends the run. Any different call resets the count.
 */
export class RepeatedCallGuard {
  private lastSignature = '';
  private count = 0;

  constructor(private readonly limit: number) {}

  /** Returns a message explaining the stop when the limit is reached, else undefined. */
  observe(calls: readonly ToolCall[]): string | undefined {
    for (const call of calls) {
      const signature = `${call.name}\u0000${normaliseArguments(call.arguments)}`;
      this.count = signature === this.lastSignature ? this.count + 1 : 1;
      this.lastSignature = signature;
      if (this.count >= this.limit) {
        return `the same ${call.name} call was repeated ${this.count} times in a row, so the run was stopped to avoid a loop. Try a different approach.`;
      }
    }
    return undefined;
  }
}

/** Whitespace differences in JSON do not make a call different. */
function normaliseArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw));
  } catch {
    return raw.trim();
  }
}
