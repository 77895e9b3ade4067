import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text, useInput, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { approvalView, commandRows, previewRows, type ApprovalRow } from '../../frontends/approval.js';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../runtime/tool-gate.js';
import { textRows } from '../state/live-layout.js';
import { alwaysAnswer, DEFAULT_SAVE_FILES, scopeByKey, scopeChoices, scopeRowText, type SaveFiles } from '../state/rule-scopes.js';

const CHOICES: Array<{ answer: 'yes' | 'always' | 'no'; key: string; label: string }> = [
  { answer: 'yes', key: 'y', label: 'Yes' },
  { answer: 'always', key: 'a', label: 'Yes, and always, then choose where' },
  { answer: 'no', key: 'n', label: 'No (esc)' },
];

const SCOPE_HINT = '↑↓ enter · esc back to the question';

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
 * many lines are above and below; PgUp/PgDn (Home/End) scroll it. y / n answer at once; arrows
 * and Enter choose; Esc says no.
 * `a` (always) opens a second step that shows the rule again and asks where it goes, each file by
 * name: a (or s) this session only, l this project for me (`.seek/config.local.json`), p this
 * project for everyone (`.seek/config.json`), u me in every project (`~/.seek/config.json`); Esc
 * goes back to the first question. So `a a` is the old "always for this session".
 */
export function PermissionPrompt({
  request,
  onAnswer,
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
  const [scroll, setScroll] = useState(0);
  const terminalRows = useTerminalRows(rows);

  const view = approvalView(request);
  const inner = Math.max(10, width - 4); // border and padding
  const commandPart = view.command ? commandRows(view.command, inner) : [];
  const body: ApprovalRow[] = [...commandPart, ...(view.preview ? previewRows(view.preview, inner) : [])];
  const header = [view.asker, view.title, view.reason, ...pathLines(view.paths), ...view.notes.map((note) => `! ${note}`)];
  const alwaysRow = `  a) ${CHOICES[1]!.label} — adds ${view.rule ?? ''}`;
  const scopes = scopeChoices(files, 'a');
  const labelWidth = Math.max(...scopes.map((choice) => choice.label.length));
  const scopeHeader = `Yes, and always allow ${view.rule ?? ''} — for:`;
  const scopeRows = scopes.map((choice) => `  ${scopeRowText(choice, labelWidth)}`);
  const choiceRows = choosingScope
    ? rowsOf(scopeHeader, inner) + scopeRows.reduce((sum, text) => sum + rowsOf(text, inner), 0) + 1 // the hint
    : CHOICES.length - 1 + rowsOf(alwaysRow, inner); // y and n take a row each; "always" with its rule may wrap
  const fixedRows =
    2 + // border
    header.reduce((sum, text) => sum + rowsOf(text, inner), 0) +
    (view.cwd !== undefined ? rowsOf(`in ${view.cwd}`, inner) : 0) +
    2 + // the blank lines around the command or diff
    choiceRows;
  const budget = Math.max(MIN_BODY_ROWS, (maxRows ?? terminalRows - OUTSIDE_ROWS) - fixedRows);
  const windowed = body.length > budget;
  const shownCount = windowed ? Math.max(1, budget - 1) : body.length; // the window's hint takes a row
  const maxScroll = Math.max(0, body.length - shownCount);
  const top = Math.min(scroll, maxScroll);

  useInput((input, key) => {
    // Only a plain letter answers: Ctrl+A (line start) or Alt+Y typed out of habit must not.
    const letter = key.ctrl || key.meta ? '' : input.toLowerCase();
    if (key.pageDown) return setScroll(Math.min(maxScroll, top + shownCount));
    if (key.pageUp) return setScroll(Math.max(0, top - shownCount));
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
    const choose = (answer: (typeof CHOICES)[number]['answer']): void => {
      if (answer !== 'always') return onAnswer(answer);
      setScopeSelected(0);
      setChoosingScope(true);
    };
    const byKey = letter ? CHOICES.find((choice) => choice.key === letter) : undefined;
    if (byKey) return choose(byKey.answer);
    if (key.escape) return onAnswer('no');
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
        <Box flexDirection="column" marginY={1}>
          {shown.map((row, index) => (
            <Text key={top + index}>
              <Text dimColor>{row.gutter}</Text>
              <Text {...rowStyle(row, top + index < commandPart.length, color)}>{row.text === '' && row.gutter === '' ? ' ' : row.text}</Text>
            </Text>
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

/** The terminal's height, following resizes (24 when unknown); `override` wins when given. */
function useTerminalRows(override: number | undefined): number {
  const { stdout } = useStdout();
  const [rows, setRows] = useState(() => stdout.rows || 24);
  useEffect(() => {
    const onResize = () => setRows(stdout.rows || 24);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return override ?? rows;
}

function pathLines(paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  return paths.length === 1 ? [`path: ${paths[0]}`] : [`paths (${paths.length}):`, ...paths.map((path) => `  ${path}`)];
}

/** Rows a line of text takes once wrapped at `columns`, counted as high as a word wrap can take. */
function rowsOf(text: string | undefined, columns: number): number {
  return text === undefined ? 0 : textRows(text, columns);
}

function rowStyle(row: ApprovalRow, isCommand: boolean, color: boolean): { color?: string; bold?: boolean } {
  if (row.tone === 'header') return { bold: true };
  if (!color) return {};
  if (isCommand) return { color: 'cyan' };
  if (row.tone === 'added') return { color: 'green' };
  if (row.tone === 'removed') return { color: 'red' };
  return row.tone === 'hunk' ? { color: 'cyan' } : {};
}
