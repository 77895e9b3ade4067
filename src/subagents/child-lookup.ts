import { shortSubSid } from './result-format.js';

/**
 * Finding a child by the id the model (or user) gives: the full sub-sid
 * (`20250131-123456-a1b2c3`), the short form the results show (`a1b2c3`), or a prefix of either
 * that only one child has. Never by suffix: `3` or `b2c3` must not pick whichever child happens to
 * end that way. Two children matching is an error listing them, not a guess.
 */
export type ChildMatch<T> = { kind: 'found'; item: T } | { kind: 'missing' } | { kind: 'ambiguous'; items: T[] };

/** A prefix shorter than this is not taken as an id (a typo picks nothing rather than a child). */
export const MIN_ID_PREFIX = 3;

function single<T>(items: T[]): ChildMatch<T> | undefined {
  if (items.length === 1) return { kind: 'found', item: items[0]! };
  if (items.length > 1) return { kind: 'ambiguous', items };
  return undefined;
}

export function matchChild<T>(items: readonly T[], id: string, subSidOf: (item: T) => string): ChildMatch<T> {
  const wanted = id.trim();
  if (wanted === '') return { kind: 'missing' };
  const exact = items.find((item) => subSidOf(item) === wanted);
  if (exact !== undefined) return { kind: 'found', item: exact };
  const short = single(items.filter((item) => shortSubSid(subSidOf(item)) === wanted));
  if (short) return short;
  if (wanted.length < MIN_ID_PREFIX) return { kind: 'missing' };
  const prefixed = items.filter((item) => subSidOf(item).startsWith(wanted) || shortSubSid(subSidOf(item)).startsWith(wanted));
  return single(prefixed) ?? { kind: 'missing' };
}

/** The sentence for an id more than one child matches: each candidate's full sub-sid. */
export function ambiguousIdText<T>(id: string, items: readonly T[], subSidOf: (item: T) => string, describe?: (item: T) => string): string {
  const listed = items.map((item) => `${subSidOf(item)}${describe ? ` ("${describe(item)}")` : ''}`).join(', ');
  return `"${id}" matches ${items.length} subagents: ${listed}; give the full sub-sid`;
}
