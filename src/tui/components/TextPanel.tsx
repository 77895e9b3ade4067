import { useLatestInput } from '../input/use-latest-input.js';
import { useRef, useState } from 'react';
import { useInputAttached } from '../input/use-input-attached.js';
import { ScrollText, scrollByKey } from './ScrollText.js';

/** Rows of the panel besides the text: border (2), title, key hints. */
const CHROME_ROWS = 4;

export interface TextPanelProps {
  title: string;
  lines: readonly string[];
  style?: 'diff' | 'plain';
  width: number;
  /** Rows the panel may take, border included; the text scrolls in what is left (at least one). */
  maxRows: number;
  color: boolean;
  active: boolean;
  onClose: () => void;
}

/** A long text to read (the diff /rewind would apply): ↑↓ a line, PgUp/PgDn (space) a page, Esc closes. */
export function TextPanel({ title, lines, style = 'plain', width, maxRows, color, active, onClose }: TextPanelProps) {
  const rows = Math.max(1, maxRows - CHROME_ROWS);
  const [scroll, setScrollState] = useState(0);
  // A ref as well: keys typed faster than a frame each see what the one before did.
  const current = useRef(0);
  useLatestInput(
    (input, key) => {
      if (key.escape) return onClose();
      const next = scrollByKey(key, input, current.current, lines.length, rows);
      if (next === undefined) return;
      current.current = next;
      setScrollState(next);
    },
    { isActive: active },
  );
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null;
  return <ScrollText title={title} lines={lines} scroll={scroll} rows={rows} width={width} color={color} style={style} />;
}
