import { useInputAttached } from '../input/use-input-attached.js';
import { editLine } from '../input/typed-line.js';
import { Box, Text } from 'ink';
import { useLineInput } from '../input/use-line-input.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatAge } from '../../util/age.js';
import { sanitizeTerminalText } from '../markdown/ansi.js';
import { filterRows, type MemoryPanelSource, type MemoryRow } from '../state/memory.js';
import { ScrollText, scrollByKey } from './ScrollText.js';
import { fitRows } from '../state/live-layout.js';

const LIST_ROWS = 12;
/** Column titles; each column is as wide as its title. */
const SCORE_HEAD = 'score';
const RECALLS_HEAD = 'recalls';
const AGE_HEAD = ' age';
const DETAIL_ROWS = 18;

export interface MemoryPanelProps {
  source: MemoryPanelSource;
  width: number;
  color: boolean;
  active?: boolean;
  onClose: () => void;
  /** Rows the panel may take, border included (App's share of the screen); the list or text
   * shows fewer rows to fit. No limit when absent. */
  maxRows?: number;
}

interface PanelUi {
  rows?: MemoryRow[];
  error?: string;
  selected: number;
  /** `/` typing a search; the filter stays after Enter. */
  searching: boolean;
  query: string;
  /** Archiving: the reason being typed. */
  reason?: string;
  detail: boolean;
  scroll: number;
  message?: string;
  busy: boolean;
}

/**
 * `/memory`: the project's memory with score, recall count, age and flags, the archive below.
 * ↑↓ select · Enter the full entry · / search · p pin or unpin · a archive (type the reason) ·
 * r restore an archived entry · Esc back or close. Editing stays in `seek memory edit` ($EDITOR).
 */
