import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLineInput } from '../input/use-line-input.js';
import { useTerminalRows } from '../state/use-terminal-rows.js';
import { useRef, useState } from 'react';
import { approvalView, commandRows, previewRows } from '../../frontends/approval.js';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../policy/tool-gate.js';
import { lineToString, sanitizeTerminalText, type Line } from '../markdown/ansi.js';
import { editLine } from '../input/typed-line.js';
import { diffLines } from './conversation/diff-lines.js';
import { textRows } from '../state/live-layout.js';
import { alwaysAnswer, DEFAULT_SAVE_FILES, scopeByKey, scopeChoices, scopeRowText, type SaveFiles } from '../state/rule-scopes.js';

type Choice = 'yes' | 'always' | 'no' | 'tell';

const CHOICES: Array<{ answer: Choice; key: string; label: string }> = [
  { answer: 'yes', key: 'y', label: 'Yes' },
  { answer: 'always', key: 'a', label: 'Yes, and always, then choose where' },
  { answer: 'no', key: 'n', label: 'No (esc)' },
  { answer: 'tell', key: 't', label: 'No, and tell seek what to do differently' },
];

const SCOPE_HINT = '↑↓ enter · esc back to the question';
const TELL_HEADER = 'No, and tell seek what to do differently:';
const TELL_HINT = 'enter sends it with the "no" · esc back to the question';
/** Every "no" of this prompt ends the turn: the model gets the denial (and the words) and waits. */
const NO: AskAnswer = { decline: 'stop' };

/** Screen rows the prompt leaves to the rest of the UI: the pending call's row, the working line, the
 * status bar and one spare (once Ink's output reaches the terminal's height it redraws the whole
 * screen and the top of the prompt would scroll away). */
const OUTSIDE_ROWS = 4;
const MIN_BODY_ROWS = 3;

/**
 * Asks the user about one action, showing all of it (see frontends/approval.ts): which agent asks,
 * the reason, every path, the whole command (each line, wrapped, never cut) with its working
 * directory, or the diff of a write, and the rule "always" would add. Control characters and
 * escape sequences in any of it are shown escaped, so nothing can repaint the prompt.
 * When the command or diff is taller than the screen allows, it shows in a window that says how
 * many lines are above and below; PgUp/PgDn (Home/End) scroll it. A diff shows the old and new
 * line numbers and the changed words of each replaced line. y / n answer at once; arrows and Enter
 * choose; Esc says no. Every "no" ends the turn (the model waits for the user). `t` (no, and tell
 * seek what to do differently) opens a line to type on; Enter sends the denial with that text (it
 * reaches the model as the tool result), Esc goes back to the question.
 * A subagent working in a worktree says which tree the action reads or writes.
 * `a` (always) opens a second step that shows the rule again and asks where it goes, each file by
 * name: a (or s) this session only, l this project for me (`.seek/config.local.json`), p this
 * project for everyone (`.seek/config.json`), u me in every project (`~/.seek/config.json`); Esc
 * goes back to the first question. So `a a` is the old "always for this session".
 */
