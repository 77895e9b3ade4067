import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useRef, useState } from 'react';
import { useInputAttached } from '../input/use-input-attached.js';
import { lineToString, type Line } from '../markdown/ansi.js';
import { prefixLines, truncateLine } from '../markdown/width.js';
import { bodyWidth, BODY_INDENT, detailBody, headerLine, HINT_PREFIX, resultHint, type ToolItem } from './conversation/tool-lines.js';

/** Rows of the panel besides the output: border (2), the row's header, key hints. */
const CHROME_ROWS = 4;
/** Output rows shown at once when no `maxRows` is given. */
const DEFAULT_ROWS = 16;

export interface ToolOutputPanelProps {
  /** The session's tool rows, oldest first; the panel opens on the last. */
  items: readonly ToolItem[];
  width: number;
  color: boolean;
  /** Rows the panel may take, border included (App's share of the screen); the output scrolls in
   * what is left of them (at least one row). DEFAULT_ROWS of output when absent. */
  maxRows?: number;
  /** False while something else (a permission prompt) owns the keyboard. */
  active?: boolean;
  onClose: () => void;
}

/**
 * The whole output of one tool row (Ctrl+T): its header and outcome, then everything it produced
 * (command output, the full diff, the list), in a window that scrolls. Opens on the latest row;
 * ←/→ step to the row before or after, ↑↓ scroll a line, PgUp/PgDn (space) a page, Home/End the
 * ends; Esc or Ctrl+T closes it. Nothing is reprinted: the transcript above stays as it was.
 */
export function ToolOutputPanel({ items, width, color, maxRows, active = true, onClose }: ToolOutputPanelProps) {
  const [index, setIndexState] = useState(Math.max(0, items.length - 1));
  const [scroll, setScrollState] = useState(0);
  // Refs as well: keys typed faster than a frame each see what the one before did.
  const state = useRef({ index, scroll });
  const setIndex = (value: number) => {
    state.current = { index: value, scroll: 0 };
    setIndexState(value);
    setScrollState(0);
  };
  const setScroll = (value: number) => {
    state.current = { ...state.current, scroll: value };
    setScrollState(value);
  };
  const height = maxRows === undefined ? DEFAULT_ROWS : Math.max(1, maxRows - CHROME_ROWS);
  const item = items[Math.min(index, items.length - 1)];
  const body = item ? bodyOf(item, width - 4) : [];
  const maxScroll = Math.max(0, body.length - height);

  useLatestInput(
    (input, key) => {
      const now = state.current;
      if (key.escape) return onClose(); // Ctrl+T is the App's toggle
      if (key.leftArrow) return setIndex(Math.max(0, now.index - 1));
      if (key.rightArrow) return setIndex(Math.min(items.length - 1, now.index + 1));
      const delta = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -height : key.pageDown || input === ' ' ? height : 0;
      if (delta !== 0) return setScroll(Math.max(0, Math.min(maxScroll, now.scroll + delta)));
      if (key.home) return setScroll(0);
      if (key.end) return setScroll(maxScroll);
    },
    { isActive: active },
  );
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null;

  const accent = color ? 'cyan' : undefined;
  if (!item) {
    return (
      <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
        <Text dimColor>no tool output in this session yet · esc close</Text>
      </Box>
    );
  }
  const top = Math.min(scroll, maxScroll);
  const shown = body.slice(top, top + height);
  const below = body.length - top - shown.length;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      <Text>{lineToString(headerLine(item, width - 4), color)}</Text>
      {shown.map((line, at) => (
        <Text key={top + at}>{line.length === 0 ? ' ' : lineToString(line, color)}</Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {footerText(Math.min(index, items.length - 1) + 1, items.length, top, below, width - 4)}
      </Text>
    </Box>
  );
}

/** `tool 2 of 3 · ←→ other rows · ↑↓ pgup/pgdn scroll · 12 above · esc close`; where that does not
 * fit, the counts and the way out come first (`tool 2/3 · 12 above · esc close · ←→ ↑↓ scroll`),
 * so a narrow terminal cuts the key hints, not how much there is to scroll. */
export function footerText(at: number, of: number, above: number, below: number, width: number): string {
  const counts = `${above > 0 ? ` · ${above} above` : ''}${below > 0 ? ` · ${below} below` : ''}`;
  const full = `tool ${at} of ${of} · ←→ other rows · ↑↓ pgup/pgdn scroll${counts} · esc close`;
  return full.length <= width ? full : `tool ${at}/${of}${counts} · esc close · ←→ ↑↓ scroll`;
}

/** The outcome line, then the whole result, under the body indent. */
function bodyOf(item: ToolItem, width: number): Line[] {
  const indent: Line = [{ text: BODY_INDENT }];
  const hint = resultHint(item);
  const outcome: Line[] = hint ? [truncateLine([...indent, { text: HINT_PREFIX, style: { dim: true } }, ...hint], width)] : [];
  // Everything: no "… N more lines", long lines continued rather than cut.
  const full = item.status === 'running' ? [] : detailBody(item, bodyWidth(width), true);
  return [...outcome, ...prefixLines(full, indent, indent)];
}