export function MemoryPanel({ source, width, color, active = true, onClose, maxRows }: MemoryPanelProps) {
  // List: border, title, column titles, a status line, search, archive reason, message, key hints.
  const listRows = fitRows(maxRows, 10, LIST_ROWS);
  // Detail: border, title, key hints.
  const detailRows = fitRows(maxRows, 4, DETAIL_ROWS);
  const ui = useRef<PanelUi>({ selected: 0, searching: false, query: '', detail: false, scroll: 0, busy: false });
  const [, render] = useState(0);
  const update = useCallback((change: Partial<PanelUi>) => {
    ui.current = { ...ui.current, ...change };
    render((n) => n + 1);
  }, []);
  const reload = useCallback(async () => {
    try {
      update({ rows: await source.list(), error: undefined });
    } catch (error) {
      update({ error: (error as Error).message });
    }
  }, [source, update]);
  useEffect(() => void reload(), [reload]);

  const act = async (what: () => Promise<string>): Promise<void> => {
    update({ busy: true });
    try {
      const message = await what();
      await reload();
      update({ message, busy: false });
    } catch (error) {
      update({ message: (error as Error).message, busy: false });
    }
  };

  useLineInput(
    (input, key) => {
      const now = ui.current;
      if (now.busy) return;
      const shown = filterRows(now.rows ?? [], now.query);
      const row = shown[Math.min(now.selected, shown.length - 1)];
      if (now.reason !== undefined) {
        if (key.escape) return update({ reason: undefined, message: 'archive cancelled' });
        if (key.return) {
          if (!row || !now.reason.trim()) return update({ message: 'type why the entry no longer applies, then Enter' });
          const reason = now.reason;
          update({ reason: undefined });
          return void act(() => source.archive(row.name, reason));
        }
        return update({ reason: editLine(now.reason, input, key).text });
      }
      if (now.searching) {
        if (key.escape) return update({ searching: false, query: '', selected: 0 });
        if (key.return) return update({ searching: false });
        const query = editLine(now.query, input, key).text;
        if (query !== now.query) update({ query, selected: 0 });
        return;
      }
      if (now.detail) {
        if (key.escape || key.return) return update({ detail: false, scroll: 0 });
        const scroll = row ? scrollByKey(key, input, now.scroll, detailLines(row).length - 1, detailRows) : undefined;
        if (scroll !== undefined) update({ scroll });
        return;
      }
      const letter = key.ctrl || key.meta || key.paste ? '' : input.toLowerCase();
      if (key.escape) return now.query ? update({ query: '', selected: 0 }) : onClose();
      if (key.upArrow) return update({ selected: Math.max(0, now.selected - 1), message: undefined });
      if (key.downArrow) return update({ selected: Math.min(shown.length - 1, now.selected + 1), message: undefined });
      if (letter === '/') return update({ searching: true, message: undefined });
      if (!row) return;
      if (key.return) return update({ detail: true, scroll: 0, message: undefined });
      if (letter === 'p' && row.status !== 'archived') return void act(() => source.pin(row.name, !row.pinned));
      if (letter === 'a' && row.status !== 'archived') return update({ reason: '', message: undefined });
      if (letter === 'r' && row.status === 'archived') return void act(() => source.restore(row.name));
      if (letter === 'e') return update({ message: `edit it in your editor with: seek memory edit ${row.name}` });
    },
    { isActive: active },
  );
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const now = ui.current;
  const accent = color ? 'cyan' : undefined;
  const all = now.rows ?? [];
  const shown = filterRows(all, now.query);
  const selected = Math.max(0, Math.min(now.selected, shown.length - 1));
  const row = shown[selected];
  const counts = ['active', 'stale', 'archived'].map((status) => `${all.filter((r) => r.status === status).length} ${status}`).join(' · ');

  if (now.detail && row) {
    const [title = '', ...lines] = detailLines(row);
    return <ScrollText title={title} lines={lines} scroll={now.scroll} rows={detailRows} width={width} color={color} />;
  }

  const start = Math.max(0, Math.min(selected - Math.floor(listRows / 2), shown.length - listRows));
  const nameWidth = Math.min(28, Math.max(4, ...shown.map((r) => r.name.length)));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      <Text bold wrap="truncate-end">
        Project memory <Text dimColor>{counts}</Text>
      </Text>
      {now.error ? <Text color={color ? 'red' : undefined}>{now.error}</Text> : null}
      {now.rows === undefined && !now.error ? <Text dimColor>loading…</Text> : null}
      {now.rows !== undefined && shown.length === 0 ? <Text dimColor>{now.query ? `nothing matches "${now.query}"` : 'no memory entries in this project yet'}</Text> : null}
      {shown.length > 0 ? (
        <Text dimColor wrap="truncate-end">
          {'  '}
          {columnHeader(nameWidth)}
        </Text>
      ) : null}
      {shown.slice(start, start + listRows).map((item, offset) => {
        const isSelected = start + offset === selected;
        const flags = [item.pinned ? 'pinned' : '', item.status === 'stale' ? 'stale' : '', item.unconfirmed ? 'unconfirmed' : '', item.status === 'archived' ? 'archived' : ''].filter(Boolean).join(',');
        const score = (item.score === undefined ? '-' : item.score.toFixed(2)).padStart(SCORE_HEAD.length);
        return (
          <Text key={`${item.status}:${item.name}:${item.archivedAt ?? ''}`} wrap="truncate-end" bold={isSelected} dimColor={item.status !== 'active' && !isSelected}>
            {isSelected ? <Text color={accent}>❯ </Text> : '  '}
            {fit(item.name, nameWidth)} {score} {`${item.recalls}×`.padStart(RECALLS_HEAD.length)} {formatAge(item.createdAt).padStart(AGE_HEAD.length)} {flags ? `[${flags}] ` : ''}
            {clean(item.tagline)}
          </Text>
        );
      })}
      {now.searching || now.query ? <Text color={accent}>/{now.query}{now.searching ? '▏' : ''}</Text> : null}
      {now.reason !== undefined ? <Text color={color ? 'yellow' : undefined}>archive {row?.name}: why? {now.reason}▏ (enter archive · esc cancel)</Text> : null}
      {now.message ? <Text dimColor wrap="truncate-end">{now.message}</Text> : null}
      <Text dimColor wrap="truncate-end">
        ↑↓ select · enter show · / search · p pin · a archive · r restore · esc close
      </Text>
    </Box>
  );
}

/** Names the list's columns, aligned with its rows: the entry, its relevance score (1.00 is
 * fresh), how often it was recalled, how long ago it was made, and its flags and tagline. */
function columnHeader(nameWidth: number): string {
  return `${'name'.padEnd(nameWidth)} ${SCORE_HEAD} ${RECALLS_HEAD} ${AGE_HEAD} about`;
}

function detailLines(row: MemoryRow): string[] {
  const head = [`${row.name} — ${clean(row.tagline)}`];
  if (row.status === 'archived') head.push(`archived ${row.archivedAt?.slice(0, 10) ?? ''}: ${row.reason ?? ''}`);
  else head.push(`score ${row.score?.toFixed(2) ?? '-'} · recalled ${row.recalls}× · created ${row.createdAt.slice(0, 10)}${row.pinned ? ' · pinned' : ''}${row.status === 'stale' ? ' · stale' : ''}${row.unconfirmed ? ' · unconfirmed' : ''}`);
  if (row.tags.length > 0) head.push(`tags: ${row.tags.join(', ')}`);
  return [...head, '', ...sanitizeTerminalText(row.content).split('\n')];
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function clean(text: string): string {
  return sanitizeTerminalText(text).replace(/\s+/g, ' ');
}
