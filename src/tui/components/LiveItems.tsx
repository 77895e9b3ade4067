import { Text } from 'ink';
import { useMemo } from 'react';
import type { SubagentView } from '../state/subagents.js';
import type { ConversationItem, ItemViewOptions } from '../types.js';
import { itemRows } from './conversation/item-lines.js';

/** The rows of the live conversation items, unclipped (App sizes the live area with their count). */
export function liveRows(items: readonly ConversationItem[], options: ItemViewOptions, agentsOf: (item: ConversationItem) => readonly SubagentView[] | undefined): string[] {
  return items.flatMap((item) => itemRows(item, options, agentsOf(item)));
}

/** Clips rows to `maxRows`, newest kept: when some are left out, the first row says how many. */
export function clipRows(rows: readonly string[], maxRows: number): { marker?: string; shown: readonly string[] } {
  if (rows.length <= maxRows) return { shown: rows };
  if (maxRows <= 0) return { shown: [] };
  const shown = rows.slice(rows.length - (maxRows - 1));
  const hidden = rows.length - shown.length;
  return { marker: `↑ ${hidden} more line${hidden === 1 ? '' : 's'} (printed in full when finished)`, shown };
}

/**
 * The items of the current turn that can still change (a streaming answer, running tools and the
 * working rows of their subagents), clipped to `maxRows` so the live area never reaches the
 * terminal's height. What is clipped is not lost: every item is printed in full, once, when it
 * finishes (App's <Static>).
 */
export function LiveItems({ rows, maxRows }: { rows: readonly string[]; maxRows: number }) {
  const { marker, shown } = useMemo(() => clipRows(rows, maxRows), [rows, maxRows]);
  if (shown.length === 0) return null;
  return (
    <>
      {marker ? (
        <Text dimColor wrap="truncate-end">
          {marker}
        </Text>
      ) : null}
      <Text>{shown.join('\n')}</Text>
    </>
  );
}
