import { Text } from 'ink';
import { linesToString, sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { prefixLines, wrapSegments } from '../../markdown/width.js';
import type { ConversationItem, ItemViewOptions } from '../../types.js';

export type UserItem = Extract<ConversationItem, { kind: 'user' }>;

const PROMPT: Style = { fg: 'cyan', bold: true };
const QUEUED_TEXT: Style = { dim: true };
const QUEUED_TAG: Style = { fg: 'yellow', dim: true };

/** The user's text after `› `, wrapped with a hanging indent. Newlines and indentation are kept
 * as typed (it may be pasted code); a queued message is dim and tagged "queued". */
export function userMessageLines(item: UserItem, options: ItemViewOptions): Line[] {
  const text = sanitizeTerminalText(options.detail && item.full !== undefined ? item.full : item.text).replace(/\s+$/, '');
  const segments = [{ text, style: item.queued === true ? QUEUED_TEXT : undefined }];
  if (item.queued === true) segments.push({ text: ' ', style: undefined }, { text: '(queued)', style: QUEUED_TAG });
  const body = wrapSegments(segments, Math.max(1, options.width - 2));
  return prefixLines(body.length > 0 ? body : [[]], [{ text: '› ', style: PROMPT }], [{ text: '  ' }]);
}

export function UserMessage({ item, options }: { item: UserItem; options: ItemViewOptions }) {
  return <Text>{linesToString(userMessageLines(item, options), options.color)}</Text>;
}
