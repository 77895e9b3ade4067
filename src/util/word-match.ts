/**
 * Word search for tool_search (seek's tools and MCP servers'): a query word matches a whole word of
 * the text (snake_case, kebab-case and camelCase parts count as words), plural or not ("invoice"
 * finds "list_invoices", "sum" does not find "summary"), so a search returns what it asked for
 * rather than every description that happens to contain the letters.
 */
export function matchesWord(word: string, text: string): boolean {
  const stem = word.toLowerCase().replace(/s$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (stem === '') return false;
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return new RegExp(`(?:^|[^a-z0-9])${stem}(?:s|es)?(?![a-z0-9])`).test(spaced);
}

/** Keeps the entries that score at least half the best score (a name hit outranks mere mentions),
 * best first. */
export function relevant<T extends { score: number }>(scored: readonly T[]): T[] {
  const best = Math.max(0, ...scored.map((entry) => entry.score));
  return scored.filter((entry) => entry.score > 0 && entry.score * 2 >= best).sort((a, b) => b.score - a.score);
}
