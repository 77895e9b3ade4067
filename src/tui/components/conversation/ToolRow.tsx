import { Text } from 'ink';
import { linesToString, type Line } from '../../markdown/ansi.js';
import { prefixLines, truncateLine } from '../../markdown/width.js';
import type { ItemViewOptions } from '../../types.js';
import { BODY_INDENT, bodyWidth, detailBody, headerLine, HINT_PREFIX, liveOutputLines, resultHint, type ToolItem } from './tool-lines.js';

/** The lines of a tool row (exported for tests and for plain-text transcripts). */
export function toolRowLines(item: ToolItem, options: ItemViewOptions): Line[] {
  const width = Math.max(1, options.width);
  const lines: Line[] = [headerLine(item, width)];
  if (item.status === 'running') return [...lines, ...liveOutputLines(item, width)];
  const indent: Line = [{ text: BODY_INDENT }];
  if (options.detail) {
    const body = detailBody(item, bodyWidth(width));
    if (body.length > 0) return [...lines, ...prefixLines(body, indent, indent)];
  }
  const hint = resultHint(item);
  if (hint !== null) lines.push(truncateLine([...indent, { text: HINT_PREFIX, style: { dim: true } }, ...hint], width));
  return lines;
}

/**
 * One tool call: a compact line (status glyph, name, key argument, duration), the live tail of a
 * running command's output, and a one-line result hint; in detail mode the full result instead
 * (coloured diff, command output, list, todos, or the model-facing text), capped at ~200 lines.
 */
export function ToolRow({ item, options }: { item: ToolItem; options: ItemViewOptions }) {
  return <Text>{linesToString(toolRowLines(item, options), options.color)}</Text>;
}
