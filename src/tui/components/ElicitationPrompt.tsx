import { Box, Text } from 'ink';
import { useLineInput, type LineInputKey } from '../input/use-line-input.js';
import { useMemo, useRef, useState } from 'react';
import { elicitationFields, formContent, initialDrafts, type Drafts, type ElicitationAnswer, type ElicitationField, type ElicitationRequest } from '../../mcp/elicitation.js';
import { useInputAttached } from '../input/use-input-attached.js';
import { editLine, type LineKey } from '../input/typed-line.js';
import { sanitizeTerminalText } from '../markdown/ansi.js';
import { wrapSegments } from '../markdown/width.js';
import { useTerminalRows } from '../state/use-terminal-rows.js';

const HINT = 'enter next · ↑↓ fields · ←→ choose · y/n · space picks · esc decline · ctrl+c cancel';
/** As PermissionPrompt: rows left to the rest of the UI when no maxRows is given. */
const OUTSIDE_ROWS = 4;
const MAX_MESSAGE_ROWS = 4;

/**
 * A form an MCP server asks the user to fill mid-call (elicitation, form mode): the server's name
 * and message, then one row per field with its default in place. Text and number fields take
 * typing (Backspace, Ctrl+U clears), booleans y/n (or space, ←→), choices ←→, multi-selects ←→ and
 * space. Enter moves to the next field and, on the last, accepts; a field that is not acceptable
 * (required and empty, out of range, not an email…) takes the focus with the reason, and nothing
 * is sent. Esc declines, Ctrl+C cancels. Whatever the server wrote is shown escaped. The field rows
 * show in a window around the focused one when the form is taller than `maxRows`.
 */
export function ElicitationPrompt({
  request,
  onAnswer,
  width,
  color,
  maxRows,
}: {
  request: ElicitationRequest;
  onAnswer: (answer: ElicitationAnswer) => void;
  width: number;
  color: boolean;
  /** Rows the whole prompt may take, border included; the terminal's height less the rest when absent. */
  maxRows?: number;
}) {
  const fields = useMemo(() => elicitationFields(request.requestedSchema), [request]);
  // Refs hold the form (keys typed faster than a frame must see each other); `redraw` shows it.
  const form = useRef({ drafts: initialDrafts(fields), focus: 0, cursor: 0, error: undefined as string | undefined, done: false });
  const [, setVersion] = useState(0);
  const redraw = (): void => setVersion((version) => version + 1);
  const terminalRows = useTerminalRows();

  const answer = (result: ElicitationAnswer): void => {
    if (form.current.done) return;
    form.current.done = true;
    onAnswer(result);
  };
  const moveTo = (index: number): void => {
    form.current.focus = Math.max(0, Math.min(fields.length - 1, index));
    form.current.cursor = 0;
  };
  const enter = (): void => {
    const state = form.current;
    if (state.focus < fields.length - 1) return moveTo(state.focus + 1);
    const result = formContent(fields, state.drafts);
    if ('content' in result) return answer({ action: 'accept', content: result.content });
    state.error = result.error;
    moveTo(fields.findIndex((field) => field.key === result.key));
  };

  // Keys come one by one, even those of one read ("\r\r", "\u007f\u007f7\r"), a paste as one text.
  const onKey = (input: string, key: LineInputKey): void => {
    const state = form.current;
    if (state.done) return;
    if (key.ctrl && input === 'c') return answer({ action: 'cancel' });
    if (key.escape) return answer({ action: 'decline' });
    const field = fields[state.focus];
    if (!field) return key.return ? enter() : undefined;
    state.error = undefined;
    if (key.return) enter();
    else if (key.upArrow || (key.shift && key.tab)) moveTo(state.focus - 1);
    else if (key.downArrow || key.tab) moveTo(state.focus + 1);
    else editField(field, state, input, key, enter);
    redraw();
  };
  useLineInput(onKey);
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const state = form.current;
  const inner = Math.max(10, width - 4);
  const accent = color ? 'magenta' : undefined;
  const message = clip(wrapSegments([{ text: clean(request.message) }], inner).map((line) => line.map((segment) => segment.text).join('')), MAX_MESSAGE_ROWS);
  const focused = fields[state.focus];
  const below = [focused?.description ? 1 : 0, state.error ? 1 : 0, 1].reduce((sum, rows) => sum + rows, 0);
  const budget = Math.max(1, (maxRows ?? terminalRows - OUTSIDE_ROWS) - 2 - 1 - message.length - below);
  const windowed = fields.length > budget;
  const shownCount = windowed ? Math.max(1, budget - 1) : fields.length; // the "n more" row
  const top = Math.max(0, Math.min(state.focus - Math.floor(shownCount / 2), fields.length - shownCount));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      <Text bold wrap="truncate-end">
        MCP server {clean(request.server)} asks:
      </Text>
      {message.map((line, index) => (
        <Text key={`m${index}`}>{line || ' '}</Text>
      ))}
      {fields.slice(top, top + shownCount).map((field, index) => {
        const at = top + index;
        const here = at === state.focus;
        return (
          <Text key={field.key} wrap="truncate-end" {...(here ? { bold: true, ...(color ? { color: 'cyan' } : {}) } : {})}>
            {here ? '❯ ' : '  '}
            {clean(field.label)}
            {field.required ? '*' : ''}: {fieldText(field, state.drafts[field.key], here, state.cursor)}
          </Text>
        );
      })}
      {windowed ? (
        <Text dimColor wrap="truncate-end">
          fields {top + 1}–{Math.min(fields.length, top + shownCount)} of {fields.length} · ↑↓ for the others
        </Text>
      ) : null}
      {focused?.description ? (
        <Text dimColor wrap="truncate-end">
          {'  '}
          {clean(focused.description)}
        </Text>
      ) : null}
      {state.error ? (
        <Text color={color ? 'red' : undefined} bold wrap="truncate-end">
          ! {state.error}
        </Text>
      ) : null}
      <Text dimColor wrap="truncate-end">
        {fields.length ? HINT : 'enter accept · esc decline · ctrl+c cancel'}
      </Text>
    </Box>
  );
}