export function PermissionPrompt({
  request,
  onAnswer: answerOnce,
  width,
  color,
  rows,
  maxRows,
  files = DEFAULT_SAVE_FILES,
}: {
  request: PermissionRequest;
  onAnswer: (answer: AskAnswer) => void;
  width: number;
  color: boolean;
  /** Terminal height; the terminal's own (following resizes) when absent. */
  rows?: number;
  /** Rows the whole prompt may take, border included (App's share of the screen); when absent,
   * the terminal's height less the rows the rest of the UI needs. */
  maxRows?: number;
  /** The config files an "always" answer can save to, as shown. */
  files?: SaveFiles;
}) {
  /** Answered: the keys of the read that answered (`yn`) must not answer again. */
  const answered = useRef(false);
  const onAnswer = (answer: AskAnswer): void => {
    if (answered.current) return;
    answered.current = true;
    answerOnce(answer);
  };
  const [selected, setSelected] = useState(0);
  /** The second step of "always": where the rule goes. A ref as well, so a key typed right after
   * `a` (before the next render) already reaches the second step. */
  const [choosingScope, setScopeStep] = useState(false);
  const scopeStep = useRef(false);
  const setChoosingScope = (value: boolean): void => {
    scopeStep.current = value;
    setScopeStep(value);
  };
  const [scopeSelected, setScopeSelected] = useState(0);
  /** The "tell seek" step and its text, as refs too (keys typed faster than a frame). */
  const [telling, setTellingState] = useState(false);
  const tellStep = useRef(false);
  const setTelling = (value: boolean): void => {
    tellStep.current = value;
    setTellingState(value);
  };
  const [feedback, setFeedbackState] = useState('');
  const feedbackRef = useRef('');
  const setFeedback = (value: string): void => {
    feedbackRef.current = value;
    setFeedbackState(value);
  };
  const [scroll, setScroll] = useState(0);
  const realRows = useTerminalRows(); // the real height: Ink's stdout reports none (see withUnlimitedRows)
  const terminalRows = rows ?? realRows;

  const view = approvalView(request);
  const inner = Math.max(10, width - 4); // border and padding
  const body: Line[] = bodyLines(view, inner, color);
  const header = [view.asker, view.title, view.tree, view.reason, ...pathLines(view.paths), ...view.notes.map((note) => `! ${note}`)];
  const alwaysRow = `  a) ${CHOICES[1]!.label} — adds ${view.rule ?? ''}`;
  const scopes = scopeChoices(files, 'a');
  const labelWidth = Math.max(...scopes.map((choice) => choice.label.length));
  const scopeHeader = `Yes, and always allow ${view.rule ?? ''} — for:`;
  const scopeRows = scopes.map((choice) => `  ${scopeRowText(choice, labelWidth)}`);
  const choiceRows = choosingScope
    ? rowsOf(scopeHeader, inner) + scopeRows.reduce((sum, text) => sum + rowsOf(text, inner), 0) + 1 // the hint
    : telling
      ? 1 + rowsOf(`› ${feedback}▏`, inner) + rowsOf(TELL_HINT, inner)
      : CHOICES.length - 1 + rowsOf(alwaysRow, inner); // y, n, t take a row each; "always" with its rule may wrap
  const fixedRows =
    2 + // border
    header.reduce((sum, text) => sum + rowsOf(text, inner), 0) +
    (view.cwd !== undefined ? rowsOf(`in ${view.cwd}`, inner) : 0) +
    1 + // the blank line above the command or diff (the choices follow it directly: a row for the fourth choice)
    choiceRows;
  const budget = Math.max(MIN_BODY_ROWS, (maxRows ?? terminalRows - OUTSIDE_ROWS) - fixedRows);
  const windowed = body.length > budget;
  const shownCount = windowed ? Math.max(1, budget - 1) : body.length; // the window's hint takes a row
  const maxScroll = Math.max(0, body.length - shownCount);
  const top = Math.min(scroll, maxScroll);

  useLineInput((input, key) => {
    // Only a plain letter answers: Ctrl+A (line start) or Alt+Y typed out of habit must not.
    const letter = key.ctrl || key.meta || key.paste ? '' : input.toLowerCase();
    if (key.pageDown) return setScroll(Math.min(maxScroll, top + shownCount));
    if (key.pageUp) return setScroll(Math.max(0, top - shownCount));
    if (tellStep.current) {
      if (key.escape) return setTelling(false);
      if (key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return;
      // Keys one by one (those of one read too), a paste as one text: its line breaks are spaces.
      const edit = editLine(feedbackRef.current, input, key);
      if (edit.submit) return onAnswer(edit.text.trim() ? { decline: 'stop', feedback: sanitizeTerminalText(edit.text).trim() } : NO);
      if (edit.text !== feedbackRef.current) setFeedback(sanitizeTerminalText(edit.text));
      return;
    }
    if (key.home) return setScroll(0);
    if (key.end) return setScroll(maxScroll);
    if (scopeStep.current) {
      const byKey = letter ? scopeByKey(scopes, letter) : undefined;
      if (byKey) return onAnswer(alwaysAnswer(byKey.scope));
      if (key.escape) return setChoosingScope(false);
      if (key.upArrow) setScopeSelected((index) => (index + scopes.length - 1) % scopes.length);
      if (key.downArrow || key.tab) setScopeSelected((index) => (index + 1) % scopes.length);
      if (key.return) onAnswer(alwaysAnswer(scopes[scopeSelected]!.scope));
      return;
    }
    const choose = (answer: Choice): void => {
      if (answer === 'yes') return onAnswer('yes');
      if (answer === 'no') return onAnswer(NO);
      if (answer === 'tell') {
        setFeedback('');
        return setTelling(true);
      }
      setScopeSelected(0);
      setChoosingScope(true);
    };
    const byKey = letter ? CHOICES.find((choice) => choice.key === letter) : undefined;
    if (byKey) return choose(byKey.answer);
    if (key.escape) return onAnswer(NO);
    if (key.upArrow) setSelected((index) => (index + CHOICES.length - 1) % CHOICES.length);
    if (key.downArrow || key.tab) setSelected((index) => (index + 1) % CHOICES.length);
    if (key.return) choose(CHOICES[selected]!.answer);
  });
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const accent = color ? 'yellow' : undefined;
  const shown = body.slice(top, top + shownCount);
  const below = body.length - top - shown.length;
  const hasMiddle = body.length > 0 || view.cwd !== undefined;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      {view.asker ? <Text color={color ? 'blue' : undefined}>{view.asker}</Text> : null}
      <Text bold>{view.title}</Text>
      {view.tree ? <Text color={color ? 'magenta' : undefined} bold>{view.tree}</Text> : null}
      {view.reason ? <Text dimColor>{view.reason}</Text> : null}
      {pathLines(view.paths).map((line, index) => (
        <Text key={`p${index}`}>{line}</Text>
      ))}
      {view.notes.map((note) => (
        <Text key={note} color={color ? 'red' : undefined} bold>
          ! {note}
        </Text>
      ))}
      {hasMiddle ? (
        <Box flexDirection="column" marginTop={1}>
          {shown.map((row, index) => (
            <Text key={top + index}>{row.length === 0 ? ' ' : lineToString(row, color)}</Text>
          ))}
          {windowed ? (
            <Text color={accent} bold>
              rows {top + 1}–{top + shown.length} of {body.length}
              {top > 0 ? ` · ${top} above` : ''}
              {below > 0 ? ` · ${below} more below` : ''} · pgup/pgdn to scroll
            </Text>
          ) : null}
          {view.cwd !== undefined ? <Text dimColor>in {view.cwd}</Text> : null}
        </Box>
      ) : null}
      {choosingScope ? (
        <Box flexDirection="column" marginTop={hasMiddle ? 0 : 1}>
          <Text bold>{scopeHeader}</Text>
          {scopes.map((choice, index) => (
            <Text key={choice.scope} {...highlight(index === scopeSelected, color)}>
              {index === scopeSelected ? '❯ ' : '  '}
              {choice.key}) {choice.file ? choice.label.padEnd(labelWidth) : choice.label}
              {choice.file ? (
                <Text dimColor={index !== scopeSelected}>
                  {' '}— {choice.file}
                  {choice.note ? ` (${choice.note})` : ''}
                </Text>
              ) : null}
            </Text>
          ))}
          <Text dimColor>{SCOPE_HINT}</Text>
        </Box>
      ) : telling ? (
        <Box flexDirection="column" marginTop={hasMiddle ? 0 : 1}>
          <Text bold>{TELL_HEADER}</Text>
          <Text>
            <Text color={accent}>› </Text>
            {feedback}
            <Text inverse> </Text>
          </Text>
          <Text dimColor>{TELL_HINT}</Text>
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={hasMiddle ? 0 : 1}>
          {CHOICES.map((choice, index) => (
            <Text key={choice.answer} {...highlight(index === selected, color)}>
              {index === selected ? '❯ ' : '  '}
              {choice.key}) {choice.label}
              {choice.answer === 'always' && view.rule ? <Text dimColor> — adds {view.rule}</Text> : null}
            </Text>
          ))}
        </Box>
      )}
    </Box>
  );
}

