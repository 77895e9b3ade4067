/**
 * The prompt input: a multi-line editor with history, slash-command and @file completion and
 * paste placeholders. Behaviour lives in EditorController (testable without a terminal); this
 * component feeds it keys and draws its view.
 *
 * Keys (see key-bindings.ts for what each terminal actually sends):
 *   Enter submits; Alt+Enter, Ctrl+J, Shift+Enter (kitty protocol / modifyOtherKeys only) and a
 *   backslash before the cursor + Enter insert a newline. Ctrl+J is the one that works everywhere.
 *   Up/Down move between rows and walk the history past the first/last row; with the menu open
 *   they move the selection, Tab accepts, Enter accepts (and submits a complete slash command),
 *   Esc closes it (and, with no menu, goes to `onEscape`).
 *   Editing: ←/→, Alt/Ctrl+←/→ (Alt+B/F) by word, Home/End and Ctrl+A/E, Backspace, Delete,
 *   Ctrl+D, Ctrl+W and Alt+Backspace (word back), Alt+D (word forward), Ctrl+K, Ctrl+U.
 *   Ctrl+C clears the draft; on an empty prompt it goes to `onInterrupt`.
 *   Ctrl+V attaches the clipboard's image; a pasted path of an image file attaches the file.
 */
import { Box, Text, type DOMElement, type Key } from 'ink';
import { useLatestInput } from './use-latest-input.js';
import { useRawSequence } from './use-raw-sequence.js';
import { useCallback, useContext, useEffect, useLayoutEffect, useRef, useSyncExternalStore, type ReactElement } from 'react';
import { TerminalCursorContext, type CursorTarget } from '../terminal-cursor.js';
import type { Completer, InputHistory } from '../types.js';
import type { ToolImage } from '../../providers/types.js';
import type { ImageSource } from './image-attachments.js';
import { EditorController, type CompletionMenu, type EditorControllerOptions } from './editor-controller.js';
import { layoutRows, rowIndexAt, type VisualRow } from './text-layout.js';
import { TAB_WIDTH, nextBoundary, textWidth } from './text-width.js';

export interface InputEditorProps {
  /** The submitted text: trimmed, non-empty, paste placeholders expanded. The editor does not
   * record it in `history`; the caller does. */
  onSubmit(text: string, shown?: string, images?: ToolImage[]): void;
  /** Where attached images come from (Ctrl+V, a pasted path, `@shot.png`). */
  images?: ImageSource;
  /** A message for the user (an image that could not be attached). */
  onNotice?(text: string): void;
  history: InputHistory;
  completer: Completer;
  /** When false the editor is drawn dimmed, without a cursor, and ignores keys. */
  active: boolean;
  /** Total width in cells, prefix included. */
  width: number;
  placeholder?: string;
  /** Drawn before the first row; later rows are indented by its width. Default `› `. */
  prefix?: string;
  /** Esc with no completion menu open; return true if the parent consumed it (cancelled a run), or
   * text to put back into the input (queued prompts taken back). */
  onEscape?(empty: boolean): boolean | string;
  /** Ctrl+C on an empty prompt (Ctrl+C clears a draft first); returns as `onEscape`. */
  onInterrupt?(): boolean | string;
  /** The buffer's text after each change, as shown (paste placeholders not expanded). */
  onChange?(text: string): void;
  /** Rows shown at most; a longer text scrolls with the cursor. Default 20. */
  maxRows?: number;
  /** Text the editor starts with (read once, at mount). */
  initialText?: string;
  /** Completion menu entries shown at most (plus one row saying how many more). Default MENU_ROWS. */
  menuRows?: number;
}

/** Menu rows shown at most; the window follows the selection. */
export const MENU_ROWS = 8;
const DEFAULT_MAX_ROWS = 20;

