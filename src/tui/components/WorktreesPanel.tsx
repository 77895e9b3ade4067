import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { shortSubSid } from '../../subagents/result-format.js';
import { WorktreeError } from '../../worktree/errors.js';
import { formatAge } from '../../worktree/housekeeping.js';
import type { CleanupOutcome, WorktreeListing } from '../../worktree/types.js';
import { changesText, conflictLines, reselect, type WorktreePanelSource } from '../state/worktrees.js';
import { ScrollText, scrollByKey } from './ScrollText.js';
import { fitRows } from '../state/live-layout.js';

/** Rows of the list and of the diff or conflict view shown at once (the rest scrolls). */
const LIST_ROWS = 10;
const TEXT_ROWS = 16;

const PROBLEM_TEXT: Record<NonNullable<WorktreeListing['problem']>, string> = {
  missing_directory: 'missing directory: r drops its records',
  not_registered: 'not registered with git: r then d deletes the directory (no rescue possible)',
};

export interface WorktreesPanelProps {
  source: WorktreePanelSource;
  width: number;
  color: boolean;
  /** False while something else (a permission prompt) owns the keyboard. */
  active?: boolean;
  onClose: () => void;
  /** Rows the panel may take, border included (App's share of the screen); the list or text
   * shows fewer rows to fit. No limit when absent. */
  maxRows?: number;
  /** The clock for ages (tests). */
  now?: () => Date;
}

type Confirm = { action: 'merge' | 'remove' | 'discard'; id: string; unregistered?: boolean };
type Message = { text: string; level: 'info' | 'success' | 'error' };

interface PanelUi {
  /** Undefined while the first listing loads. */
  rows?: WorktreeListing[];
  selectedId?: string;
  confirm?: Confirm;
  /** An operation runs (keys wait). */
  busy?: string;
  /** The open diff or conflict report. */
  view?: { title: string; lines: string[]; scroll: number; style: 'diff' | 'conflict' };
  message?: Message;
}

/**
 * `/worktrees`: the project's seek worktrees with id, changes, owning subagent, age, branch and
 * path (problems marked `!`). Up/Down select; `d`/Enter opens the diff (since the commit it started
 * from, new files included; Esc back); `m` asks "merge? y/n" and merges (a conflict opens its report);
 * `r` asks "remove? y/n", and for uncommitted changes offers `d` to discard them (saved under
 * refs/seek/discarded/ first); Esc closes. The list is read again after every operation.
 */
