/**
 * The token estimate memory budgets use (seek-spec 5.2): a quarter token per ASCII or Latin-1
 * character, a third per character above U+00FF (CJK text is denser). Deterministic and cheap:
 * budgets decide which bytes go into a cached prefix, so they must not depend on a tokenizer.
 */
export function estimateTokens(text: string): number {
  let narrow = 0;
  let wide = 0;
  for (const char of text) {
    if ((char.codePointAt(0) ?? 0) > 0xff) wide += 1;
    else narrow += 1;
  }
  return Math.ceil(narrow / 4 + wide / 3);
}
