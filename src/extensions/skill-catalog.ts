/**
 * The skill catalog the model sees: one line per skill, `name: description`, inside the `skill`
 * tool's description. Computed once at session start (tool schemas are part of the cached prompt
 * prefix, so it never changes within a session) and held to a byte budget, so installing skills
 * costs the first request a bounded amount: with many skills, descriptions are cut short (at a
 * word where one is near), then dropped, then the list ends with how many are not shown. The
 * `skill` tool lists every skill in full when asked for a name it does not know.
 */
import type { Skill } from './skills.js';

/** Bytes the catalog lines take in a request at most: UTF-8, as a JSON string (escapes counted). */
export const CATALOG_BUDGET_BYTES = 740;
/** A description never takes more than this many characters, however few skills there are. */
const MAX_LINE_DESCRIPTION_CHARS = 150;
/** Below this many characters a cut description says too little: names only then. */
const MIN_USEFUL_DESCRIPTION_CHARS = 12;

const bytes = (text: string): number => Buffer.byteLength(JSON.stringify(text), 'utf8') - 2;

export function skillCatalog(skills: readonly Pick<Skill, 'name' | 'description'>[], budget = CATALOG_BUDGET_BYTES): string {
  if (skills.length === 0) return '';
  const namesBytes = skills.reduce((sum, skill) => sum + bytes(skill.name) + 3, 0); // name, ": " or "", "\n"
  // Characters per description; fewer when multi-byte text overruns the budget.
  for (let share = Math.min(MAX_LINE_DESCRIPTION_CHARS, Math.floor((budget - namesBytes) / skills.length)); share >= MIN_USEFUL_DESCRIPTION_CHARS; share -= 1) {
    const text = skills.map((skill) => `${skill.name}: ${cut(skill.description, share)}`).join('\n');
    if (bytes(text) <= budget) return text;
  }
  // Names only, as many as fit with room for the closing line.
  const lines: string[] = [];
  let used = 0;
  for (const [index, skill] of skills.entries()) {
    const rest = skills.length - index - 1;
    const closing = rest > 0 ? bytes(`\n(+${rest} more)`) : 0;
    if (used + bytes(skill.name) + 1 + closing > budget) {
      lines.push(`(+${skills.length - index} more)`);
      break;
    }
    lines.push(skill.name);
    used += bytes(skill.name) + 1;
  }
  return lines.join('\n');
}

/** `text` in at most `max` characters (code points, so no surrogate is split): cut at the last
 * space in its second half when there is one, and marked with "…". */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > head.length / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