export function InputEditor(props: InputEditorProps): ReactElement {
  const prefix = props.prefix ?? '› ';
  const indent = ' '.repeat(textWidth(prefix));
  const contentWidth = Math.max(1, props.width - indent.length);
  const options: EditorControllerOptions = {
    history: props.history,
    completer: props.completer,
    textWidth: contentWidth,
    onSubmit: props.onSubmit,
    ...(props.onEscape ? { onEscape: props.onEscape } : {}),
    ...(props.onInterrupt ? { onInterrupt: props.onInterrupt } : {}),
    ...(props.onChange ? { onChange: props.onChange } : {}),
    ...(props.images ? { images: props.images } : {}),
    ...(props.onNotice ? { onNotice: props.onNotice } : {}),
    ...(props.initialText ? { initialText: props.initialText } : {}),
  };
  const controllerRef = useRef<EditorController | null>(null);
  controllerRef.current ??= new EditorController(options);
  const controller = controllerRef.current;
  controller.setOptions(options);
  useEffect(() => () => controller.dispose(), [controller]);

  const rawSequence = useRawSequence();
  const handleInput = useCallback(
    (input: string, key: Key) => {
      const raw = rawSequence.current;
      rawSequence.current = undefined;
      controller.handleKey(input, key, raw);
    },
    [controller, rawSequence],
  );
  useLatestInput(handleInput, { isActive: props.active });

  const view = useSyncExternalStore(controller.subscribe, controller.getView);
  const { value, cursor } = view.editor;
  const dim = !props.active;
  // With the terminal's own cursor at the insertion point, no inverse cell is drawn (the two would
  // cancel out in terminals that draw the cursor by inverting the cell).
  const terminalCursor = useContext(TerminalCursorContext);
  const drawCursor = props.active && !terminalCursor;
  const box = useRef<DOMElement>(null);
  const rows = value === '' ? [] : layoutRows(value, contentWidth);
  const cursorRow = value === '' ? 0 : rowIndexAt(rows, cursor);
  const maxRows = Math.max(1, props.maxRows ?? DEFAULT_MAX_ROWS);
  const first = Math.min(Math.max(0, cursorRow - Math.floor(maxRows / 2)), Math.max(0, rows.length - maxRows));
  const cursorLine = value === '' ? 0 : (first > 0 ? 1 : 0) + cursorRow - first;
  const cursorColumn = indent.length + (value === '' ? 0 : textWidth(expandTabs(value.slice(rows[cursorRow]!.start, cursor))));
  useLayoutEffect(() => {
    if (!terminalCursor || !props.active) return;
    const target: CursorTarget = { box, row: cursorLine, column: cursorColumn };
    terminalCursor.setTarget(target);
    return () => terminalCursor.release(target);
  }, [terminalCursor, props.active, cursorLine, cursorColumn]);

  if (value === '') {
    const hint = props.placeholder ?? '';
    return (
      <Box ref={box} flexDirection="column" width={props.width}>
        <Text wrap="truncate-end" dimColor={dim}>
          {prefix}
          {drawCursor ? <Text inverse>{hint.slice(0, 1) || ' '}</Text> : null}
          <Text dimColor>{drawCursor ? hint.slice(1) : hint}</Text>
        </Text>
        {props.active && view.menu ? <MenuView menu={view.menu} indent={indent} width={props.width} rows={props.menuRows ?? MENU_ROWS} /> : null}
      </Box>
    );
  }

  const shown = rows.slice(first, first + maxRows);
  const hiddenBelow = rows.length - first - shown.length;

  return (
    <Box ref={box} flexDirection="column" width={props.width}>
      {first > 0 ? <Text dimColor>{`${indent}↑ ${first} more ${first === 1 ? 'row' : 'rows'}`}</Text> : null}
      {shown.map((row, index) => (
        <Text key={first + index} wrap="truncate-end" dimColor={dim}>
          {first + index === 0 ? prefix : indent}
          <RowText value={value} row={row} cursor={drawCursor && first + index === cursorRow ? cursor : null} />
        </Text>
      ))}
      {hiddenBelow > 0 ? <Text dimColor>{`${indent}↓ ${hiddenBelow} more ${hiddenBelow === 1 ? 'row' : 'rows'}`}</Text> : null}
      {props.active && view.menu ? <MenuView menu={view.menu} indent={indent} width={props.width} rows={props.menuRows ?? MENU_ROWS} /> : null}
    </Box>
  );
}

/** One row's text, with the cursor drawn as an inverse cell when it is on this row. */
function RowText(props: { value: string; row: VisualRow; cursor: number | null }): ReactElement {
  const { value, row, cursor } = props;
  if (cursor === null) return <>{expandTabs(value.slice(row.start, row.end))}</>;
  const atEnd = cursor >= row.end;
  const cellEnd = atEnd ? cursor : nextBoundary(value, cursor);
  let cell = atEnd ? ' ' : value.slice(cursor, cellEnd);
  let rest = value.slice(cellEnd, row.end);
  if (cell === '\t') {
    cell = ' ';
    rest = ' '.repeat(TAB_WIDTH - 1) + rest;
  }
  return (
    <>
      {expandTabs(value.slice(row.start, cursor))}
      <Text inverse>{cell}</Text>
      {expandTabs(rest)}
    </>
  );
}

/** The completion menu: a window of `rows` entries that follows the selection, and one row under
 * it naming how many entries are above and below the window (absent when all fit). */
function MenuView(props: { menu: CompletionMenu; indent: string; width: number; rows: number }): ReactElement {
  const { items, selected } = props.menu;
  const rows = Math.max(1, props.rows);
  const first = Math.min(Math.max(0, selected - rows + 1), Math.max(0, items.length - rows));
  const shown = items.slice(first, first + rows);
  const below = items.length - first - shown.length;
  const more = [first > 0 ? `↑ ${first} more` : '', below > 0 ? `↓ ${below} more` : ''].filter(Boolean).join(' · ');
  const labels = shown.map((item) => item.label ?? item.value);
  const labelWidth = Math.min(Math.max(...labels.map(textWidth)), Math.floor(props.width / 2));
  return (
    <Box flexDirection="column">
      {shown.map((item, index) => {
        const isSelected = first + index === selected;
        const label = labels[index]!;
        const padding = ' '.repeat(Math.max(0, labelWidth - textWidth(label)));
        return (
          <Text key={`${first + index}:${item.value}`} wrap="truncate-end">
            {props.indent}
            <Text inverse={isSelected} color={isSelected ? 'cyan' : undefined}>
              {label}
            </Text>
            {item.description ? <Text dimColor>{`${padding}  ${item.description}`}</Text> : null}
          </Text>
        );
      })}
      {more ? <Text dimColor wrap="truncate-end">{`${props.indent}${more}`}</Text> : null}
    </Box>
  );
}

function expandTabs(text: string): string {
  return text.includes('\t') ? text.replaceAll('\t', ' '.repeat(TAB_WIDTH)) : text;
}
