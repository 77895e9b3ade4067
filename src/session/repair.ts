/**
 * Rebuilding a valid history from a damaged transcript. A skipped line (a corrupt middle line, a
 * torn last line) or two processes that once appended to one file can leave a history that every
 * provider rejects with HTTP 400. `repairHistory` returns one that both wires accept:
 *
 * - every tool call of an assistant message is answered, by results placed before the next
 *   non-tool message; a missing one gets a synthetic error result (`LOST_TOOL_RESULT`). Exception:
 *   the calls of the final assistant message, when only tool results follow it, are left open and
 *   reported by `danglingToolCalls`, so the runtime can finish or answer them (an interrupted run);
 * - a tool result is kept only when it answers a not yet answered call of the nearest preceding
 *   assistant message (OpenAI's rule; Anthropic's "tool_result right after its tool_use" is the
 *   same once results are grouped); any other is dropped as an orphan or a duplicate;
 * - call ids repeated inside one assistant message get a unique suffix (`<id>~2`, `~3`...), and the
 *   n-th result for that id after the message answers the n-th call with it;
 * - the history starts with a user message and no two assistant messages are adjacent
 *   (`LOST_MESSAGE` stands in for the lost user message), so roles alternate as Anthropic wants.
 *
 * Ids repeated across different assistant messages are legal on both wires (results are matched
 * per turn) and are left alone. A well-formed history comes back unchanged, element for element,
 * so a resumed session keeps the provider's prefix cache; the repair is deterministic, so the
 * same damaged file gives the same bytes on every resume.
 */
import type { AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage } from '../providers/types.js';

export const LOST_TOOL_RESULT = '[tool result lost: the session file was damaged]';
export const LOST_MESSAGE = '[message lost: the session file was damaged]';

/** What `repairHistory` changed; all zero for a well-formed history. */
export interface RepairReport {
  /** Synthetic error results for calls whose result was missing. */
  insertedResults: number;
  /** Tool results without a matching open call (orphans, duplicates). */
  droppedResults: number;
  /** Tool calls renamed because their id repeated within one assistant message. */
  renamedCalls: number;
  /** Placeholder user messages inserted to keep roles alternating. */
  insertedMessages: number;
}

export interface RepairedHistory {
  messages: Message[];
  report: RepairReport;
}

/** One assistant message whose calls are being answered. */
interface OpenTurn {
  calls: ToolCall[];
  /** Original id -> the (possibly renamed) ids of the calls that carry it, in call order. */
  byOriginalId: Map<string, string[]>;
  answered: Set<string>;
}

export function repairHistory(input: readonly Message[]): RepairedHistory {
  const report: RepairReport = { insertedResults: 0, droppedResults: 0, renamedCalls: 0, insertedMessages: 0 };
  const out: Message[] = [];
  let open: OpenTurn | undefined;

  const closeOpenTurn = (): void => {
    if (!open) return;
    for (const call of open.calls) {
      if (open.answered.has(call.id)) continue;
      out.push(lostResult(call));
      report.insertedResults += 1;
    }
    open = undefined;
  };

  for (const message of input) {
    if (message.role === 'tool') {
      const answered = open ? answer(open, message) : undefined;
      if (answered) out.push(answered);
      else report.droppedResults += 1;
      continue;
    }
    closeOpenTurn();
    if (message.role === 'user') {
      out.push(message);
      continue;
    }
    const previous = out.at(-1);
    if (previous === undefined || previous.role === 'assistant') {
      out.push(lostMessage());
      report.insertedMessages += 1;
    }
    const { message: unique, renamed } = withUniqueCallIds(message);
    report.renamedCalls += renamed;
    out.push(unique);
    if (unique.toolCalls.length > 0) open = openTurn(message, unique);
  }
  // The final assistant's calls stay open on purpose: see `danglingToolCalls`.
  return { messages: out, report };
}

/** Whether the report records any change. */
export function changed(report: RepairReport): boolean {
  return report.insertedResults + report.droppedResults + report.renamedCalls + report.insertedMessages > 0;
}

/** One line for the user, e.g. "2 lost tool results marked, 1 orphan tool result dropped". */
export function describeRepairs(report: RepairReport): string {
  const parts: string[] = [];
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (report.insertedResults > 0) parts.push(`${plural(report.insertedResults, 'lost tool result')} marked`);
  if (report.droppedResults > 0) parts.push(`${plural(report.droppedResults, 'orphan tool result')} dropped`);
  if (report.renamedCalls > 0) parts.push(`${plural(report.renamedCalls, 'duplicate tool call id')} renamed`);
  if (report.insertedMessages > 0) parts.push(`${plural(report.insertedMessages, 'lost message')} marked`);
  return parts.join(', ');
}

function openTurn(original: AssistantMessage, unique: AssistantMessage): OpenTurn {
  const byOriginalId = new Map<string, string[]>();
  original.toolCalls.forEach((call, i) => {
    const ids = byOriginalId.get(call.id) ?? [];
    ids.push(unique.toolCalls[i]!.id);
    byOriginalId.set(call.id, ids);
  });
  return { calls: unique.toolCalls, byOriginalId, answered: new Set() };
}

/** The result as it answers `turn` (its id renamed when its call was), or undefined when it
 * answers nothing open. */
function answer(turn: OpenTurn, result: ToolResultMessage): ToolResultMessage | undefined {
  const target = turn.byOriginalId.get(result.toolCallId)?.find((id) => !turn.answered.has(id));
  if (target === undefined) return undefined;
  turn.answered.add(target);
  return target === result.toolCallId ? result : { ...result, toolCallId: target };
}

/** Renames the second and later occurrences of an id within one message: `<id>~2`, `<id>~3`...
 * (skipping any name already taken). Returns the message itself when every id is unique. */
function withUniqueCallIds(message: AssistantMessage): { message: AssistantMessage; renamed: number } {
  const taken = new Set(message.toolCalls.map((call) => call.id));
  if (taken.size === message.toolCalls.length) return { message, renamed: 0 };
  const seen = new Set<string>();
  let renamed = 0;
  const toolCalls = message.toolCalls.map((call) => {
    if (!seen.has(call.id)) {
      seen.add(call.id);
      return call;
    }
    let n = 2;
    while (taken.has(`${call.id}~${n}`)) n += 1;
    const id = `${call.id}~${n}`;
    taken.add(id);
    renamed += 1;
    return { ...call, id };
  });
  return { message: { ...message, toolCalls }, renamed };
}

function lostResult(call: ToolCall): ToolResultMessage {
  return { role: 'tool', toolCallId: call.id, toolName: call.name, content: LOST_TOOL_RESULT, isError: true };
}

function lostMessage(): UserMessage {
  return { role: 'user', content: LOST_MESSAGE };
}
