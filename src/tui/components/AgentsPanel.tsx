import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useCallback, useRef, useState } from 'react';
import { formatCost, formatTokens } from '../../cost/format.js';
import { shortSubSid } from '../../subagents/result-format.js';
import { lineToString, sanitizeTerminalText, type Line } from '../markdown/ansi.js';
import { wrapSegments } from '../markdown/width.js';
import { count } from './conversation/text-blocks.js';
import { newestFirst, type SubagentsState, type SubagentView } from '../state/subagents.js';
import { PlanGraph } from './PlanGraph.js';
import { PathLine, pathRows as transcriptPathRows } from './file-link.js';

/** Rows of the list and of a transcript shown at once (the rest scrolls); fewer when `maxRows`
 * leaves less room. */
const LIST_ROWS = 10;
const TRANSCRIPT_ROWS = 16;
/** Rows of the list view besides the list and the plan: border (2), title, footer, key hints. */
const LIST_CHROME = 5;
/** Rows of the transcript view besides the transcript: border (2), title, description, footer,
 * key hints (the transcript's path under the box is counted apart). */
const TRANSCRIPT_CHROME = 6;
/** Transcript rows kept at least before the transcript's path is printed under the box. */
const MIN_TRANSCRIPT_ROWS = 3;
/** Rows a plan keeps at least beside the list: its heading, one task and the "more" row. */
const PLAN_MIN_ROWS = 3;

const STATUS_COLOR: Record<SubagentView['status'], string> = { running: 'cyan', completed: 'green', failed: 'red', killed: 'yellow' };

export interface AgentsPanelProps {
  /** Live: the panel re-renders as children stream, so a transcript follows its child. */
  state: SubagentsState;
  width: number;
  color: boolean;
  /** False while something else (a permission prompt) owns the keyboard. */
  active?: boolean;
  /** Stops a running child (AgentSession.killSubagent); false when it no longer runs. */
  onKill: (subSid: string) => boolean;
  onClose: () => void;
  /** Rows the panel may take, border and the transcript's path under it included (App's share of
   * the screen); the list, the plan and the transcript show fewer rows to fit. No limit when absent. */
  maxRows?: number;
}

/**
 * `/agents`: this session's children, newest first, with type, status, turns, tokens, cost and
 * description. Up/Down select; Enter opens the selected child's live transcript (Esc back): every
 * line of it wrapped (a long answer is read in full), ↑↓ a row, PgUp/PgDn a page, Home/End the
 * ends; a finished child's transcript file is printed whole on its own line under the box, where
 * it can be copied (never broken by seek; a `file://` link where links are on). `k` asks
 * "kill <id>? y/n" and `y` stops it; Esc closes.
 */