interface FormState {
  drafts: Drafts;
  cursor: number;
}

/** A key on the focused field: typing, y/n, ←→ and space. */
function editField(field: ElicitationField, state: FormState, input: string, key: LineKey & { leftArrow: boolean; rightArrow: boolean }, enter: () => void): void {
  const draft = state.drafts[field.key];
  const set = (value: Drafts[string]): void => {
    state.drafts[field.key] = value;
  };
  if (field.kind === 'text' || field.kind === 'number' || field.kind === 'integer') {
    if (key.leftArrow || key.rightArrow) return;
    const edit = editLine(typeof draft === 'string' ? draft : '', input, key);
    set(sanitizeTerminalText(edit.text));
    if (edit.submit) enter();
    return;
  }
  if (key.paste) return; // a paste picks no choice
  if (field.kind === 'boolean') {
    const letter = input.toLowerCase();
    if (letter === 'y') set(true);
    else if (letter === 'n') set(false);
    else if (input === ' ' || key.leftArrow || key.rightArrow) set(draft !== true);
    return;
  }
  if (field.options.length === 0) return;
  if (field.kind === 'choice') {
    const step = key.leftArrow ? -1 : key.rightArrow || input === ' ' ? 1 : 0;
    if (step === 0) return;
    const at = field.options.findIndex((option) => option.value === draft);
    const next = at < 0 ? (step > 0 ? 0 : field.options.length - 1) : (at + step + field.options.length) % field.options.length;
    set(field.options[next]!.value);
    return;
  }
  // multi
  if (key.leftArrow) state.cursor = (state.cursor + field.options.length - 1) % field.options.length;
  else if (key.rightArrow) state.cursor = (state.cursor + 1) % field.options.length;
  else if (input === ' ') {
    const picked = Array.isArray(draft) ? draft : [];
    const value = field.options[state.cursor]!.value;
    set(picked.includes(value) ? picked.filter((item) => item !== value) : [...picked, value]);
  }
}

/** How a field's value shows on its row. */
function fieldText(field: ElicitationField, draft: Drafts[string], focused: boolean, cursor: number): string {
  if (field.kind === 'boolean') return `${draft === true ? 'yes' : draft === false ? 'no' : '—'}${focused ? ' (y/n)' : ''}`;
  if (field.kind === 'choice') {
    const label = clean(field.options.find((option) => option.value === draft)?.label ?? '—');
    return focused ? `‹ ${label} ›` : label;
  }
  if (field.kind === 'multi') {
    const picked = Array.isArray(draft) ? draft : [];
    return field.options
      .map((option, index) => `${focused && index === cursor ? '›' : ''}[${picked.includes(option.value) ? 'x' : ' '}] ${clean(option.label)}`)
      .join('  ');
  }
  const text = clean(typeof draft === 'string' ? draft : '');
  return focused ? `${text}▏` : text === '' ? '(empty)' : text;
}

function clean(text: string): string {
  return sanitizeTerminalText(text).replace(/[\r\n\t]+/g, ' ');
}

function clip(lines: string[], max: number): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max - 1), `${lines[max - 1]}…`];
}
