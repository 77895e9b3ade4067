import { lineToString, linesToString } from '../../markdown/ansi.js';
import type { SubagentView } from '../../state/subagents.js';
import type { ConversationItem, ItemViewOptions } from '../../types.js';
import { answerMarkdown, reasoningLines, startsNewBlock } from './AssistantMessage.js';
import { compactionRule } from './CompactionRow.js';
import { noticeLines } from './NoticeRow.js';
import { toolRowLines } from './ToolRow.js';
import { userMessageLines } from './UserMessage.js';

/**
 * One conversation item as the terminal rows it takes: each string is one row, no wider than
 * `options.width`, styled with SGR codes when `options.color`. The same text the item's
 * component draws, laid out by us, so the live area can count and clip its rows exactly.
 * (A compaction's detail-mode summary is left out: it shows only in the transcript.)
 */
export function itemRows(item: ConversationItem, options: ItemViewOptions, agents?: readonly SubagentView[]): string[] {
  switch (item.kind) {
    case 'user':
      return userMessageLines(item, options).map((line) => lineToString(line, options.color));
    case 'notice':
      return noticeLines(item, options).map((line) => lineToString(line, options.color));
    case 'tool':
      return toolRowLines(item, options, agents).map((line) => lineToString(line, options.color));
    case 'compaction':
      return [lineToString(compactionRule(item, options.width), options.color)];
    case 'assistant': {
      const reasoning = reasoningLines(item, options);
      const hasText = item.text.trim() !== '';
      if (reasoning.length === 0 && !hasText) return [];
      const rows: string[] = startsNewBlock(item) ? [''] : [];
      if (reasoning.length > 0) rows.push(...linesToString(reasoning, options.color).split('\n'));
      if (options.detail && hasText && reasoning.length > 0) rows.push('');
      if (hasText) rows.push(...answerMarkdown(item, options).split('\n'));
      return rows;
    }
  }
}