export function AgentsPanel({ state, width, color, active = true, onKill, onClose, maxRows }: AgentsPanelProps) {
  const rows = newestFirst(state);
  const [ui, setUi] = usePanelState(rows[0]?.subSid);
  const { confirm, message, scroll } = ui.current;
  const view = (now: PanelUi, list = rows) => {
    // Selection and the open transcript follow a child by id: new children push rows down.
    const selected = Math.max(0, list.findIndex((child) => child.subSid === now.selectedSid));
    const shown = now.viewing ? list.find((child) => child.subSid === now.viewing) : undefined;
    return { selected, current: list[selected], shown };
  };
  const { selected, shown } = view(ui.current);

  const askKill = (child: SubagentView | undefined) => {
    if (!child) return;
    if (child.status !== 'running') return setUi({ message: `${shortSubSid(child.subSid)} already ${child.status}` });
    setUi({ message: undefined, confirm: child.subSid });
  };

  useLatestInput(
    (input, key) => {
      // Read the state of the latest key, not of the last render: keys typed faster than a frame
      // (k then y, y then Esc) each see what the one before did.
      const now = ui.current;
      const { selected, current, shown } = view(now, rows);
      const letter = key.ctrl || key.meta ? '' : input.toLowerCase();
      if (now.confirm) {
        if (letter === 'y') setUi({ message: onKill(now.confirm) ? `stopping ${shortSubSid(now.confirm)}…` : `${shortSubSid(now.confirm)} is not running` });
        if (letter === 'y' || letter === 'n' || key.escape) setUi({ confirm: undefined });
        return;
      }
      if (shown) {
        const { window } = transcriptWindow(shown, width, maxRows);
        const top = Math.max(0, transcriptRows(shown, width).length - window);
        const up = (by: number) => setUi({ scroll: Math.max(0, Math.min(top, now.scroll + by)) });
        const page = Math.max(1, window - 1);
        if (key.escape) setUi({ viewing: undefined, scroll: 0, message: undefined });
        else if (key.upArrow) up(1);
        else if (key.downArrow) up(-1);
        else if (key.pageUp) up(page);
        else if (key.pageDown) up(-page);
        else if (key.home) up(top);
        else if (key.end) up(-top);
        else if (letter === 'k') askKill(shown);
        return;
      }
      if (key.escape) return onClose();
      if (key.upArrow) return setUi({ selectedSid: rows[Math.max(0, selected - 1)]?.subSid });
      if (key.downArrow) return setUi({ selectedSid: rows[Math.min(rows.length - 1, selected + 1)]?.subSid });
      if (key.return && current) return setUi({ viewing: current.subSid, selectedSid: current.subSid, scroll: 0, message: undefined });
      if (letter === 'k') askKill(current);
    },
    { isActive: active },
  );
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const accent = color ? 'cyan' : undefined;
  const footer = confirm ? (
    <Text color={color ? 'yellow' : undefined} bold>
      kill {shortSubSid(confirm)}? y/n
    </Text>
  ) : message ? (
    <Text dimColor wrap="truncate-end">
      {message}
    </Text>
  ) : null;

  if (shown) {
    const all = transcriptRows(shown, width);
    const { window, path } = transcriptWindow(shown, width, maxRows);
    const top = Math.max(0, all.length - window);
    const up = Math.min(scroll, top);
    const end = all.length - up;
    const lines = all.slice(Math.max(0, end - window), end);
    const above = end - lines.length;
    return (
      <Box flexDirection="column" width={width}>
        <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
          <Text bold wrap="truncate-end">
            {shown.type} {shortSubSid(shown.subSid)} · {statusText(shown)} · {count(shown.turns, 'turn')} · {formatCost(shown.costUsd, shown.costKnown ?? true)}
          </Text>
          <Text dimColor wrap="truncate-end">
            {clean(shown.description)}
          </Text>
          {lines.length === 0 ? <Text dimColor>nothing yet</Text> : null}
          {lines.map((line, index) => (
            <Text key={`${above + index}`}>{line.length === 0 ? ' ' : lineToString(line, color)}</Text>
          ))}
          {footer}
          <Text dimColor wrap="truncate-end">
            esc back · ↑↓ scroll{all.length > window ? ' · pgup/pgdn page' : ''}
            {above > 0 ? ` · ${above} above` : ''}
            {up > 0 ? ` · ${up} below` : ''}
            {shown.status === 'running' ? ' · k kill' : ''}
          </Text>
        </Box>
        {path ? (
          <>
            <Text dimColor>full transcript:</Text>
            <PathLine file={shown.transcriptPath!} width={width} color={color} />
          </>
        ) : null}
      </Box>
    );
  }

  const latestPlan = state.plans.at(-1);
  const { listRows, planTaskRows } = listWindow(rows.length, latestPlan ? latestPlan.tasks.length : undefined, maxRows);
  const start = Math.max(0, Math.min(selected - Math.floor(listRows / 2), rows.length - listRows));
  const columns = columnWidths(rows);
  const running = rows.filter((child) => child.status === 'running').length;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      <Text bold wrap="truncate-end">
        Subagents{' '}
        <Text dimColor>
          {rows.length} · {running} running
        </Text>
      </Text>
      {latestPlan ? <PlanGraph plan={latestPlan} width={width} color={color} {...(planTaskRows === undefined ? {} : { maxTaskRows: planTaskRows })} /> : null}
      {rows.length === 0 ? <Text dimColor>no subagents in this session yet</Text> : null}
      {rows.slice(start, start + listRows).map((child, offset) => {
        const isSelected = start + offset === selected;
        const [id, type, status, numbers] = cells(child, columns);
        return (
          <Text key={child.subSid} wrap="truncate-end" bold={isSelected}>
            {isSelected ? <Text color={accent}>❯ </Text> : '  '}
            {id} {type} <Text color={color ? STATUS_COLOR[child.status] : undefined}>{status}</Text> {numbers}{' '}
            <Text dimColor={!isSelected}>{clean(child.description)}</Text>
          </Text>
        );
      })}
      {footer}
      <Text dimColor wrap="truncate-end">
        ↑↓ select · enter transcript · k kill · esc close
      </Text>
    </Box>
  );
}

interface PanelUi {
  selectedSid?: string;
  viewing?: string;
  /** The child a "kill? y/n" question is about. */
  confirm?: string;
  message?: string;
  /** Lines scrolled up from the transcript's end (0 follows the live end). */
  scroll: number;
}

/** The panel's state in a ref that changes at once (key handlers read it), plus a re-render. */
function usePanelState(firstSid: string | undefined): [{ readonly current: PanelUi }, (change: Partial<PanelUi>) => void] {
  const ref = useRef<PanelUi>({ scroll: 0, ...(firstSid ? { selectedSid: firstSid } : {}) });
  const [, render] = useState(0);
  const update = useCallback((change: Partial<PanelUi>) => {
    ref.current = { ...ref.current, ...change };
    render((count) => count + 1);
  }, []);
  return [ref, update];
}

