/**
 * The long-term user profile `~/.seek/soul.md` (L layer, seek-spec 5.1): YAML frontmatter,
 * `# User profile`, a `## Stable` and a `## Pending` section of trait bullets. People edit it by
 * hand; seek only ever writes it through `seek -dream --write`, which replaces the Pending
 * section's bullets and appends promoted traits to Stable, leaving everything else as it was
 * (the original re-rendered the whole file and lost hand-written text). The model never writes it.
 */
import { readFile } from 'node:fs/promises';
import { estimateTokens } from './tokens.js';

export const SOUL_TOKEN_CAP = 450;
export const SOUL_TRUNCATION_MARK = '… *(truncated — soul.md exceeds token budget)*';
const TRUNCATION_RESERVE = 15;

export interface SoulTrait {
  trait: string;
  why: string;
  sources: string[];
  /** YYYY-MM-DD */
  firstSeen?: string;
  /** YYYY-MM-DD */
  lastConfirmed?: string;
  /** Sub-lines seek does not understand, kept as written. */
  extra: string[];
}

export interface SoulSection {
  /** Text before the first bullet (kept as written). */
  preamble: string[];
  traits: SoulTrait[];
  /** The raw bullet blocks, in order (what is injected for Stable). */
  blocks: string[][];
}

export interface Soul {
  /** The file's text ('' when missing or unreadable). */
  text: string;
  stable: SoulSection;
  pending: SoulSection;
}

const EMPTY_SECTION: SoulSection = { preamble: [], traits: [], blocks: [] };

/** Reads soul.md. Missing or unreadable: an empty soul (it never blocks a session). */
export async function readSoul(file: string): Promise<Soul> {
  try {
    return parseSoul(await readFile(file, 'utf8'));
  } catch {
    return parseSoul('');
  }
}

export function parseSoul(text: string): Soul {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const stable = sectionRange(lines, 'Stable');
  const pending = sectionRange(lines, 'Pending');
  return {
    text,
    stable: stable ? parseSection(lines.slice(stable.start + 1, stable.end)) : EMPTY_SECTION,
    pending: pending ? parseSection(lines.slice(pending.start + 1, pending.end)) : EMPTY_SECTION,
  };
}

/** A section starts at a line beginning `## <title>` (a caption may follow) and ends before the
 * next `## ` or `# ` heading. Frontmatter is skipped. */
function sectionRange(lines: readonly string[], title: string): { start: number; end: number } | undefined {
  const from = frontmatterEnd(lines);
  const start = lines.findIndex((line, index) => index >= from && line.startsWith(`## ${title}`));
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && !/^#{1,2} /.test(lines[end]!)) end += 1;
  return { start, end };
}

