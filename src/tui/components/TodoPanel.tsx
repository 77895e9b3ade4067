import { Box, Text } from 'ink';
import type { TodoItem } from '../../agent/types.js';

const GLYPH = { pending: '☐', in_progress: '◐', completed: '☑' } as const;

/** The current todo_write list with its progress. Hidden when there is no list. */
export function TodoPanel({ items, width, color }: { items: readonly TodoItem[]; width: number; color: boolean }) {
  if (items.length === 0) return null;
  const done = items.filter((item) => item.status === 'completed').length;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        Todos {done}/{items.length}
      </Text>
      {items.map((item, index) => {
        const style =
          item.status === 'completed' ? { dimColor: true, strikethrough: color } : item.status === 'in_progress' ? { bold: true, ...(color ? { color: 'cyan' } : {}) } : {};
        return (
          <Text key={`${index}:${item.content}`} wrap="truncate-end" {...style}>
            {'  '}
            {GLYPH[item.status]} {item.content}
          </Text>
        );
      })}
    </Box>
  );
}
