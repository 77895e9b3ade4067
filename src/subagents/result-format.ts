/**
 * The `agent` tool's result text (CONTRACT.md "Result formats", seek-spec 3.4). Scripts and the
 * parent model parse the prefix and the headline line, so these bytes are a contract:
 *
 *   [agent: completed] <headline>\n\n<summary, at most 4096 bytes>\n\n— sub-sid: <short> · turns: <n> · tokens: <n>
 *   [agent: failed reason=<reason>] <hint>\n\n— sub-sid: <short>
 *
 * No cost in the footer, so a price change never changes the bytes the parent's cache holds.
 */
import type { SubagentFailureReason } from './types.js';

export const MAX_SUMMARY_BYTES = 4096;
export const MAX_HEADLINE_BYTES = 120;
export const MAX_DESCRIPTION_BYTES = 120;
export const MAX_PROMPT_BYTES = 32 * 1024;
const TRUNCATION_MARK = '\n…(truncated)';

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back up over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}

/** The summary as the parent sees it: at most 4096 bytes, marked when cut. */
export function capSummary(summary: string): { text: string; truncated: boolean } {
  const trimmed = summary.trim();
  if (Buffer.byteLength(trimmed) <= MAX_SUMMARY_BYTES) return { text: trimmed, truncated: false };
  return { text: cutUtf8(trimmed, MAX_SUMMARY_BYTES) + TRUNCATION_MARK, truncated: true };
}

/** The first non-blank line of the summary, trimmed, at most 120 bytes; Markdown heading marks dropped. */
export function headlineOf(summary: string): string {
  const line = summary.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return cutUtf8(line.trim().replace(/^#+\s*/, ''), MAX_HEADLINE_BYTES);
}

/** A description cut at 120 bytes with the truncation mark, as the original does. */
export function capDescription(description: string): string {
  const oneLine = description.replace(/\s+/g, ' ').trim();
  if (Buffer.byteLength(oneLine) <= MAX_DESCRIPTION_BYTES) return oneLine;
  return `${cutUtf8(oneLine, MAX_DESCRIPTION_BYTES)}…(truncated)`;
}

/** The part of a sub-sid after its last `-` (`20261122-101500-a1b2c3` → `a1b2c3`). */
export function shortSubSid(subSid: string): string {
  return subSid.slice(subSid.lastIndexOf('-') + 1);
}

export function completedResult(options: { summary: string; subSid: string; turns: number; tokens: number; transcriptPath?: string }): string {
  const { text, truncated } = capSummary(options.summary);
  const footer = `— sub-sid: ${shortSubSid(options.subSid)} · turns: ${options.turns} · tokens: ${options.tokens}`;
  // When the summary was cut, say where the rest is: nothing the child found is lost.
  const more = truncated && options.transcriptPath ? `\n— full transcript: ${options.transcriptPath}` : '';
  return `[agent: completed] ${headlineOf(options.summary)}\n\n${text}\n\n${footer}${more}`;
}

export function failedResult(reason: SubagentFailureReason, hint: string, subSid?: string): string {
  const footer = `\n\n— sub-sid: ${subSid ? shortSubSid(subSid) : ''}`;
  return `[agent: failed reason=${reason}] ${hint.trim()}${footer}`;
}

/** Parses a result back (front ends show status without re-deriving it). */
export function parseAgentResult(content: string): { status: 'completed' } | { status: 'failed'; reason: string } | undefined {
  if (content.startsWith('[agent: completed]')) return { status: 'completed' };
  const failed = /^\[agent: failed reason=([a-z_]+)\]/.exec(content);
  return failed ? { status: 'failed', reason: failed[1]! } : undefined;
}
