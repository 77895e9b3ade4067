/**
 * Dream (M -> L, seek-spec 5.5): one flash-model call reads every project's memory and the newest
 * sessions and proposes traits of the *user* (how they work, what they expect), each citing the
 * sources it rests on. Traits with evidence from at least two distinct sources join `## Pending`
 * (merged with similar ones), Pending traits confirmed long enough are promoted to `## Stable`, and
 * unconfirmed ones expire. `seek -dream` previews; `--write` saves. Nothing is written from an
 * answer that cannot be read.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../config/atomic-file.js';
import { soulFile } from '../config/paths.js';
import type { StreamFn } from '../providers/types.js';
import { capPending, distinctSources, evaluatePending, mergeIntoPending, sortPending, type MergeItem, type ProposedTrait } from './dream-merge.js';
import { gatherDreamInputs, type DreamInputs } from './dream-inputs.js';
import { extractJsonArray } from './json-answer.js';
import { oneLine } from './observer.js';
import { sideCall, type SideCallResult } from './side-call.js';
import { parseSoul, updateSoulText, type SoulTrait } from './soul.js';

export const DREAM_TIMEOUT_MS = 3 * 60_000;

export const DREAM_SYSTEM_PROMPT = [
  'You study how one software developer works, from the memory of their projects and their recent sessions with a coding agent, and propose durable traits of the USER that every future session should know.',
  'A trait is about the person: how they like work done, what they always ask for, conventions they carry from project to project (for example "prefers small commits with tests first", "wants answers in Chinese", "uses pnpm, never npm").',
  'Do NOT propose facts about a single project (its architecture, its decisions), one-off requests, or anything seen only once.',
  'Every trait must cite the source labels it rests on, exactly as given (project:… and session:… labels); cite only sources that really show it.',
  'Answer with a JSON array only: [{"trait": "<one short sentence>", "why": "<the evidence in one sentence>", "sources": ["<label>", ...]}]. Return [] when nothing qualifies.',
].join('\n');

export class DreamError extends Error {
  override readonly name = 'DreamError';
}

export interface DreamPreview {
  /** soul.md as read when the dream started ('' when missing): `writeDream` refuses if it changed. */
  before: string;
  /** soul.md as it would be written. */
  after: string;
  proposals: ProposedTrait[];
  merge: MergeItem[];
  promoted: SoulTrait[];
  expired: SoulTrait[];
  /** Pending traits cut by the 2,000-token cap. */
  dropped: SoulTrait[];
  /** Sources the model cited that are not in the inputs (ignored as evidence). */
  unknownSources: string[];
  inputs: { projects: number; entries: number; sessions: number };
  call?: SideCallResult;
}

