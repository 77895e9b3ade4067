import { useInputAttached } from '../input/use-input-attached.js';
import { Box, Text } from 'ink';
import { useLineInput } from '../input/use-line-input.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { editLine } from '../input/typed-line.js';
import { visible } from '../../frontends/approval.js';
import { seekToolNames } from '../../tools/tool-names.js';
import { parseRuleText } from '../../policy/rule-syntax.js';
import type { PolicyRule, RuleDecision } from '../../policy/types.js';
import { permissionEntries, type PermissionEntry, type PermissionsPanelSource } from '../state/permissions.js';
import { displayPath, scopeByKey, scopeChoices, type SaveFiles } from '../state/rule-scopes.js';
import { fitRows } from '../state/live-layout.js';

const LIST_ROWS = 12;
const DECISIONS: readonly RuleDecision[] = ['allow', 'ask', 'deny'];
const EXAMPLES = 'e.g. Bash(npm test:*) · Edit(src/**) · Read(./.env) · bash(npm test) · write_file(src/**)';

export interface PermissionsPanelProps {
  source: PermissionsPanelSource;
  /** The config files as shown (see rule-scopes.ts). */
  files: SaveFiles;
  projectRoot: string;
  width: number;
  color: boolean;
  active?: boolean;
  onClose: () => void;
  /** Rows the panel may take, border included (App's share of the screen); the list or text
   * shows fewer rows to fit. No limit when absent. */
  maxRows?: number;
}

interface AddForm {
  step: 'text' | 'scope';
  decision: RuleDecision;
  text: string;
  error?: string;
  scopeSelected: number;
}

interface PanelUi {
  /** Undefined until the config files were read once. */
  heldBack?: PolicyRule[];
  /** The config files could not be read (the list then shows the live policy only). */
  problem?: string;
  selectedKey?: string;
  add?: AddForm;
  confirm?: PermissionEntry;
  message?: { text: string; level: 'info' | 'success' | 'error' };
  busy?: string;
}

/**
 * `/permissions`: every rule in effect with its decision, text and source (this session, or the
 * config file), the project's allow rules held back until it is trusted, the mode and the OS
 * sandbox. ↑↓ (PgUp/PgDn a page) select · a add (decision with Tab, the rule's text, then where:
 * this session, this project for me, for everyone, or me everywhere) · d remove · r read the files
 * again · Esc back or close. Every change applies to the live policy at once.
 */