function highlight(selected: boolean, color: boolean): { bold?: boolean; color?: string } {
  return selected ? { bold: true, ...(color ? { color: 'cyan' } : {}) } : {};
}


function pathLines(paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  return paths.length === 1 ? [`path: ${paths[0]}`] : [`paths (${paths.length}):`, ...paths.map((path) => `  ${path}`)];
}

/** Rows a line of text takes once wrapped at `columns`, counted as high as a word wrap can take. */
function rowsOf(text: string | undefined, columns: number): number {
  return text === undefined ? 0 : textRows(text, columns);
}

/** The command (cyan, under its `$ `/`> ` gutter), then the preview: a diff with old/new line
 * numbers and changed words marked, wrapped under its gutter (nothing cut); other text as rows. */
function bodyLines(view: ReturnType<typeof approvalView>, columns: number, color: boolean): Line[] {
  const command: Line[] = (view.command ? commandRows(view.command, columns) : []).map((row) => [
    { text: row.gutter, style: { dim: true } },
    { text: row.text, ...(color ? { style: { fg: 'cyan' } } : {}) },
  ]);
  if (!view.preview) return command;
  if (view.preview.kind === 'diff') {
    return [...command, ...diffLines(view.preview.lines.join('\n'), { width: columns, wrap: true, lineNumbers: true, words: true, hideFileHeaders: true })];
  }
  return [...command, ...previewRows(view.preview, columns).map((row): Line => (row.text === '' ? [] : [{ text: row.text }]))];
}
