import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import {
  CompactionRow,
  ConversationItemView,
  NoticeRow,
  UserMessage,
} from '../../../../src/tui/components/conversation/index.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import type { ConversationItem, ItemViewOptions } from '../../../../src/tui/types.js';
import { frameAtWidth, HAS_ANSI, widestLine } from './ink-at-width.js';

const OPTIONS: ItemViewOptions = { width: 80, detail: false, color: true };
const frame = (element: ReactElement): string => render(element).lastFrame() ?? '';

describe('UserMessage', () => {
  it('prefixes the text with › and wraps it with a hanging indent, keeping newlines', () => {
    const item = { kind: 'user', id: 'u1', text: 'please fix the failing test in the parser module\n  and run it' } as const;
    const out = frame(<UserMessage item={item} options={{ ...OPTIONS, width: 30 }} />);
    expect(stripAnsi(out).split('\n')).toEqual(['› please fix the failing test', '  in the parser module', '    and run it']);
    expect(out.startsWith('\u001b[1m\u001b[36m›')).toBe(true);
  });

  it('marks a queued message', () => {
    const out = frame(<UserMessage item={{ kind: 'user', id: 'u2', text: 'next', queued: true }} options={OPTIONS} />);
    expect(stripAnsi(out)).toBe('› next (queued)');
    expect(out).toContain('\u001b[33m(queued)');
  });
});

describe('NoticeRow and CompactionRow', () => {
  it('styles notices by level', () => {
    const notice = (level: 'info' | 'warn' | 'error'): string =>
      frame(<NoticeRow item={{ kind: 'notice', id: 'n', level, text: 'message' }} options={OPTIONS} />);
    expect(stripAnsi(notice('error'))).toBe('✗ message');
    expect(notice('error')).toContain('\u001b[31m✗');
    expect(notice('warn')).toContain('\u001b[33m!');
    expect(notice('info')).toContain('\u001b[2m·');
  });

  it('shows a compaction rule, and the summary in detail mode', () => {
    const item = { kind: 'compaction', id: 'c', reason: 'auto', replacedMessages: 42, summary: '**Goal**: ship' } as const;
    expect(stripAnsi(frame(<CompactionRow item={item} options={OPTIONS} />))).toBe(
      '── context compacted (auto): 42 messages summarised ──',
    );
    const detail = stripAnsi(frame(<CompactionRow item={item} options={{ ...OPTIONS, detail: true }} />));
    expect(detail.split('\n')).toEqual(['── context compacted (auto): 42 messages summarised ──', '  Goal: ship']);
  });
});

const ALL_KINDS: ConversationItem[] = [
  { kind: 'user', id: 'u', text: 'hello '.repeat(60) },
  { kind: 'assistant', id: 'a', turn: 1, text: `# Title\n\n${'word '.repeat(80)}`, reasoning: 'hmm', streaming: false },
  { kind: 'tool', id: 't', name: 'read_file', summary: `src/${'deep/'.repeat(60)}file.ts`, status: 'done', durationMs: 12 },
  { kind: 'notice', id: 'n', level: 'warn', text: 'careful '.repeat(40) },
  { kind: 'compaction', id: 'c', reason: 'manual', replacedMessages: 1, summary: 'summary '.repeat(50) },
];

const EMPTY_KINDS: ConversationItem[] = [
  { kind: 'user', id: 'u', text: '' },
  { kind: 'assistant', id: 'a', turn: 1, text: '', reasoning: '', streaming: false },
  { kind: 'tool', id: 't', name: '', summary: '', status: 'error', output: '' },
  { kind: 'notice', id: 'n', level: 'info', text: '' },
  { kind: 'compaction', id: 'c', reason: 'auto', replacedMessages: 0, summary: '' },
];

describe('ConversationItemView', () => {
  it('dispatches each kind to its view', () => {
    const texts = ALL_KINDS.map((item) => stripAnsi(frame(<ConversationItemView item={item} options={OPTIONS} />)));
    expect(texts[0]?.startsWith('› hello')).toBe(true);
    expect(texts[1]?.startsWith('thought for 1 line — Ctrl+O to expand\nTitle')).toBe(true);
    expect(texts[2]?.startsWith('✓ read_file src/deep/')).toBe(true);
    expect(texts[3]?.startsWith('! careful')).toBe(true);
    expect(texts[4]).toBe('── context compacted (manual): 1 message summarised ──');
  });

  it('fits 80 and 200 columns, compact and detailed', () => {
    for (const width of [80, 200]) {
      for (const detail of [false, true]) {
        for (const item of ALL_KINDS) {
          const out = frameAtWidth(<ConversationItemView item={item} options={{ width, detail, color: true }} />, width);
          expect(widestLine(out)).toBeLessThanOrEqual(width);
          // Long content uses the room (the compaction rule alone is short by design).
          if (item.kind !== 'compaction' || detail) expect(widestLine(out)).toBeGreaterThan(width - 12);
        }
      }
    }
  });

  it('emits no escape codes without colour', () => {
    for (const item of ALL_KINDS) {
      for (const detail of [false, true]) {
        expect(frame(<ConversationItemView item={item} options={{ ...OPTIONS, detail, color: false }} />)).not.toMatch(HAS_ANSI);
      }
    }
  });

  it('does not crash on empty strings', () => {
    for (const item of EMPTY_KINDS) {
      for (const detail of [false, true]) {
        expect(() => frame(<ConversationItemView item={item} options={{ ...OPTIONS, detail }} />)).not.toThrow();
      }
    }
  });
});
