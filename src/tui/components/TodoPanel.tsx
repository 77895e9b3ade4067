import { Box, Text } from 'ink';
import type { TodoItem } from '../../agent/types.js';

const GLYPH = { pending: '☐', in_progress: '◐', completed: '☑' } as const;

/** Rows the panel takes for `count` items when not clipped: the title and one row per item. */
export function todoPanelRows(count: number): number {
  return count === 0 ? 0 : count + 1;
}

/** The items shown in `slots` rows: a window that starts at the first unfinished item (the one
 * being worked on stays in view), moved up when it would run past the end. */
export function todoWindow(items: readonly TodoItem[], slots: number): { start: number; end: number } {
  if (items.length <= slots) return { start: 0, end: items.length };
  const current = items.findIndex((item) => item.status !== 'completed');
  const start = Math.max(0, Math.min(current === -1 ? items.length : current, items.length - slots));
  return { start, end: start + slots };
}

/**
 * The current todo_write list with its progress. Hidden when there is no list. At most `maxRows`
 * rows: a longer list shows a window around the first unfinished item and says how many items
 * are above and below it.
 */
export function TodoPanel({ items, width, color, maxRows }: { items: readonly TodoItem[]; width: number; color: boolean; maxRows?: number }) {
  if (items.length === 0 || (maxRows !== undefined && maxRows < 1)) return null;
  const done = items.filter((item) => item.status === 'completed').length;
  const clipped = maxRows !== undefined && todoPanelRows(items.length) > maxRows;
  // Clipped: the title row carries the counts of the hidden items.
  const { start, end } = clipped ? todoWindow(items, Math.max(0, maxRows - 1)) : { start: 0, end: items.length };
  const hidden = [start > 0 ? `${start} above` : '', end < items.length ? `${items.length - end} below` : ''].filter(Boolean).join(', ');
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate-end">
        Todos {done}/{items.length}
        {hidden ? <Text dimColor> ({hidden})</Text> : null}
      </Text>
      {items.slice(start, end).map((item, offset) => {
        const style =
          item.status === 'completed' ? { dimColor: true, strikethrough: color } : item.status === 'in_progress' ? { bold: true, ...(color ? { color: 'cyan' } : {}) } : {};
        return (
          <Text key={`${start + offset}:${item.content}`} wrap="truncate-end" {...style}>
            {'  '}
            {GLYPH[item.status]} {item.content}
          </Text>
        );
      })}
    </Box>
  );
}
