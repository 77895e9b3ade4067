import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useRef, useState } from 'react';
import { editLine } from '../input/typed-line.js';
import type { PickerSpec } from '../commands/types.js';

const VISIBLE = 10;

/** Pick one entry from a list (sessions, models): arrows move, Enter picks, Esc closes, typing filters. */
/** Rows a picker takes besides its entries: the border and the title. */
const PICKER_FRAME_ROWS = 3;

/** `maxRows`: rows the picker may take, border included (fewer entries are shown when small). */
export function Picker({ spec, width, color, onDone, maxRows }: { spec: PickerSpec; width: number; color: boolean; onDone: () => void; maxRows?: number }) {
  const visible = Math.max(1, Math.min(VISIBLE, (maxRows ?? Infinity) - PICKER_FRAME_ROWS));
  const [filter, setFilter] = useState('');
  const filterNow = useRef('');
  const [selected, setSelected] = useState(0);
  const matching = (text: string) => spec.items.filter((item) => `${item.label} ${item.description ?? ''}`.toLowerCase().includes(text.toLowerCase()));
  const items = matching(filter);
  useLatestInput((input, key) => {
    if (key.escape) return onDone();
    if (key.upArrow) return setSelected((index) => Math.max(0, index - 1));
    if (key.downArrow) return setSelected((index) => Math.min(items.length - 1, index + 1));
    if (key.return) {
      const item = items[selected];
      onDone();
      if (item) void spec.onSelect(item.value);
      return;
    }
    // The filter as the last read left it (a read may come before the frame of the one before).
    const edit = editLine(filterNow.current, input, key);
    if (edit.text !== filterNow.current) {
      filterNow.current = edit.text;
      setFilter(edit.text);
      setSelected(0);
    }
    // Text and Enter in one read: pick the first match of the completed filter.
    if (edit.submit) {
      const first = matching(edit.text)[0];
      onDone();
      if (first) void spec.onSelect(first.value);
    }
  });
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer
  const start = Math.max(0, Math.min(selected - Math.floor(visible / 2), items.length - visible));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color ? 'cyan' : undefined} paddingX={1} width={width}>
      <Text bold>
        {spec.title} <Text dimColor>{filter ? `filter: ${filter}` : 'type to filter · enter to pick · esc to close'}</Text>
      </Text>
      {items.length === 0 ? <Text dimColor>nothing matches</Text> : null}
      {items.slice(start, start + visible).map((item, offset) => {
        const index = start + offset;
        const active = index === selected;
        return (
          <Text key={item.value} wrap="truncate-end" {...(active ? { bold: true, ...(color ? { color: 'cyan' } : {}) } : {})}>
            {active ? '❯ ' : '  '}
            {item.label}
            {item.description ? <Text dimColor> {item.description}</Text> : null}
          </Text>
        );
      })}
    </Box>
  );
}