/** Transcript rows shown at once (`window`): TRANSCRIPT_ROWS, or what `maxRows` leaves beside the
 * box's other rows, at least one. A finished child's transcript path is printed under the box
 * (`path`; a long one wraps) while MIN_TRANSCRIPT_ROWS still fit beside it, else left out. */
function transcriptWindow(child: SubagentView, width: number, maxRows: number | undefined): { window: number; path: boolean } {
  const hasPath = Boolean(child.transcriptPath) && child.status !== 'running';
  if (maxRows === undefined) return { window: TRANSCRIPT_ROWS, path: hasPath };
  const space = maxRows - TRANSCRIPT_CHROME;
  const pathRows = hasPath ? 1 + transcriptPathRows(child.transcriptPath!, width) : 0;
  const path = hasPath && space - pathRows >= MIN_TRANSCRIPT_ROWS;
  return { window: Math.max(1, Math.min(TRANSCRIPT_ROWS, space - (path ? pathRows : 0))), path };
}

/** Rows of the list (the "no subagents" line when empty) and task rows of the plan graph above it
 * (undefined: all of them). The list comes first; the plan keeps its heading and a task row at
 * least, and takes what the list leaves. */
function listWindow(children: number, planTasks: number | undefined, maxRows: number | undefined): { listRows: number; planTaskRows?: number } {
  if (maxRows === undefined) return { listRows: LIST_ROWS };
  const space = maxRows - LIST_CHROME;
  const wanted = Math.max(1, Math.min(LIST_ROWS, children));
  if (planTasks === undefined) return { listRows: Math.max(1, Math.min(LIST_ROWS, space)) };
  const plan = Math.min(1 + planTasks, Math.max(PLAN_MIN_ROWS, space - wanted));
  return { listRows: Math.max(1, Math.min(LIST_ROWS, space - plan)), planTaskRows: Math.max(1, plan - 1) };
}

const TOOL_GLYPH = { running: ['⋯', 'cyan'], error: ['✗', 'red'], done: ['✓', 'green'] } as const;

/** The child's transcript as screen rows: each line word-wrapped at the box's width (nothing cut),
 * tool lines after their status glyph, errors red, notes dim. */
function transcriptRows(child: SubagentView, width: number): Line[] {
  const columns = Math.max(10, width - 4);
  const rows: Line[] = [];
  for (const line of child.transcript) {
    const text = clean(line.text);
    let head: Line;
    if (line.kind === 'tool') {
      const [glyph, tint] = TOOL_GLYPH[line.status ?? 'done'];
      head = [{ text: glyph, style: { fg: tint } }, { text: ` ${text}` }];
    } else if (line.kind === 'error') head = [{ text: `✗ ${text}`, style: { fg: 'red' } }];
    else if (line.kind === 'info') head = [{ text: `· ${text}`, style: { dim: true } }];
    else head = text === '' ? [] : [{ text }];
    rows.push(...(head.length === 0 ? [[]] : wrapSegments(head, columns)));
  }
  return rows;
}

/** `running`, `completed`, `failed: timeout`, `killed`. */
function statusText(child: SubagentView): string {
  return child.status === 'failed' && child.reason ? `failed: ${child.reason}` : child.status;
}

interface Columns {
  type: number;
  status: number;
  numbers: number;
}

function numbersOf(child: SubagentView): string {
  const tokens = `${formatTokens(child.inputTokens + child.outputTokens)} tok`;
  return `${`${child.turns}t`.padStart(3)} ${tokens.padStart(8)} ${formatCost(child.costUsd, child.costKnown ?? true).padStart(7)}`;
}

/** Column widths from the rows shown, capped so the description keeps room at 80 columns. */
function columnWidths(rows: readonly SubagentView[]): Columns {
  const widest = (values: string[], cap: number) => Math.min(cap, Math.max(0, ...values.map((value) => value.length)));
  return {
    type: widest(rows.map((child) => child.type), 16),
    status: widest(rows.map(statusText), 24),
    numbers: widest(rows.map(numbersOf), 24),
  };
}

function cells(child: SubagentView, columns: Columns): [string, string, string, string] {
  return [shortSubSid(child.subSid), fit(child.type, columns.type), fit(statusText(child), columns.status), numbersOf(child).padEnd(columns.numbers)];
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text.padEnd(width);
}

/** Model text and descriptions on one safe line. */
function clean(text: string): string {
  return sanitizeTerminalText(text).replace(/\t/g, '    ').replace(/\n/g, ' ');
}