export function WorktreesPanel({ source, width, color, active = true, onClose, now = () => new Date(), maxRows }: WorktreesPanelProps) {
  // List: border, title, column titles, the selected path, a wrapped message (2), key hints.
  const listRows = fitRows(maxRows, 8, LIST_ROWS);
  // Diff or conflicts: border, title, a wrapped message (2), key hints.
  const textRows = fitRows(maxRows, 6, TEXT_ROWS);
  const [ui, setUi] = usePanelState();
  const mounted = useRef(true);
  // The latest source, for async work started by an earlier render.
  const sourceRef = useRef(source);
  sourceRef.current = source;
  const update = useCallback(
    (change: Partial<PanelUi>) => {
      if (mounted.current) setUi(change);
    },
    [setUi],
  );

  /** Reads the list again; keeps the selection on its worktree. */
  const refresh = useCallback(async (): Promise<void> => {
    try {
      const rows = await sourceRef.current.list();
      update({ rows, selectedId: reselect(rows, ui.current.rows ?? [], ui.current.selectedId) });
    } catch (error) {
      update({ rows: ui.current.rows ?? [], message: { text: `cannot list worktrees: ${errorText(error)}`, level: 'error' } });
    }
  }, [update, ui]);

  // The list is read once when the panel opens, then after every operation.
  useEffect(() => {
    mounted.current = true;
    void refresh();
    return () => {
      mounted.current = false;
    };
  }, [refresh]);

  /** Runs an operation with the busy line, then shows its outcome and lists again. */
  const run = async (label: string, task: () => Promise<Partial<PanelUi>>): Promise<void> => {
    update({ busy: label, confirm: undefined, message: undefined });
    let after: Partial<PanelUi>;
    try {
      after = await task();
    } catch (error) {
      after = { message: { text: errorText(error), level: 'error' } };
    }
    await refresh();
    update({ busy: undefined, ...after });
  };

  const merge = (id: string) =>
    run(`merging ${id}…`, async () => {
      const outcome = await sourceRef.current.merge(id);
      if (outcome.kind !== 'merge_conflict') return { message: outcomeMessage(outcome, id) };
      return {
        message: { text: `merge of ${id} stopped on conflicts and was aborted; both trees are unchanged, the worktree is kept`, level: 'error' },
        view: { title: `merge conflict · ${id}`, lines: conflictLines(outcome), scroll: 0, style: 'conflict' },
      };
    });

  const remove = (id: string, discard: boolean) =>
    run(discard ? `discarding ${id}…` : `removing ${id}…`, async () => {
      try {
        return { message: outcomeMessage(await sourceRef.current.remove(id, { discard }), id) };
      } catch (error) {
        if (!(error instanceof WorktreeError) || (error.code !== 'dirty' && error.code !== 'not_registered')) throw error;
        // Changes appeared since the list was read: offer the discard (the count comes from the
        // list read again after this).
        return { confirm: { action: 'discard', id, unregistered: error.code === 'not_registered' } };
      }
    });

  const openDiff = (row: WorktreeListing) => {
    if (row.problem === 'missing_directory') return update({ message: { text: `no diff: the directory of ${row.id} is missing`, level: 'error' } });
    void run(`reading the diff of ${row.id}…`, async () => ({
      view: { title: `diff · ${row.id} (${row.branch})`, lines: await sourceRef.current.diff(row.path), scroll: 0, style: 'diff' },
    }));
  };

  const askRemove = (row: WorktreeListing) => {
    const dirty = (row.changes ?? 0) > 0 || row.problem === 'not_registered';
    const confirm: Confirm = { action: dirty ? 'discard' : 'remove', id: row.id, unregistered: row.problem === 'not_registered' };
    update({ confirm, message: undefined });
  };

  useLatestInput(
    (input, key) => {
      // Read the state of the latest key, not of the last render (keys typed faster than a frame).
      const state = ui.current;
      const letter = key.ctrl || key.meta ? '' : input.toLowerCase();
      if (state.busy) return;
      if (state.view) {
        const view = state.view;
        const scroll = scrollByKey(key, input, view.scroll, view.lines.length, textRows);
        if (key.escape) update({ view: undefined });
        else if (scroll !== undefined) update({ view: { ...view, scroll } });
        return;
      }
      if (state.confirm) {
        const { action, id } = state.confirm;
        if (action === 'merge' && letter === 'y') void merge(id);
        else if (action === 'remove' && letter === 'y') void remove(id, false);
        else if (action === 'discard' && letter === 'd') void remove(id, true);
        else if (letter === 'n' || key.escape) update({ confirm: undefined });
        return;
      }
      const rows = state.rows ?? [];
      const selected = Math.max(0, rows.findIndex((row) => row.id === state.selectedId));
      const current = rows[selected];
      if (key.escape) return onClose();
      if (key.upArrow) return update({ selectedId: rows[Math.max(0, selected - 1)]?.id, message: undefined });
      if (key.downArrow) return update({ selectedId: rows[Math.min(rows.length - 1, selected + 1)]?.id, message: undefined });
      if (!current) return;
      if (letter === 'd' || key.return) openDiff(current);
      else if (letter === 'm') update({ confirm: { action: 'merge', id: current.id }, message: undefined });
      else if (letter === 'r') askRemove(current);
    },
    { isActive: active },
  );
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const { rows, confirm, busy, view, message } = ui.current;
  const footer = busy ? (
    <Text dimColor>{busy}</Text>
  ) : confirm ? (
    <Text color={color ? 'yellow' : undefined} bold wrap="wrap">
      {confirmText(confirm, rows?.find((row) => row.id === confirm.id)?.changes)}
    </Text>
  ) : message ? (
    <Text color={color ? MESSAGE_COLOR[message.level] : undefined} wrap="wrap">
      {message.text}
    </Text>
  ) : null;

  if (view) {
    return <ScrollText title={view.title} lines={view.lines} scroll={view.scroll} rows={textRows} width={width} color={color} style={view.style} footer={footer} />;
  }

  const list = rows ?? [];
  const selected = Math.max(0, list.findIndex((row) => row.id === ui.current.selectedId));
  const start = Math.max(0, Math.min(selected - Math.floor(listRows / 2), list.length - listRows));
  const branchWidth = Math.min(32, Math.max(6, ...list.map((row) => row.branch.length)));
  const current = list[selected];
  const withChanges = list.filter((row) => (row.changes ?? 0) > 0).length;
  const problems = list.filter((row) => row.problem).length;
  const accent = color ? 'cyan' : undefined;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      <Text bold wrap="truncate-end">
        Worktrees{' '}
        <Text dimColor>
          {rows === undefined ? 'loading…' : `${list.length} · ${withChanges} with changes${problems > 0 ? ` · ${problems} with problems` : ''}`}
        </Text>
      </Text>
      {rows !== undefined && list.length === 0 ? <Text dimColor>no seek-managed worktrees in this project</Text> : null}
      {list.length > 0 ? (
        <Text dimColor wrap="truncate-end">
          {'  '}
          {'ID'.padEnd(22)} {'CHANGES'} {'OWNER '} {'AGE '} {'BRANCH'.padEnd(branchWidth)} PATH
        </Text>
      ) : null}
      {list.slice(start, start + listRows).map((row, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Text key={row.id} wrap="truncate-end" bold={isSelected}>
            {isSelected ? <Text color={accent}>❯ </Text> : '  '}
            {row.id.padEnd(22)}{' '}
            {row.problem ? <Text color={color ? 'red' : undefined}>{'!'.padEnd(7)}</Text> : String(row.changes ?? '-').padEnd(7)}{' '}
            {(row.ownerSubSid ? shortSubSid(row.ownerSubSid) : '-').padEnd(6)} {formatAge(row.createdAt, now()).padEnd(4)} {fit(row.branch, branchWidth)}{' '}
            <Text dimColor={!isSelected}>{row.path}</Text>
          </Text>
        );
      })}
      {current ? (
        <Text dimColor wrap="truncate-middle">
          {current.problem ? `! ${PROBLEM_TEXT[current.problem]}` : current.path}
        </Text>
      ) : null}
      {footer}
      <Text dimColor wrap="truncate-end">
        ↑↓ select · d diff · m merge · r remove · esc close
      </Text>
    </Box>
  );
}

