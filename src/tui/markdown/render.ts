import { Lexer, type Token } from 'marked';
import { linesToString, sanitizeTerminalText, type Line } from './ansi.js';
import { fitLines, renderBlock, type BlockContext } from './blocks.js';
import { MAX_CHECKS_PER_RENDER, pathLinkRoot, pathLinksHold, renderWithPathLinks, type LinkFacts } from './file-links.js';

/**
 * Markdown → a string for the terminal (ANSI styles when `color`), every line at most `width`
 * columns. `marked` only tokenises; the terminal layout is ours (blocks.ts, inline.ts, table.ts).
 *
 * Streaming contract: this is called on every delta with a growing, possibly incomplete text. It
 * never throws (an unclosed fence renders as a code block in progress, a dangling `**` as text)
 * and it stays cheap:
 * - results are memoised by (text, width, color), so repeated frames cost a map lookup;
 * - rendering is incremental for growing text: top-level blocks that can no longer change are
 *   rendered once and kept, and only the tail (the last two blocks and whatever follows) is
 *   lexed and rendered again. A block is final once two more blocks follow it: appending text
 *   can extend or reinterpret only the last blocks (a list gaining an item, a paragraph becoming
 *   a setext heading, a table gaining rows, a fence closing).
 * Reference-style link definitions in a finished block do not apply to text rendered later;
 * model output practically never uses them, and such links still show their text.
 */

export interface MarkdownRenderOptions {
  /** Columns available; lines never exceed it. */
  width: number;
  /** False for plain text (NO_COLOR): the same layout without any escape code. */
  color: boolean;
  /** For the scrollback: a code line, URL or path wider than `width` stays one line (the terminal
   * soft-wraps it, and copying it gives it whole) instead of being broken over rows. */
  keepLongLines?: boolean;
}

/** Blocks after the last finished one that are re-rendered on every call. */
const UNSETTLED_BLOCKS = 2;
const RESULT_CACHE_SIZE = 64;
const STREAM_STATES = 4;

/** A stream's settled prefix: its source and its rendered blocks. */
interface StreamState {
  width: number;
  color: boolean;
  keep: boolean;
  settledSource: string;
  settledBlocks: string[];
  /** The file links' root its blocks were rendered with, and the files they looked up. */
  linkRoot: string | undefined;
  looked: Map<string, boolean>;
}

/** A rendered result and what its file links rest on (rechecked when it is drawn again). */
interface CachedResult {
  rendered: string;
  links: LinkFacts | undefined;
}

const resultCache = new Map<string, CachedResult>();
let streamStates: StreamState[] = [];

/** Forgets memoised results and stream states (tests; a theme change). */
export function clearMarkdownCache(): void {
  resultCache.clear();
  streamStates = [];
}

export function renderMarkdown(text: string, options: MarkdownRenderOptions): string {
  const width = Math.max(1, Math.floor(options.width));
  const color = options.color;
  const keep = options.keepLongLines === true;
  const key = `${width}:${color ? 1 : 0}:${keep ? 1 : 0}:${text}`;
  const cached = resultCache.get(key);
  resultCache.delete(key); // refresh its place in the LRU order (or drop it: its links changed)
  if (cached !== undefined && pathLinksHold(cached.links)) {
    resultCache.set(key, cached);
    return cached.rendered;
  }
  // A file an answer names was made (or removed) since it was drawn, or the root moved: every
  // block is rendered again, none kept from a stream.
  const fresh = cached !== undefined;
  let result: CachedResult;
  try {
    let state: StreamState | undefined;
    const source = sanitizeTerminalText(text);
    const { value, links } = renderWithPathLinks(() => {
      state = streamStateFor(source, width, color, keep, fresh);
      return renderIncrementally(state, source, width, color, keep);
    });
    result = { rendered: value, links: links && state ? withSettledFacts(state, links) : links };
  } catch {
    // A parser bug must not take the screen down: show the text itself.
    result = { rendered: linesToString(fitLines(plainFallback(text), width), false), links: undefined };
  }
  resultCache.set(key, result);
  if (resultCache.size > RESULT_CACHE_SIZE) {
    const oldest = resultCache.keys().next().value;
    if (oldest !== undefined) resultCache.delete(oldest);
  }
  return result.rendered;
}

