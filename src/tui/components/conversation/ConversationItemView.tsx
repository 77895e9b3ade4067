import { memo } from 'react';
import type { SubagentView } from '../../state/subagents.js';
import type { ConversationItem, ItemViewOptions } from '../../types.js';
import { AssistantMessage } from './AssistantMessage.js';
import { CompactionRow } from './CompactionRow.js';
import { NoticeRow } from './NoticeRow.js';
import { ToolRow } from './ToolRow.js';
import { UserMessage } from './UserMessage.js';

export interface ConversationItemViewProps {
  item: ConversationItem;
  options: ItemViewOptions;
  /** For an `agent` tool row: the children answering that call (empty or absent otherwise). */
  agents?: readonly SubagentView[];
}

function ItemView({ item, options, agents }: ConversationItemViewProps) {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} options={options} />;
    case 'assistant':
      return <AssistantMessage item={item} options={options} />;
    case 'tool':
      return <ToolRow item={item} options={options} {...(agents ? { agents } : {})} />;
    case 'notice':
      return <NoticeRow item={item} options={options} />;
    case 'compaction':
      return <CompactionRow item={item} options={options} />;
  }
}

function sameView(before: ConversationItemViewProps, after: ConversationItemViewProps): boolean {
  return (
    before.item === after.item &&
    sameAgents(before.agents, after.agents) &&
    before.options.width === after.options.width &&
    before.options.detail === after.options.detail &&
    before.options.color === after.options.color &&
    before.options.keepLongLines === after.options.keepLongLines
  );
}

/** Agent lists are rebuilt every frame; they are the same when their child objects are. */
function sameAgents(before: readonly SubagentView[] = [], after: readonly SubagentView[] = []): boolean {
  return before.length === after.length && before.every((agent, index) => agent === after[index]);
}

/**
 * One conversation row. Contract: items are immutable (a changed item is a new object), so a row
 * re-renders only when its item, its children (agent rows) or the view options change, not on
 * every frame of the list.
 */
export const ConversationItemView = memo(ItemView, sameView);
