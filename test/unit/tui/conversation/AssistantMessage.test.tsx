import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { AssistantMessage, type AssistantItem } from '../../../../src/tui/components/conversation/index.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import type { ItemViewOptions } from '../../../../src/tui/types.js';
import { frameAtWidth, HAS_ANSI, widestLine } from './ink-at-width.js';

const OPTIONS: ItemViewOptions = { width: 80, detail: false, color: true };
const REASONING = Array.from({ length: 9 }, (_unused, index) => `thinking step ${index + 1}`).join('\n');

function assistant(overrides: Partial<AssistantItem>): AssistantItem {
  return { kind: 'assistant', id: 'a1', turn: 1, text: '', reasoning: '', streaming: false, ...overrides };
}

function frame(item: AssistantItem, options: ItemViewOptions = OPTIONS): string {
  return render(<AssistantMessage item={item} options={options} />).lastFrame() ?? '';
}

describe('AssistantMessage', () => {
  it('shows the last lines of reasoning live while streaming before any text', () => {
    const out = frame(assistant({ reasoning: REASONING, streaming: true }));
    expect(stripAnsi(out).split('\n')).toEqual(['thinking step 6', 'thinking step 7', 'thinking step 8', 'thinking step 9']);
    expect(out).toContain('\u001b[2m\u001b[3mthinking step 9'); // dim italic (Ink splits combined codes)
  });

  it('collapses reasoning to one line once text starts, and when finished', () => {
    const streaming = stripAnsi(frame(assistant({ reasoning: REASONING, text: 'The **answer**', streaming: true })));
    expect(streaming).toBe('thought for 9 lines — Ctrl+O to expand\nThe answer');
    const finished = stripAnsi(frame(assistant({ reasoning: 'one thought', text: 'Done.' })));
    expect(finished).toBe('thought for 1 line — Ctrl+O to expand\nDone.');
  });

  it('shows all reasoning in detail mode, then the answer after a blank line', () => {
    const out = stripAnsi(frame(assistant({ reasoning: REASONING, text: 'Done.' }), { ...OPTIONS, detail: true }));
    expect(out.split('\n')).toEqual([...REASONING.split('\n'), '', 'Done.']);
  });

  it('renders the answer as Markdown', () => {
    const out = frame(assistant({ text: '# Result\n\n- **fast**\n\n```ts\nconst x = 1;\n```' }));
    expect(stripAnsi(out)).toBe('Result\n\n• fast\n\nts\nconst x = 1;');
    expect(out).toContain('\u001b[35mResult');
    expect(out).toContain('\u001b[35mconst');
  });

  it('renders an incomplete streaming answer without breaking', () => {
    const out = stripAnsi(frame(assistant({ text: 'Look:\n\n```py\ndef f(', streaming: true })));
    expect(out).toBe('Look:\n\npy\ndef f(');
  });

  it('fits the width at 80 and 200 columns and has no escape codes without colour', () => {
    const text = `${'A long sentence that goes on. '.repeat(20)}\n\n| a | b |\n|---|---|\n| ${'c'.repeat(300)} | d |`;
    for (const width of [80, 200]) {
      const out = frameAtWidth(<AssistantMessage item={assistant({ text, reasoning: 'r' })} options={{ ...OPTIONS, width }} />, width);
      expect(widestLine(out)).toBeLessThanOrEqual(width);
      expect(widestLine(out)).toBeGreaterThan(width - 5);
    }
    expect(frame(assistant({ text, reasoning: REASONING }), { ...OPTIONS, color: false, detail: true })).not.toMatch(HAS_ANSI);
  });

  it('renders nothing while there is nothing to show', () => {
    expect(frame(assistant({ streaming: true }))).toBe('');
    expect(frame(assistant({ text: '  ', reasoning: '\n' }))).toBe('');
  });
});
