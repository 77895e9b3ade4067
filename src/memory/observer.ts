/**
 * memory_observe's background half (seek-spec 5.3): the tool returns at once, and a check by the
 * flash model decides later whether the observation is saved. Checks run one at a time, in order,
 * so two observations of the same decision are judged against each other. Every outcome is told
 * to the user (a notice) and logged to `observations.jsonl`: nothing is saved or dropped silently.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { observationsLogFile } from '../config/paths.js';
import { cleanInput, type EntryInput, type MemoryEntry } from './entry.js';
import { extractJson } from './json-answer.js';
import { rememberEntry } from './operations.js';
import { sideCall, type SideCallResult } from './side-call.js';
import type { MemoryStore } from './store.js';
import type { StreamFn } from '../providers/types.js';

/** How many existing entries the judge sees (the most similar first). */
const JUDGE_CONTEXT_ENTRIES = 150;
const JUDGE_CONTENT_CHARS = 300;

export const JUDGE_SYSTEM_PROMPT = [
  "You review candidate entries for a software project's long-term memory, which a coding agent reads at the start of every future session in this repository.",
  'ACCEPT an entry only when it records a durable project decision, convention or constraint (with its reason) that a future session would need and could not cheaply rediscover from the code.',
  'REJECT it when it is:',
  '- a duplicate or near-duplicate of an existing entry (the same decision in other words);',
  '- vague: no concrete decision, rule, path, command or constraint;',
  "- temporary: progress on the current task, today's errors, anything true only for this session;",
  "- a personal preference of the user (how they like answers, their coding taste): that belongs to the user's profile, not to project memory;",
  '- generic programming knowledge.',
  'Answer with JSON only: {"decision": "ACCEPT" or "REJECT", "reason": "<one short sentence>"}',
].join('\n');

export interface ObserverOptions {
  store: MemoryStore;
  stream: StreamFn;
  model: string;
  sessionId: string;
  maxObservations: number;
  timeoutMs: number;
  /** The check's tokens and cost go on the session's bill. */
  bill(result: SideCallResult): void;
  notify(level: 'info' | 'warn', text: string): void;
}

export type ObserveReply = { queued: true; text: string } | { queued: false; text: string };

type Outcome = 'accepted' | 'rejected' | 'failed';

export class Observer {
  private submitted = 0;
  private readonly inFlight = new Set<string>();
  private tail: Promise<void> = Promise.resolve();
  private readonly controller = new AbortController();

  constructor(private readonly options: ObserverOptions) {}

  /** Observations still waiting for their check. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Queues an observation. Throws EntryInputError for a bad input (the tool reports it). */
  async submit(raw: EntryInput): Promise<ObserveReply> {
    const input = cleanInput(raw);
    const max = this.options.maxObservations;
    if (this.submitted >= max) {
      return { queued: false, text: `memory_observe: the limit of ${max} observations per session is reached; "${input.name}" was not recorded. Use memory_remember (the user confirms it) for anything that must be kept.` };
    }
    if (this.inFlight.has(input.name)) {
      return { queued: false, text: `memory_observe: "${input.name}" is already being checked; this call was dropped.` };
    }
    const existing = (await this.options.store.load()).entries.find((entry) => entry.name === input.name);
    if (existing && !existing.auto_sourced) {
      return { queued: false, text: `memory_observe: "${input.name}" is an entry the user confirmed; observations cannot replace it. Use memory_amend to add to it, or memory_remember to replace it (the user is asked).` };
    }
    this.submitted += 1;
    this.inFlight.add(input.name);
    this.tail = this.tail.then(() => this.check(input)).finally(() => this.inFlight.delete(input.name));
    return {
      queued: true,
      text: `observation "${input.name}" queued: a background check decides whether it is saved to project memory, and the user is told the outcome. Do not repeat it.`,
    };
  }