/**
 * The files a result's links rest on: those of its settled blocks (rendered by earlier calls of a
 * stream) and those this call looked up, at most MAX_CHECKS_PER_RENDER (a recheck stats no more
 * than a render may). The stream state keeps this call's too, for the blocks it settled.
 */
function withSettledFacts(state: StreamState, links: LinkFacts): LinkFacts {
  for (const [file, found] of links.looked) {
    if (state.looked.size >= MAX_CHECKS_PER_RENDER) break;
    state.looked.set(file, found);
  }
  const looked = new Map(state.looked);
  for (const [file, found] of links.looked) if (looked.size < MAX_CHECKS_PER_RENDER) looked.set(file, found);
  return { root: links.root, looked };
}

function plainFallback(text: string): Line[] {
  return sanitizeTerminalText(text)
    .split('\n')
    .map((line) => [{ text: line }]);
}

function renderIncrementally(state: StreamState, source: string, width: number, color: boolean, keep: boolean): string {
  const tail = source.slice(state.settledSource.length);
  const tokens = Lexer.lex(tail);
  const context: BlockContext = { width, color, listDepth: 0, keepLongLines: keep };
  const blocks: { token: Token; rendered: string }[] = [];
  for (const token of tokens) {
    const lines = renderBlock(token, context);
    if (lines.length > 0) blocks.push({ token, rendered: linesToString(keep ? lines : fitLines(lines, width), color) });
  }
  settle(state, tokens, tail, blocks);
  return [...state.settledBlocks, ...blocks.map((block) => block.rendered)].join('\n\n');
}

/**
 * Moves the blocks that can no longer change from the tail into the state. Only when the tokens'
 * raw text adds up to the tail exactly (so the settled source is a true prefix) and the cut falls
 * after a newline (a block boundary); otherwise nothing settles and the next call re-lexes.
 * Mutates `blocks`: the settled ones are removed from its front.
 */
function settle(state: StreamState, tokens: Token[], tail: string, blocks: { token: Token; rendered: string }[]): void {
  const settleCount = blocks.length - UNSETTLED_BLOCKS;
  if (settleCount <= 0) return;
  const firstUnsettled = blocks[settleCount]?.token;
  let rawLength = 0;
  let cut = -1;
  for (const token of tokens) {
    if (token === firstUnsettled) cut = rawLength;
    rawLength += token.raw.length;
  }
  if (rawLength !== tail.length || cut <= 0 || tail[cut - 1] !== '\n') return;
  state.settledSource += tail.slice(0, cut);
  state.settledBlocks.push(...blocks.splice(0, settleCount).map((block) => block.rendered));
}

/** The state whose settled source is the longest prefix of `source`, rendered with today's link
 * root; a fresh one if none, or when `fresh` (those states' links are out of date: dropped). */
function streamStateFor(source: string, width: number, color: boolean, keep: boolean, fresh: boolean): StreamState {
  const linkRoot = pathLinkRoot();
  const fits = (state: StreamState) => state.width === width && state.color === color && state.keep === keep && state.linkRoot === linkRoot && source.startsWith(state.settledSource);
  if (fresh) streamStates = streamStates.filter((state) => !fits(state));
  let best: StreamState | undefined;
  for (const state of streamStates) {
    if (!fits(state)) continue;
    if (best === undefined || state.settledSource.length > best.settledSource.length) best = state;
  }
  if (best === undefined) {
    best = { width, color, keep, settledSource: '', settledBlocks: [], linkRoot, looked: new Map() };
    streamStates.push(best);
    if (streamStates.length > STREAM_STATES) streamStates.shift();
    return best;
  }
  // Most recently used last, so the least recently used is evicted first.
  streamStates = [...streamStates.filter((state) => state !== best), best];
  return best;
}
