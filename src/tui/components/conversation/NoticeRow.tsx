import { Text } from 'ink';
import { linesToString, sanitizeTerminalText, type Line, type Style } from '../../markdown/ansi.js';
import { prefixLines, wrapSegments } from '../../markdown/width.js';
import type { ConversationItem, ItemViewOptions } from '../../types.js';

export type NoticeItem = Extract<ConversationItem, { kind: 'notice' }>;

const LOOK: Record<NoticeItem['level'], { marker: string; style: Style }> = {
  info: { marker: '·', style: { dim: true } },
  warn: { marker: '!', style: { fg: 'yellow' } },
  error: { marker: '✗', style: { fg: 'red' } },
};

export function noticeLines(item: NoticeItem, options: ItemViewOptions): Line[] {
  const look = LOOK[item.level];
  const text = sanitizeTerminalText(item.text).trimEnd();
  const body = wrapSegments([{ text, style: look.style }], Math.max(1, options.width - 2));
  return prefixLines(body.length > 0 ? body : [[]], [{ text: `${look.marker} `, style: look.style }], [{ text: '  ' }]);
}

/** A message from the UI itself: info dim, warnings yellow, errors red with `✗`. Wrapped with a
 * hanging indent. */
export function NoticeRow({ item, options }: { item: NoticeItem; options: ItemViewOptions }) {
  return <Text>{linesToString(noticeLines(item, options), options.color)}</Text>;
}
