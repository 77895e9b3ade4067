import { memo } from 'react';
import type { ConversationItem, ItemViewOptions } from '../../types.js';
import { AssistantMessage } from './AssistantMessage.js';
import { CompactionRow } from './CompactionRow.js';
import { NoticeRow } from './NoticeRow.js';
import { ToolRow } from './ToolRow.js';
import { UserMessage } from './UserMessage.js';

export interface ConversationItemViewProps {
  item: ConversationItem;
  options: ItemViewOptions;
}

function ItemView({ item, options }: ConversationItemViewProps) {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} options={options} />;
    case 'assistant':
      return <AssistantMessage item={item} options={options} />;
    case 'tool':
      return <ToolRow item={item} options={options} />;
    case 'notice':
      return <NoticeRow item={item} options={options} />;
    case 'compaction':
      return <CompactionRow item={item} options={options} />;
  }
}

function sameView(before: ConversationItemViewProps, after: ConversationItemViewProps): boolean {
  return (
    before.item === after.item &&
    before.options.width === after.options.width &&
    before.options.detail === after.options.detail &&
    before.options.color === after.options.color
  );
}

/**
 * One conversation row. Contract: items are immutable (a changed item is a new object), so a row
 * re-renders only when its item or the view options change, not on every frame of the list.
 */
export const ConversationItemView = memo(ItemView, sameView);