  /**
   * Waits for the queued checks, at most `timeoutMs`; checks still running then are cancelled
   * (and reported as dropped). Headless runs call this before they exit.
   */
  async drain(timeoutMs = this.options.timeoutMs): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), timeoutMs);
    });
    const outcome = await Promise.race([this.tail.then(() => 'done' as const), expired]);
    clearTimeout(timer);
    if (outcome === 'expired') {
      this.controller.abort();
      await this.tail;
    }
  }

  /** Cancels every check (session closing without waiting). */
  cancel(): void {
    this.controller.abort();
  }

  private async check(input: EntryInput): Promise<void> {
    const label = `observation "${input.name}"`;
    if (this.controller.signal.aborted) {
      await this.finish(input, 'failed', 'the session ended before it was checked');
      return;
    }
    try {
      const entries = (await this.options.store.load()).entries;
      const result = await sideCall({
        stream: this.options.stream,
        model: this.options.model,
        system: JUDGE_SYSTEM_PROMPT,
        prompt: judgePrompt(input, entries),
        signal: this.controller.signal,
        timeoutMs: this.options.timeoutMs,
        what: `the check of ${label}`,
      });
      this.options.bill(result);
      const verdict = parseVerdict(result.text);
      if (!verdict) {
        await this.finish(input, 'failed', `the check's answer was not {"decision": "ACCEPT"|"REJECT", ...}: ${oneLine(result.text, 160)}`);
        return;
      }
      if (verdict.decision === 'REJECT') {
        await this.finish(input, 'rejected', verdict.reason);
        return;
      }
      // The user may have confirmed an entry of that name while the check ran.
      const now = (await this.options.store.load()).entries.find((entry) => entry.name === input.name);
      if (now && !now.auto_sourced) {
        await this.finish(input, 'rejected', 'the user confirmed an entry of that name meanwhile');
        return;
      }
      await rememberEntry(this.options.store, input, { autoSourced: true, sessionId: this.options.sessionId });
      await this.finish(input, 'accepted', verdict.reason);
    } catch (error) {
      await this.finish(input, 'failed', (error as Error).message);
    }
  }

  private async finish(input: EntryInput, outcome: Outcome, reason: string): Promise<void> {
    const text =
      outcome === 'accepted'
        ? `memory: saved observation "${input.name}" — ${input.tagline} (unconfirmed; seek memory archive ${input.name} drops it)`
        : outcome === 'rejected'
          ? `memory: observation "${input.name}" not saved — ${reason}`
          : `memory: observation "${input.name}" dropped — ${reason}`;
    this.options.notify(outcome === 'failed' ? 'warn' : 'info', text);
    const line = { ts: new Date().toISOString(), session_id: this.options.sessionId, name: input.name, tagline: input.tagline, outcome, reason };
    const file = observationsLogFile(this.options.store.seekHome, this.options.store.projectId);
    try {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, `${JSON.stringify(line)}\n`, 'utf8');
    } catch (error) {
      this.options.notify('warn', `memory: could not log the observation to ${file}: ${(error as Error).message}`);
    }
  }
}

export function parseVerdict(text: string): { decision: 'ACCEPT' | 'REJECT'; reason: string } | undefined {
  const value = extractJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const decision = typeof record.decision === 'string' ? record.decision.trim().toUpperCase() : '';
  if (decision !== 'ACCEPT' && decision !== 'REJECT') return undefined;
  const reason = typeof record.reason === 'string' && record.reason.trim() ? oneLine(record.reason, 300) : decision === 'ACCEPT' ? 'accepted' : 'rejected';
  return { decision, reason };
}

export function judgePrompt(input: EntryInput, entries: readonly MemoryEntry[]): string {
  const words = wordSet(`${input.name} ${input.tagline} ${input.content}`);
  const ranked = [...entries]
    .map((entry) => ({ entry, overlap: overlap(words, wordSet(`${entry.name} ${entry.tagline} ${entry.content}`)) }))
    .sort((a, b) => b.overlap - a.overlap)
    .slice(0, JUDGE_CONTEXT_ENTRIES)
    .map(({ entry }) => `- ${entry.name}: ${entry.tagline}\n  ${oneLine(entry.content, JUDGE_CONTENT_CHARS)}`);
  return [
    ranked.length > 0 ? `Existing entries (most similar first):\n${ranked.join('\n')}` : 'Existing entries: none yet.',
    '',
    'Candidate:',
    `- name: ${input.name}`,
    `- tagline: ${input.tagline}`,
    ...(input.tags ? [`- tags: ${input.tags.join(', ')}`] : []),
    `- content: ${input.content}`,
  ].join('\n');
}

function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
}

function overlap(a: Set<string>, b: Set<string>): number {
  let count = 0;
  for (const word of a) if (b.has(word)) count += 1;
  return count;
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
