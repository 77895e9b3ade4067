import { Box, Text } from 'ink';
import { linesToString, type Line } from '../../markdown/ansi.js';
import { renderMarkdown } from '../../markdown/render.js';
import { truncateLine } from '../../markdown/width.js';
import type { ConversationItem, ItemViewOptions } from '../../types.js';
import { count } from './text-blocks.js';

export type CompactionItem = Extract<ConversationItem, { kind: 'compaction' }>;

const SUMMARY_INDENT = 2;

export function compactionRule(item: CompactionItem, width: number): Line {
  const text = `── context compacted (${item.reason}): ${count(item.replacedMessages, 'message')} summarised ──`;
  return truncateLine([{ text, style: { dim: true } }], Math.max(1, width));
}

/** Marks where the history was replaced by a summary; detail mode shows the summary (Markdown). */
export function CompactionRow({ item, options }: { item: CompactionItem; options: ItemViewOptions }) {
  const rule = <Text>{linesToString([compactionRule(item, options.width)], options.color)}</Text>;
  if (!options.detail || item.summary.trim() === '') return rule;
  const summary = renderMarkdown(item.summary, {
    width: Math.max(1, options.width - SUMMARY_INDENT),
    color: options.color,
  });
  return (
    <Box flexDirection="column">
      {rule}
      <Box paddingLeft={SUMMARY_INDENT}>
        <Text>{summary}</Text>
      </Box>
    </Box>
  );
}
