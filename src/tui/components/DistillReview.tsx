import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useRef, useState } from 'react';
import { cleanInput, EntryInputError, type EntryInput } from '../../memory/entry.js';
import { sanitizeTerminalText } from '../markdown/ansi.js';
import { InputEditor } from '../input/InputEditor.js';
import type { Completer, InputHistory } from '../types.js';
import { fitRows } from '../state/live-layout.js';
import { wrapSegments } from '../markdown/width.js';

export interface DistillReviewProps {
  candidates: readonly EntryInput[];
  width: number;
  color: boolean;
  /** Saves one approved candidate (throws with what went wrong). */
  onSave: (candidate: EntryInput) => Promise<void>;
  /** The review ended: its one-line summary. */
  onDone: (summary: string) => void;
  /** Rows the review may take, border included; the content shows fewer rows to fit. */
  maxRows?: number;
}

interface ReviewUi {
  index: number;
  current: EntryInput;
  editing: boolean;
  saved: number;
  dropped: number;
  message?: string;
  busy: boolean;
}

const NO_HISTORY: InputHistory = { entries: () => [], add: () => undefined };
const NO_COMPLETION: Completer = { slash: () => [], files: () => [] };
const CONTENT_ROWS = 14;

/**
 * `/distill` review, one candidate at a time: y saves it, n drops it, e edits its content (Enter
 * keeps the edit, an empty text drops the candidate, Esc goes back), q or Esc stops (the rest are
 * skipped). Nothing is saved without a y.
 */
export function DistillReview({ candidates, width, color, onSave, onDone, maxRows }: DistillReviewProps) {
  // Border, title, tagline, tags, the gap above the content, "more lines", message, key hints;
  // the editor's ↑/↓ markers when editing.
  const contentRows = fitRows(maxRows, 10, CONTENT_ROWS);
  const ui = useRef<ReviewUi>({ index: 0, current: candidates[0]!, editing: false, saved: 0, dropped: 0, busy: false });
  const [, render] = useState(0);
  const update = (change: Partial<ReviewUi>): void => {
    ui.current = { ...ui.current, ...change };
    render((n) => n + 1);
  };
  const summary = (skipped: number): string => {
    const { saved, dropped } = ui.current;
    return `distill review done: ${saved} saved, ${dropped} dropped${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  };
  const next = (change: Partial<ReviewUi>): void => {
    const index = ui.current.index + 1;
    update({ ...change, index, editing: false, message: undefined, busy: false });
    if (index >= candidates.length) onDone(summary(0));
    else update({ current: candidates[index]! });
  };

  useLatestInput(
    (input, key) => {
      const now = ui.current;
      if (now.busy || now.index >= candidates.length) return;
      const letter = key.ctrl || key.meta ? '' : input.toLowerCase();
      if (letter === 'y') {
        update({ busy: true });
        onSave(now.current).then(
          () => next({ saved: ui.current.saved + 1 }),
          (error: unknown) => update({ busy: false, message: `not saved: ${(error as Error).message}` }),
        );
      } else if (letter === 'n') next({ dropped: now.dropped + 1 });
      else if (letter === 'e') update({ editing: true, message: undefined });
      else if (letter === 'q' || key.escape) onDone(summary(candidates.length - now.index));
    },
    { isActive: !ui.current.editing },
  );
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const now = ui.current;
  if (now.index >= candidates.length) return null;
  const candidate = now.current;
  const accent = color ? 'magenta' : undefined;
  // Wrapped here, so the rows shown are the rows counted.
  const content = wrapSegments([{ text: sanitizeTerminalText(candidate.content) }], Math.max(1, width - 4)).map((line) => line.map((segment) => segment.text).join(''));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      <Text bold color={accent} wrap="truncate-end">
        ⚡ distill candidate {now.index + 1}/{candidates.length}: {candidate.name}
      </Text>
      <Text wrap="truncate-end">{sanitizeTerminalText(candidate.tagline)}</Text>
      {candidate.tags?.length ? <Text dimColor>tags: {candidate.tags.join(', ')}</Text> : null}
      {now.editing ? (
        <InputEditor
          initialText={candidate.content}
          onSubmit={(text) => {
            if (!text.trim()) return next({ dropped: ui.current.dropped + 1 });
            try {
              update({ current: cleanInput({ ...candidate, content: text }), editing: false, message: 'edited: y saves it' });
            } catch (error) {
              if (!(error instanceof EntryInputError)) throw error;
              update({ message: error.message });
            }
          }}
          onEscape={() => {
            update({ editing: false });
            return true;
          }}
          history={NO_HISTORY}
          completer={NO_COMPLETION}
          active
          width={width - 4}
          prefix="✎ "
          maxRows={contentRows}
        />
      ) : (
        <Box flexDirection="column" marginTop={1}>
          {content.slice(0, contentRows).map((line, index) => (
            <Text key={index}>
              {line === '' ? ' ' : line}
            </Text>
          ))}
          {content.length > contentRows ? <Text dimColor>… {content.length - contentRows} more lines (e shows them all)</Text> : null}
        </Box>
      )}
      {now.message ? <Text dimColor>{now.message}</Text> : null}
      <Text dimColor wrap="truncate-end">
        {now.editing ? 'enter keep the edit (empty drops it) · alt+enter new line · esc back' : 'y save · n drop · e edit · q stop'}
      </Text>
    </Box>
  );
}
