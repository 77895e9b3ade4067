/**
 * Pulls the JSON value out of a model's answer. Models wrap JSON in code fences, put a sentence
 * before it, or return one object where an array was asked for; all of that is tolerated. What
 * cannot be read is reported, never guessed.
 */

/** The first JSON object or array in `text`; undefined when there is none that parses. */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(text);
  const candidates = [fenced?.[1], text].filter((item): item is string => item !== undefined);
  for (const candidate of candidates) {
    const trimmed = candidate.trim();
    try {
      return JSON.parse(trimmed);
    } catch {
      // Not the whole text: look for the first bracket that opens a parsable value.
    }
    for (let start = 0; start < trimmed.length; start++) {
      const char = trimmed[start];
      if (char !== '[' && char !== '{') continue;
      const end = matchingClose(trimmed, start);
      if (end < 0) continue;
      try {
        return JSON.parse(trimmed.slice(start, end + 1));
      } catch {
        // Try the next opening bracket.
      }
    }
  }
  return undefined;
}

/** An array answer: an array as is, a single object as a one-item array, `{"items": [...]}`-like
 * wrappers unwrapped. Undefined when the answer holds no JSON. */
export function extractJsonArray(text: string): unknown[] | undefined {
  const value = extractJson(text);
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const arrays = Object.values(value).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as unknown[];
    return [value];
  }
  return undefined;
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 when unbalanced. */
function matchingClose(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') depth += 1;
    else if (char === ']' || char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}
