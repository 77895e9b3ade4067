/**
 * How dreamed traits join the profile (seek-spec 5.5), as pure functions: evidence filter,
 * similarity merge into Pending, the Pending cap, and promotion or expiry of Pending traits.
 */
import { distance } from 'fastest-levenshtein';
import { renderTrait, type SoulTrait } from './soul.js';
import { estimateTokens } from './tokens.js';

export const SAME_TRAIT_SIMILARITY = 0.55;
export const MIN_EVIDENCE_SOURCES = 2;
export const PENDING_TOKEN_CAP = 2000;
/** Pending traits not confirmed for this long are dropped. */
export const PENDING_EXPIRY_DAYS = 30;
/** A Pending trait becomes Stable with this many non-session sources, first seen this long ago. */
export const PROMOTE_MIN_SOURCES = 3;
export const PROMOTE_MIN_AGE_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A trait the model proposed, with the sources it cited. */
export interface ProposedTrait {
  trait: string;
  why: string;
  sources: string[];
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Word Jaccard when both texts have at least two words, else the Levenshtein ratio. 0..1. */
export function similarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.length >= 2 && wb.length >= 2) {
    const sa = new Set(wa);
    const sb = new Set(wb);
    let shared = 0;
    for (const word of sa) if (sb.has(word)) shared += 1;
    return shared / (sa.size + sb.size - shared);
  }
  const x = a.trim().toLowerCase();
  const y = b.trim().toLowerCase();
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - distance(x, y) / longest;
}

/** Distinct sources, trimmed and lowercased. */
export function distinctSources(sources: readonly string[]): string[] {
  return [...new Set(sources.map((source) => source.trim().toLowerCase()).filter(Boolean))].sort();
}

export type MergeItem =
  | { kind: 'new'; trait: ProposedTrait }
  | { kind: 'merged'; trait: ProposedTrait; into: string; addedSources: string[] }
  | { kind: 'stable'; trait: ProposedTrait; matches: string }
  | { kind: 'weak'; trait: ProposedTrait; reason: string };

/**
 * Merges proposals into Pending: a proposal with fewer than two distinct sources is left out
 * ("weak"); one similar to a Stable trait is already known; one similar to a Pending trait adds
 * its sources and reason to it (the old wording stays) and confirms it today; others are new.
 */
export function mergeIntoPending(
  pending: readonly SoulTrait[],
  stable: readonly SoulTrait[],
  proposals: readonly ProposedTrait[],
  today: string,
): { pending: SoulTrait[]; items: MergeItem[] } {
  const next = pending.map((trait) => ({ ...trait, sources: [...trait.sources], extra: [...trait.extra] }));
  const items: MergeItem[] = [];
  for (const proposal of proposals) {
    const sources = distinctSources(proposal.sources);
    const trait = { ...proposal, sources };
    if (sources.length < MIN_EVIDENCE_SOURCES) {
      items.push({ kind: 'weak', trait, reason: sources.length === 0 ? 'no known source' : 'only one source' });
      continue;
    }
    const known = stable.find((candidate) => similarity(candidate.trait, trait.trait) >= SAME_TRAIT_SIMILARITY);
    if (known) {
      items.push({ kind: 'stable', trait, matches: known.trait });
      continue;
    }
    const same = next.find((candidate) => similarity(candidate.trait, trait.trait) >= SAME_TRAIT_SIMILARITY);
    if (same) {
      const added = sources.filter((source) => !same.sources.includes(source));
      same.sources = distinctSources([...same.sources, ...sources]);
      if (trait.why && !same.why.includes(trait.why)) same.why = same.why ? `${same.why}; ${trait.why}` : trait.why;
      same.lastConfirmed = today;
      same.firstSeen ??= today;
      items.push({ kind: 'merged', trait, into: same.trait, addedSources: added });
      continue;
    }
    next.push({ trait: trait.trait, why: trait.why, sources, firstSeen: today, lastConfirmed: today, extra: [] });
    items.push({ kind: 'new', trait });
  }
  return { pending: sortPending(next), items };
}

/** Most sources first, then the longer (more specific) wording, then alphabetical. */
export function sortPending(traits: readonly SoulTrait[]): SoulTrait[] {
  return [...traits].sort((a, b) => b.sources.length - a.sources.length || b.trait.length - a.trait.length || (a.trait < b.trait ? -1 : a.trait > b.trait ? 1 : 0));
}

/** Keeps whole bullets, in order, while the section stays within `cap` tokens. */
export function capPending(traits: readonly SoulTrait[], cap = PENDING_TOKEN_CAP): { kept: SoulTrait[]; dropped: SoulTrait[] } {
  const kept: SoulTrait[] = [];
  const dropped: SoulTrait[] = [];
  let used = 0;
  for (const trait of traits) {
    const cost = estimateTokens(`${renderTrait(trait).join('\n')}\n`);
    if (used + cost > cap) dropped.push(trait);
    else {
      kept.push(trait);
      used += cost;
    }
  }
  return { kept, dropped };
}

/**
 * Pending traits after time passed: promoted to Stable with at least three distinct non-session
 * sources when first seen two weeks ago or more; dropped when not confirmed for 30 days; kept
 * otherwise (a trait without dates is kept).
 */
export function evaluatePending(traits: readonly SoulTrait[], now: Date): { keep: SoulTrait[]; promote: SoulTrait[]; expire: SoulTrait[] } {
  const keep: SoulTrait[] = [];
  const promote: SoulTrait[] = [];
  const expire: SoulTrait[] = [];
  const daysSince = (date: string | undefined): number | undefined => {
    const ms = date ? Date.parse(date) : Number.NaN;
    return Number.isFinite(ms) ? (now.getTime() - ms) / DAY_MS : undefined;
  };
  for (const trait of traits) {
    const confirmedAgo = daysSince(trait.lastConfirmed);
    const firstSeenAgo = daysSince(trait.firstSeen);
    const projectSources = distinctSources(trait.sources).filter((source) => !source.startsWith('session:'));
    if (confirmedAgo !== undefined && confirmedAgo > PENDING_EXPIRY_DAYS) expire.push(trait);
    else if (projectSources.length >= PROMOTE_MIN_SOURCES && firstSeenAgo !== undefined && firstSeenAgo >= PROMOTE_MIN_AGE_DAYS) promote.push(trait);
    else keep.push(trait);
  }
  return { keep, promote, expire };
}
