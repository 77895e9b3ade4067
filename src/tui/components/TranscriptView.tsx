import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useMemo, useRef, useState } from 'react';
import { useInputAttached } from '../input/use-input-attached.js';
import type { SubagentView } from '../state/subagents.js';
import type { ConversationItem } from '../types.js';
import { itemRows } from './conversation/item-lines.js';

export interface TranscriptViewProps {
  /** Every item printed so far, oldest first, and the current turn's live ones. */
  printed: readonly ConversationItem[];
  live: readonly ConversationItem[];
  agentsOf: (item: ConversationItem) => readonly SubagentView[] | undefined;
  width: number;
  /** The terminal's height: the view takes all of it but the row Ink leaves under its output. */
  rows: number;
  color: boolean;
  onClose: () => void;
}

/**
 * The transcript (Ctrl+O): the whole conversation with tool output, reasoning, pasted text and
 * custom commands expanded, full screen. The App draws it on the terminal's alternate screen, so
 * opening and closing it leaves the scrollback exactly as it was. Opens on the end; ↑↓ scroll a
 * line, PgUp/PgDn (space) a page, Home/End the ends; Esc (or Ctrl+O, the App's toggle) closes.
 */
export function TranscriptView({ printed, live, agentsOf, width, rows, color, onClose }: TranscriptViewProps) {
  // Laid out again only when an item changes (agent rows follow their children with the live items).
  const lines = useMemo(
    () => [...printed, ...live].flatMap((item) => itemRows(item, { width, detail: true, color }, agentsOf(item))),
    [printed, live, width, color],
  );
  const height = Math.max(1, rows - 2);
  const maxScroll = Math.max(0, lines.length - height);
  // undefined: follow the end (new rows of a running turn stay in view).
  const [scroll, setScrollState] = useState<number | undefined>(undefined);
  const current = useRef<number | undefined>(undefined);
  const setScroll = (value: number) => {
    const next = value >= maxScroll ? undefined : Math.max(0, value);
    current.current = next;
    setScrollState(next);
  };
  useLatestInput((input, key) => {
    if (key.escape) return onClose();
    const top = current.current ?? maxScroll;
    const delta = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -height : key.pageDown || input === ' ' ? height : 0;
    if (delta !== 0) return setScroll(top + delta);
    if (key.home) return setScroll(0);
    if (key.end) return setScroll(maxScroll);
  });
  const attached = useInputAttached();
  if (!attached) return null;
  const top = Math.min(scroll ?? maxScroll, maxScroll);
  const shown = lines.slice(top, top + height);
  const below = lines.length - top - shown.length;
  return (
    <Box flexDirection="column" width={width}>
      <Text>{shown.join('\n')}</Text>
      {Array.from({ length: height - shown.length }, (_, index) => (
        <Text key={`pad${index}`}> </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        transcript · ↑↓ pgup/pgdn home/end scroll{top > 0 ? ` · ${top} above` : ''}
        {below > 0 ? ` · ${below} below` : ''} · esc or ctrl+o close
      </Text>
    </Box>
  );
}