export function PermissionsPanel({ source, files, projectRoot, width, color, active = true, onClose, maxRows }: PermissionsPanelProps) {
  // Border, title, a wrapped problem (2), a status line, column titles, the selected rule's file,
  // the add form or a message (up to 7), key hints.
  const listRows = fitRows(maxRows, 16, LIST_ROWS);
  const ui = useRef<PanelUi>({});
  const [, render] = useState(0);
  const update = useCallback((change: Partial<PanelUi>) => {
    ui.current = { ...ui.current, ...change };
    render((n) => n + 1);
  }, []);
  const mounted = useRef(true);

  const refresh = useCallback(async () => {
    try {
      const { heldBack } = await source.refresh();
      if (mounted.current) update({ heldBack, problem: undefined });
    } catch (error) {
      if (mounted.current) update({ heldBack: ui.current.heldBack ?? [], problem: errorText(error) });
    }
  }, [source, update]);
  useEffect(() => {
    mounted.current = true;
    void refresh();
    const unsubscribe = source.subscribe(() => mounted.current && render((n) => n + 1));
    return () => {
      mounted.current = false;
      unsubscribe();
    };
  }, [source, refresh]);

  const act = async (label: string, task: () => Promise<string>): Promise<void> => {
    update({ busy: label, message: undefined });
    try {
      const text = await task();
      await refresh();
      update({ busy: undefined, message: { text, level: 'success' } });
    } catch (error) {
      update({ busy: undefined, message: { text: errorText(error), level: 'error' } });
    }
  };

  const scopes = scopeChoices(files);
  const entries = (): PermissionEntry[] => permissionEntries(source.snapshot().rules, ui.current.heldBack ?? []);

  useLineInput(
    (input, key) => {
      const now = ui.current;
      if (now.busy) return;
      const letter = key.ctrl || key.meta || key.paste ? '' : input.toLowerCase();
      const form = now.add;
      if (form?.step === 'text') {
        if (key.escape) return update({ add: undefined });
        if (key.tab) return update({ add: { ...form, decision: DECISIONS[(DECISIONS.indexOf(form.decision) + 1) % DECISIONS.length]!, error: undefined } });
        // Typed text and Enter can arrive in one read: the text first, then the Enter.
        const edit = editLine(form.text, input, key);
        if (edit.submit) {
          const submitted = edit.text;
          const error = ruleError(submitted, form.decision);
          return update({ add: error ? { ...form, text: submitted, error } : { ...form, text: submitted, step: 'scope', scopeSelected: 0, error: undefined } });
        }
        const text = edit.text;
        if (text !== form.text) update({ add: { ...form, text, error: undefined } });
        return;
      }
      if (form?.step === 'scope') {
        const chosen = (letter ? scopeByKey(scopes, letter) : undefined) ?? (key.return ? scopes[form.scopeSelected] : undefined);
        if (chosen) {
          update({ add: undefined });
          return void act(`adding ${form.text.trim()}…`, () => source.add(form.decision, form.text, chosen.scope));
        }
        if (key.escape) return update({ add: { ...form, step: 'text' } });
        if (key.upArrow) return update({ add: { ...form, scopeSelected: (form.scopeSelected + scopes.length - 1) % scopes.length } });
        if (key.downArrow || key.tab) return update({ add: { ...form, scopeSelected: (form.scopeSelected + 1) % scopes.length } });
        return;
      }
      if (now.confirm) {
        const entry = now.confirm;
        if (letter === 'y') {
          update({ confirm: undefined });
          return void act(`removing ${entry.text}…`, () => source.remove(entry));
        }
        if (letter === 'n' || key.escape) update({ confirm: undefined });
        return;
      }
      const list = entries();
      const selected = selectedIndex(list, now.selectedKey);
      const move = (to: number) => update({ selectedKey: list[Math.max(0, Math.min(list.length - 1, to))]?.key, message: undefined });
      if (key.escape) return onClose();
      if (key.upArrow) return move(selected - 1);
      if (key.downArrow) return move(selected + 1);
      if (key.pageUp) return move(selected - listRows);
      if (key.pageDown) return move(selected + listRows);
      if (key.home) return move(0);
      if (key.end) return move(list.length - 1);
      if (letter === 'a') return update({ add: { step: 'text', decision: 'allow', text: '', scopeSelected: 0 }, message: undefined });
      if (letter === 'r') return void act('reading the config files…', async () => 'read the config files again');
      const current = list[selected];
      if ((letter === 'd' || key.delete) && current) update({ confirm: current, message: undefined });
    },
    { isActive: active },
  );
  const attached = useInputAttached(); // after useInput: effects run in order
  if (!attached) return null; // the question appears only once it can hear its answer

  const now = ui.current;
  const snapshot = source.snapshot();
  const list = permissionEntries(snapshot.rules, now.heldBack ?? []);
  const selected = selectedIndex(list, now.selectedKey);
  const current = list[selected];
  const accent = color ? 'cyan' : undefined;
  const textWidth = Math.min(40, Math.max(4, ...list.map((entry) => visible(entry.text).length)));
  const start = Math.max(0, Math.min(selected - Math.floor(listRows / 2), list.length - listRows));
  const heldCount = list.filter((entry) => entry.heldBack).length;
  const sandbox = snapshot.sandbox.available ? 'sandbox available' : `no sandbox (${snapshot.sandbox.reason ?? 'unknown reason'})`;
  const where = (entry: PermissionEntry) => (entry.file ? `${entry.source} ${displayPath(entry.file, projectRoot)}` : entry.source === 'session' ? 'this session' : entry.source);

  const footer = now.busy ? (
    <Text dimColor>{now.busy}</Text>
  ) : now.add ? (
    <AddFormView form={now.add} files={files} color={color} />
  ) : now.confirm ? (
    <Text color={color ? 'yellow' : undefined} bold wrap="wrap">
      remove {now.confirm.decision} {visible(now.confirm.text)} from {now.confirm.file ? displayPath(now.confirm.file, projectRoot) : 'this session'}? y/n
    </Text>
  ) : now.message ? (
    <Text color={color ? MESSAGE_COLOR[now.message.level] : undefined} wrap="wrap">
      {visible(now.message.text)}
    </Text>
  ) : null;

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      <Text bold wrap="truncate-end">
        Permissions{' '}
        <Text dimColor>
          mode {snapshot.mode} · {sandbox} · {list.length - heldCount} rule{list.length - heldCount === 1 ? '' : 's'}
          {heldCount > 0 ? ` · ${heldCount} held back` : ''}
        </Text>
      </Text>
      {now.problem ? <Text color={color ? 'red' : undefined} wrap="wrap">! {visible(now.problem)}</Text> : null}
      {now.heldBack === undefined && !now.problem ? <Text dimColor>reading the config files…</Text> : null}
      {list.length === 0 && now.heldBack !== undefined ? <Text dimColor>no rules: the defaults apply (reads inside the project allowed; edits and commands asked)</Text> : null}
      {list.length > 0 ? (
        <Text dimColor wrap="truncate-end">
          {'  '}
          {''.padEnd(6)}
          {'RULE'.padEnd(textWidth)} SOURCE
        </Text>
      ) : null}
      {list.slice(start, start + listRows).map((entry, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Text key={entry.key} wrap="truncate-end" bold={isSelected} dimColor={entry.heldBack && !isSelected}>
            {isSelected ? <Text color={accent}>❯ </Text> : '  '}
            <Text color={color ? DECISION_COLOR[entry.decision] : undefined}>{entry.decision.padEnd(6)}</Text>
            {fit(visible(entry.text), textWidth)} {where(entry)}
            {entry.heldBack ? ' [held back: project not trusted]' : ''}
          </Text>
        );
      })}
      {current ? (
        <Text dimColor wrap="truncate-end">
          {current.heldBack
            ? `${current.file ? displayPath(current.file, projectRoot) : ''}: not applied until you trust this project's rules (seek permissions trust)`
            : current.file ?? (current.source === 'session' ? 'this session only: gone when it ends' : current.source)}
        </Text>
      ) : null}
      {footer}
      <Text dimColor wrap="truncate-end">
        {now.add
          ? now.add.step === 'text'
            ? 'type the rule · tab decision · enter next · esc cancel'
            : '↑↓ enter, or the letter · esc back'
          : `↑↓ select · pgup/pgdn page · a add · d remove · r reload · esc close${list.length > listRows ? ` · ${selected + 1}/${list.length}` : ''}`}
      </Text>
    </Box>
  );
}

