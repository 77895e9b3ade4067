import { Box, Text } from 'ink';
import { linesToString, sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { renderMarkdown } from '../../markdown/render.js';
import { truncateLine, wrapSegments } from '../../markdown/width.js';
import type { ConversationItem, ItemViewOptions } from '../../types.js';
import { count } from './text-blocks.js';

export type AssistantItem = Extract<ConversationItem, { kind: 'assistant' }>;

const REASONING: Style = { dim: true, italic: true };
/** Lines of reasoning shown live while the model thinks and no answer text has arrived. */
const LIVE_REASONING_LINES = 4;

/**
 * The reasoning part, by phase:
 * - detail mode: all of it;
 * - streaming with no answer text yet: the last few wrapped lines, live;
 * - otherwise (text started, or finished): one line, "thought for N lines — Ctrl+O to expand".
 */
export function reasoningLines(item: AssistantItem, options: ItemViewOptions): Line[] {
  const reasoning = sanitizeTerminalText(item.reasoning).trim();
  if (reasoning === '') return [];
  const width = Math.max(1, options.width);
  if (options.detail) return wrapSegments([{ text: reasoning, style: REASONING }], width);
  if (item.streaming && item.text.trim() === '') {
    return wrapSegments([{ text: reasoning, style: REASONING }], width).slice(-LIVE_REASONING_LINES);
  }
  const sourceLines = reasoning.split('\n').filter((line) => line.trim() !== '').length;
  return [truncateLine([{ text: `thought for ${count(sourceLines, 'line')} — Ctrl+O to expand`, style: REASONING }], width)];
}

/** The answer's Markdown as rendered rows (one string, rows joined by newlines). A reopened code
 * block (see `reopenedFence`) leaves out the language label its fence would show again. */
export function answerMarkdown(item: AssistantItem, options: ItemViewOptions): string {
  const markdown = renderMarkdown(item.text, { width: Math.max(1, options.width), color: options.color, ...(options.keepLongLines ? { keepLongLines: true } : {}) });
  if (item.reopenedFence === undefined || !/^[`~]{3,}\s*\S/.test(item.reopenedFence)) return markdown;
  const firstBreak = markdown.indexOf('\n');
  return firstBreak === -1 ? '' : markdown.slice(firstBreak + 1);
}

/** Whether the item is drawn one blank row below the one before (a new block of the same answer);
 * a reopened code block, or a list or paragraph cut between lines, goes on right under its first part. */
export function startsNewBlock(item: AssistantItem): boolean {
  return item.continued === true && item.reopenedFence === undefined && item.joined !== true;
}

/** An assistant reply: reasoning (dim, italic) above the answer rendered as Markdown. Renders
 * nothing until there is something to show. */
export function AssistantMessage({ item, options }: { item: AssistantItem; options: ItemViewOptions }) {
  const reasoning = reasoningLines(item, options);
  const hasText = item.text.trim() !== '';
  if (reasoning.length === 0 && !hasText) return null;
  const markdown = hasText ? answerMarkdown(item, options) : '';
  // A blank line between the full reasoning and the answer; the one-line forms sit right above it.
  const gap = options.detail && hasText ? 1 : 0;
  // A continuation is the next block of the same answer: the blank line Markdown puts between blocks.
  return (
    <Box flexDirection="column" marginTop={startsNewBlock(item) ? 1 : 0}>
      {reasoning.length > 0 ? (
        <Box marginBottom={gap}>
          <Text>{linesToString(reasoning, options.color)}</Text>
        </Box>
      ) : null}
      {hasText ? <Text>{markdown}</Text> : null}
    </Box>
  );
}