/** Index of the first line after the frontmatter (0 when there is none). */
function frontmatterEnd(lines: readonly string[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  const close = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  return close < 0 ? 0 : close + 1;
}

const BULLET = /^[-*] /;
// Non-ASCII in regexes is written as \u escapes (keeps dist/cli/main.cjs ASCII, see scripts/build.mjs):
// \uff1a is the full-width colon.
const FIELD = /^\s+[-*]\s+(.*?)\s*[:\uff1a]\s*(.*)$/;

function parseSection(lines: readonly string[]): SoulSection {
  const preamble: string[] = [];
  const blocks: string[][] = [];
  for (const line of lines) {
    if (BULLET.test(line)) blocks.push([line]);
    else if (blocks.length > 0 && (line.trim() === '' || /^\s/.test(line))) blocks.at(-1)!.push(line);
    else if (blocks.length > 0) blocks.push([line]); // stray text after bullets: its own block, kept
    else preamble.push(line);
  }
  const trimmed = blocks.map(trimBlankTail);
  return { preamble: trimBlankTail(trimBlankHead(preamble)), blocks: trimmed, traits: trimmed.filter((block) => BULLET.test(block[0]!)).map(parseTrait) };
}

function parseTrait(block: readonly string[]): SoulTrait {
  const trait = block[0]!.replace(BULLET, '').replace(/^\*\*(.*)\*\*$/, '$1').trim();
  const result: SoulTrait = { trait, why: '', sources: [], extra: [] };
  for (const line of block.slice(1)) {
    if (line.trim() === '') continue;
    const field = FIELD.exec(line);
    const label = field?.[1]?.toLowerCase() ?? '';
    const value = field?.[2]?.trim() ?? '';
    // \u6765\u6e90: "source" in Chinese.
    if (/why|\u6765\u6e90/.test(label)) result.why = value;
    else if (label === 'sources') result.sources = splitSources(value);
    else if (label === 'first seen' || label === '首次观察') result.firstSeen = value;
    else if (label === 'last confirmed' || label === '最近确认') result.lastConfirmed = value;
    else result.extra.push(line);
  }
  return result;
}

export function splitSources(value: string): string[] {
  return [...new Set(value.split(',').map((item) => item.trim()).filter(Boolean))].sort();
}

export function renderTrait(trait: SoulTrait): string[] {
  const lines = [`- **${trait.trait}**`];
  if (trait.why) lines.push(`  - why: ${trait.why}`);
  if (trait.sources.length > 0) lines.push(`  - sources: ${[...new Set(trait.sources)].sort().join(', ')}`);
  if (trait.firstSeen) lines.push(`  - first seen: ${trait.firstSeen}`);
  if (trait.lastConfirmed) lines.push(`  - last confirmed: ${trait.lastConfirmed}`);
  lines.push(...trait.extra);
  return lines;
}

// The Chinese alternatives read "first seen" and "last confirmed"; \uff1a is the full-width colon.
const METADATA_LINE = /^\s+[-*]\s+(sources|first seen|last confirmed|\u9996\u6b21\u89c2\u5bdf|\u6700\u8fd1\u786e\u8ba4)\s*[:\uff1a]/i;

/**
 * The Stable part as injected: its text without bookkeeping sub-lines (sources, dates), at most
 * `cap` tokens. Over the cap, trailing bullets are dropped whole and a marker says so; text before
 * the first bullet is always kept. Empty when Stable has nothing.
 */
export function stableForInjection(soul: Soul, cap = SOUL_TOKEN_CAP): string {
  const head = soul.stable.preamble.join('\n').trim();
  const blocks = soul.stable.blocks.map((block) => block.filter((line) => !METADATA_LINE.test(line)).join('\n').trimEnd());
  const all = [head, ...blocks].filter(Boolean).join('\n');
  if (estimateTokens(all) <= cap) return all.trim();
  let kept = head;
  for (const block of blocks) {
    const next = [kept, block].filter(Boolean).join('\n');
    if (estimateTokens(next) > cap - TRUNCATION_RESERVE) break;
    kept = next;
  }
  return [kept, SOUL_TRUNCATION_MARK].filter(Boolean).join('\n');
}

export interface SoulUpdate {
  /** The Pending bullets after a dream (replaces the section's bullets; its preamble stays). */
  pending: SoulTrait[];
  /** Traits promoted to Stable, appended after Stable's existing text. */
  promote: SoulTrait[];
  now: Date;
}

/** The new text of soul.md: everything outside Pending's bullets kept as written. */
export function updateSoulText(text: string, update: SoulUpdate): string {
  const source = text.trim() === '' ? soulTemplate(update.now) : text.replace(/\r\n/g, '\n');
  let lines = withFrontmatterDate(source.split('\n'), update.now);
  if (!sectionRange(lines, 'Stable')) lines = insertSection(lines, 'Stable', sectionRange(lines, 'Pending')?.start);
  if (!sectionRange(lines, 'Pending')) lines = insertSection(lines, 'Pending', undefined);

  const pendingRange = sectionRange(lines, 'Pending')!;
  const pendingSection = parseSection(lines.slice(pendingRange.start + 1, pendingRange.end));
  const pendingBody = ['', ...pendingSection.preamble, ...(pendingSection.preamble.length > 0 ? [''] : []), ...update.pending.flatMap(renderTrait), ''];
  lines = [...lines.slice(0, pendingRange.start + 1), ...pendingBody, ...lines.slice(pendingRange.end)];

  if (update.promote.length > 0) {
    const stableRange = sectionRange(lines, 'Stable')!;
    const body = trimBlankTail(lines.slice(stableRange.start + 1, stableRange.end));
    const stableBody = [...(body.length > 0 ? body : ['']), ...update.promote.flatMap(renderTrait), ''];
    lines = [...lines.slice(0, stableRange.start + 1), ...stableBody, ...lines.slice(stableRange.end)];
  }
  return `${trimBlankTail(lines).join('\n')}\n`;
}

export function soulTemplate(now: Date): string {
  return ['---', 'schema_version: 1', `updated_at: ${now.toISOString()}`, '---', '# User profile', '', '## Stable', '', '## Pending', ''].join('\n');
}

function withFrontmatterDate(lines: string[], now: Date): string[] {
  const end = frontmatterEnd(lines);
  if (end === 0) return ['---', 'schema_version: 1', `updated_at: ${now.toISOString()}`, '---', ...lines];
  const out = [...lines];
  const at = out.findIndex((line, index) => index < end && line.startsWith('updated_at:'));
  if (at >= 0) out[at] = `updated_at: ${now.toISOString()}`;
  else out.splice(end - 1, 0, `updated_at: ${now.toISOString()}`);
  return out;
}

function insertSection(lines: string[], title: string, before: number | undefined): string[] {
  const at = before ?? lines.length;
  return [...trimBlankTail(lines.slice(0, at)), '', `## ${title}`, '', ...lines.slice(at)];
}

function trimBlankTail(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end -= 1;
  return lines.slice(0, end);
}

function trimBlankHead(lines: readonly string[]): string[] {
  let start = 0;
  while (start < lines.length && lines[start]!.trim() === '') start += 1;
  return lines.slice(start);
}
