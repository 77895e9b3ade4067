/**
 * Distill (S -> M, seek-spec 5.4): one flash-model call reads a session and proposes at most three
 * project decisions worth keeping. It only proposes: the user reviews each (save, drop, edit) and
 * nothing is saved without them. An answer that cannot be read is an error, never a guess.
 */
import type { Message, StreamFn } from '../providers/types.js';
import { isInjectedContext } from '../session/context.js';
import { cleanInput, EntryInputError, type EntryInput, type MemoryEntry } from './entry.js';
import { extractJsonArray } from './json-answer.js';
import { oneLine } from './observer.js';
import { sideCall, type SideCallResult } from './side-call.js';

export const MAX_CANDIDATES = 3;
/** The transcript's tail kept for the call (the end of a long session holds its conclusions). */
const TRANSCRIPT_CHARS = 60_000;
const TOOL_RESULT_CHARS = 800;
const TOOL_CALL_CHARS = 200;

export const DISTILL_SYSTEM_PROMPT = [
  "You extract durable project decisions from a coding session, for the project's long-term memory that future sessions read.",
  'Keep only decisions, conventions and constraints that will still hold in later sessions, with their reasons: what was decided, why, which alternatives were rejected, what constrains it.',
  'Reject: user preferences (they belong to the user profile), facts only true during this session (progress, errors that were fixed), generic programming knowledge, and decisions the session later reverted.',
  'Each candidate: "name" kebab-case, at most 40 characters; "tagline" one specific sentence; "content" at most 500 words; "tags" optional, the first one groups it.',
  'Do not repeat an existing entry; if a decision replaces one, say so in the content.',
  'Answer with a JSON array only (at most 3 objects), [] when there is nothing worth keeping.',
].join('\n');

export class DistillError extends Error {
  override readonly name = 'DistillError';
}

export interface DistillResult {
  candidates: EntryInput[];
  /** Proposals that were not usable entries, with why (shown to the user, not saved). */
  rejected: Array<{ name: string; problem: string }>;
  call: SideCallResult;
}

export async function distill(options: {
  stream: StreamFn;
  model: string;
  messages: readonly Message[];
  existing: readonly MemoryEntry[];
  signal?: AbortSignal;
  timeoutMs?: number;
}): Promise<DistillResult> {
  const transcript = renderTranscript(options.messages);
  if (!transcript.trim()) throw new DistillError('the session has no conversation to distill');
  const call = await sideCall({
    stream: options.stream,
    model: options.model,
    system: DISTILL_SYSTEM_PROMPT,
    prompt: distillPrompt(transcript, options.existing),
    ...(options.signal ? { signal: options.signal } : {}),
    timeoutMs: options.timeoutMs ?? 120_000,
    what: 'distill',
  }).catch((error: unknown) => {
    throw new DistillError((error as Error).message);
  });
  return { ...parseCandidates(call.text), call };
}

/** The answer as at most three valid entries, plus what was wrong with the others. Throws
 * DistillError when the answer holds no JSON list. */
export function parseCandidates(text: string): { candidates: EntryInput[]; rejected: DistillResult['rejected'] } {
  const items = extractJsonArray(text);
  if (!items) throw new DistillError(`the model's answer was not a JSON list of candidates; nothing to review. It began: ${oneLine(text, 160)}`);
  const candidates: EntryInput[] = [];
  const rejected: DistillResult['rejected'] = [];
  for (const item of items) {
    const record = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const name = typeof record.name === 'string' ? record.name : '(unnamed)';
    try {
      const input = cleanInput({
        name,
        tagline: typeof record.tagline === 'string' ? record.tagline : '',
        content: typeof record.content === 'string' ? record.content : '',
        ...(Array.isArray(record.tags) ? { tags: record.tags.filter((tag): tag is string => typeof tag === 'string') } : {}),
      });
      if (candidates.some((candidate) => candidate.name === input.name)) continue;
      if (candidates.length < MAX_CANDIDATES) candidates.push(input);
    } catch (error) {
      if (!(error instanceof EntryInputError)) throw error;
      rejected.push({ name, problem: error.message });
    }
  }
  return { candidates, rejected };
}

export function distillPrompt(transcript: string, existing: readonly MemoryEntry[]): string {
  const known = existing.length > 0 ? `Existing entries (do not repeat them):\n${existing.map((entry) => `- ${entry.name}: ${entry.tagline}`).join('\n')}\n\n` : '';
  return `${known}Extract up to ${MAX_CANDIDATES} candidates from this session.\n\n=== conversation ===\n${transcript}\n=== end conversation ===`;
}

/** `role: content` lines; tool calls and results shortened; memory's own context left out. */
export function renderTranscript(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      if (!isInjectedContext(message)) lines.push(`user: ${stripReminders(message.content)}`);
    } else if (message.role === 'assistant') {
      if (message.content.trim()) lines.push(`assistant: ${message.content.trim()}`);
      for (const call of message.toolCalls) lines.push(`  [tool call: ${call.name}(${oneLine(call.arguments, TOOL_CALL_CHARS)})]`);
    } else {
      lines.push(`[tool result ${message.toolCallId}]: ${oneLine(message.content, TOOL_RESULT_CHARS)}`);
    }
  }
  const text = lines.join('\n');
  return text.length > TRANSCRIPT_CHARS ? `(earlier part left out)\n${text.slice(-TRANSCRIPT_CHARS)}` : text;
}

function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
}