function AddFormView({ form, files, color }: { form: AddForm; files: SaveFiles; color: boolean }) {
  const accent = color ? 'yellow' : undefined;
  if (form.step === 'text') {
    return (
      <Box flexDirection="column">
        <Text bold color={accent}>
          Add a rule
        </Text>
        <Text>
          {'  '}decision: <Text bold>{form.decision}</Text> <Text dimColor>(tab: {DECISIONS.join(' → ')})</Text>
        </Text>
        <Text wrap="wrap">
          {'  '}rule: {visible(form.text)}▏
        </Text>
        <Text dimColor wrap="truncate-end">
          {'  '}
          {EXAMPLES}
        </Text>
        {form.error ? (
          <Text color={color ? 'red' : undefined} wrap="wrap">
            {'  '}! {visible(form.error)}
          </Text>
        ) : null}
      </Box>
    );
  }
  const scopes = scopeChoices(files);
  const labelWidth = Math.max(...scopes.map((choice) => choice.label.length));
  return (
    <Box flexDirection="column">
      <Text bold color={accent} wrap="wrap">
        Add {form.decision} {visible(form.text.trim())} for:
      </Text>
      {scopes.map((choice, index) => (
        <Text key={choice.scope} wrap="wrap" bold={index === form.scopeSelected}>
          {index === form.scopeSelected ? '❯ ' : '  '}
          {choice.key}) {choice.file ? choice.label.padEnd(labelWidth) : choice.label}
          {choice.file ? <Text dimColor={index !== form.scopeSelected}> — {choice.file}{choice.note ? ` (${choice.note})` : ''}</Text> : null}
        </Text>
      ))}
    </Box>
  );
}

/** `text` after a chunk of typing: printable characters are added; DEL or BS (several keys that
 * arrived together, Backspace held down) each take one back; other control characters are dropped. */
/** Why `text` is not a rule (parseRuleText's message), or undefined when it is one. */
function ruleError(text: string, decision: RuleDecision): string | undefined {
  if (text.trim() === '') return 'type a rule first';
  try {
    parseRuleText(text, decision, 'session', seekToolNames());
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}

function selectedIndex(list: readonly PermissionEntry[], key: string | undefined): number {
  return Math.max(0, list.findIndex((entry) => entry.key === key));
}

const MESSAGE_COLOR: Record<NonNullable<PanelUi['message']>['level'], string | undefined> = { info: undefined, success: 'green', error: 'red' };
const DECISION_COLOR: Record<RuleDecision, string> = { allow: 'green', ask: 'yellow', deny: 'red' };

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text.padEnd(width);
}
