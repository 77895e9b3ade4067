/** Views of conversation items for the terminal UI. */
export { ConversationItemView, type ConversationItemViewProps } from './ConversationItemView.js';
export { UserMessage, userMessageLines, type UserItem } from './UserMessage.js';
export { AssistantMessage, reasoningLines, type AssistantItem } from './AssistantMessage.js';
export { ToolRow, toolRowLines } from './ToolRow.js';
export { NoticeRow, noticeLines, type NoticeItem } from './NoticeRow.js';
export { CompactionRow, compactionRule, type CompactionItem } from './CompactionRow.js';
export { DiffView, type DiffViewProps } from './DiffView.js';
export { diffLines, type DiffLinesOptions } from './diff-lines.js';
export { formatDuration } from './text-blocks.js';
export type { ToolItem } from './tool-lines.js';