export interface DreamOptions {
  seekHome: string;
  stream: StreamFn;
  model: string;
  now?: Date;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Runs the dream and returns what it would change; writes nothing. Throws DreamError. */
export async function dream(options: DreamOptions): Promise<DreamPreview> {
  const now = options.now ?? new Date();
  const inputs = await gatherDreamInputs(options.seekHome);
  const before = await readFile(soulFile(options.seekHome), 'utf8').catch(() => '');
  const soul = parseSoul(before);
  const counts = { projects: inputs.projects.length, entries: inputs.projects.reduce((sum, p) => sum + p.entries.length, 0), sessions: inputs.sessions.length };

  let proposals: ProposedTrait[] = [];
  let unknownSources: string[] = [];
  let call: SideCallResult | undefined;
  if (counts.entries > 0 || counts.sessions > 0) {
    call = await sideCall({
      stream: options.stream,
      model: options.model,
      system: DREAM_SYSTEM_PROMPT,
      prompt: dreamPrompt(inputs),
      ...(options.signal ? { signal: options.signal } : {}),
      timeoutMs: options.timeoutMs ?? DREAM_TIMEOUT_MS,
      what: 'the dream',
    }).catch((error: unknown) => {
      throw new DreamError((error as Error).message);
    });
    const parsed = parseProposals(call.text, inputs.labels);
    proposals = parsed.proposals;
    unknownSources = parsed.unknown;
  }

  const today = now.toISOString().slice(0, 10);
  const merged = mergeIntoPending(soul.pending.traits, soul.stable.traits, proposals, today);
  const evaluation = evaluatePending(merged.pending, now);
  const capped = capPending(sortPending(evaluation.keep));
  const after = updateSoulText(before, { pending: capped.kept, promote: evaluation.promote, now });
  return {
    before,
    after,
    proposals,
    merge: merged.items,
    promoted: evaluation.promote,
    expired: evaluation.expire,
    dropped: capped.dropped,
    unknownSources,
    inputs: counts,
    ...(call ? { call } : {}),
  };
}

/** Saves a preview's soul.md, unless the file changed since the dream read it. */
export async function writeDream(seekHome: string, preview: DreamPreview): Promise<void> {
  const current = await readFile(soulFile(seekHome), 'utf8').catch(() => '');
  if (current !== preview.before) throw new DreamError(`${soulFile(seekHome)} changed while dreaming; nothing was written (run the dream again)`);
  await writeFileAtomic(soulFile(seekHome), preview.after);
}

/** The answer as proposals; sources not among the inputs' labels are dropped (a made-up source is
 * no evidence). Throws DreamError when the answer is not a JSON list. */
export function parseProposals(text: string, labels: ReadonlySet<string>): { proposals: ProposedTrait[]; unknown: string[] } {
  const items = extractJsonArray(text);
  if (!items) throw new DreamError(`the model's answer was not a JSON list of traits; nothing was changed. It began: ${oneLine(text, 160)}`);
  const proposals: ProposedTrait[] = [];
  const unknown = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const trait = typeof record.trait === 'string' ? oneLine(record.trait, 200) : '';
    if (!trait) continue;
    const cited = Array.isArray(record.sources) ? record.sources.filter((s): s is string => typeof s === 'string') : [];
    const sources = distinctSources(cited).filter((source) => {
      if (labels.has(source)) return true;
      unknown.add(source);
      return false;
    });
    proposals.push({ trait, why: typeof record.why === 'string' ? oneLine(record.why, 300) : '', sources });
  }
  return { proposals, unknown: [...unknown].sort() };
}

export function dreamPrompt(inputs: DreamInputs): string {
  const lines = ['=== project memories ==='];
  for (const project of inputs.projects) {
    if (project.entries.length === 0) continue;
    lines.push(`[${project.label}]`);
    for (const entry of project.entries) lines.push(`- ${entry.name}: ${entry.tagline} — ${entry.content}`);
  }
  lines.push('', '=== recent sessions ===');
  for (const session of inputs.sessions) {
    lines.push(`[${session.label}] (${session.project})`);
    for (const message of session.messages) lines.push(`${message.role}: ${message.text}`);
  }
  lines.push('=== end ===', '', 'Propose the user traits these show, citing their labels.');
  return lines.join('\n');
}

/** What a preview changes, for people: one line per trait. */
export function describeDream(preview: DreamPreview): string[] {
  const { inputs } = preview;
  const lines = [`read ${inputs.entries} memory entries from ${inputs.projects} project(s) and ${inputs.sessions} recent session(s); ${preview.proposals.length} trait(s) proposed`];
  for (const item of preview.merge) {
    const sources = item.trait.sources.join(', ') || 'none';
    if (item.kind === 'new') lines.push(`  + pending: ${item.trait.trait}  [${sources}]`);
    else if (item.kind === 'merged') lines.push(`  ~ confirms pending "${item.into}"${item.addedSources.length ? ` (+${item.addedSources.join(', ')})` : ''}`);
    else if (item.kind === 'stable') lines.push(`  = already stable: ${item.matches}`);
    else lines.push(`  - not enough evidence (${item.reason}): ${item.trait.trait}  [${sources}]`);
  }
  for (const trait of preview.promoted) lines.push(`  ↑ promoted to stable: ${trait.trait}`);
  for (const trait of preview.expired) lines.push(`  × expired (not confirmed for 30 days): ${trait.trait}`);
  for (const trait of preview.dropped) lines.push(`  × cut (pending is over its 2,000-token cap): ${trait.trait}`);
  if (preview.unknownSources.length > 0) lines.push(`  (ignored sources that are not in the inputs: ${preview.unknownSources.join(', ')})`);
  if (preview.before === preview.after) lines.push('soul.md would not change');
  return lines;
}