const MESSAGE_COLOR: Record<Message['level'], string | undefined> = { info: undefined, success: 'green', error: 'red' };

function confirmText(confirm: Confirm, count: number | undefined): string {
  if (confirm.action === 'merge') return `merge ${confirm.id} into the current branch? y/n`;
  if (confirm.action === 'remove') return `remove ${confirm.id}? y/n`;
  if (confirm.unregistered) return `git no longer knows ${confirm.id}; its files cannot be rescued. d delete the directory · n keep`;
  const changes = count === undefined || count === 0 ? 'uncommitted changes' : `${changesText(count)}, uncommitted`;
  return `${confirm.id} has ${changes}. d discard them (saved under refs/seek/discarded/ first) · n keep`;
}

/** The line after an operation (a conflict opens its report instead). */
function outcomeMessage(outcome: CleanupOutcome, id: string): Message {
  switch (outcome.kind) {
    case 'merged':
      return { text: `merged ${outcome.branch} as ${outcome.commit.slice(0, 12)}; ${id} removed, its branch kept`, level: 'success' };
    case 'cleaned':
      return { text: `removed ${id} (it held no uncommitted work)`, level: 'success' };
    case 'discarded': {
      const ref = outcome.rescueRef;
      const saved = ref ? `; saved at ${ref}. Recover in a checkout: git restore --source=${ref} --worktree -- .  (one file: git show ${ref}:<path>)` : '';
      return { text: `discarded ${changesText(outcome.changes)} and removed ${id}${saved}`, level: 'success' };
    }
    case 'kept':
      return { text: outcome.result, level: 'info' };
    case 'merge_conflict':
    case 'failed':
      return { text: outcome.result, level: 'error' };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text.padEnd(width);
}

/** The panel's state in a ref that changes at once (key handlers read it), plus a re-render. */
function usePanelState(): [{ readonly current: PanelUi }, (change: Partial<PanelUi>) => void] {
  const ref = useRef<PanelUi>({});
  const [, render] = useState(0);
  const update = useCallback((change: Partial<PanelUi>) => {
    ref.current = { ...ref.current, ...change };
    render((count) => count + 1);
  }, []);
  return [ref, update];
}
