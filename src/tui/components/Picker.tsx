import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLineInput } from '../input/use-line-input.js';
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
  const [, redraw] = useState(0);
  // The filter, the selection and whether the picker is done as the last key left them: the keys
  // of one read ("ann\r") all reach this render's handler, before any new frame. A new list (a
  // picker opened by another's choice, drawn by the same component) starts afresh.
  const now = useRef({ spec, filter: '', selected: 0, done: false });
  if (now.current.spec !== spec) now.current = { spec, filter: '', selected: 0, done: false };
  const { filter, selected } = now.current;
  const matching = (text: string) => spec.items.filter((item) => `${item.label} ${item.description ?? ''}`.toLowerCase().includes(text.toLowerCase()));
  const items = matching(filter);
  const setSelected = (index: number): void => {
    now.current.selected = index;
    redraw((version) => version + 1);
  };
  const close = (item?: PickerSpec['items'][number]): void => {
    now.current.done = true;
    onDone();
    if (item) void spec.onSelect(item.value);
  };
  useLineInput((input, key) => {
    if (now.current.done) return;
    const shown = matching(now.current.filter);
    if (key.escape) return close();
    if (key.upArrow) return setSelected(Math.max(0, now.current.selected - 1));
    if (key.downArrow) return setSelected(Math.max(0, Math.min(shown.length - 1, now.current.selected + 1)));
    if (key.return) return close(shown[now.current.selected]);
    const edit = editLine(now.current.filter, input, key);
    if (edit.text === now.current.filter) return;
    now.current.filter = edit.text;
    setSelected(0);
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
