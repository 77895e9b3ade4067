import { describe, expect, it } from 'vitest';
import { itemRows } from '../../../../src/tui/components/conversation/item-lines.js';
import { initialConversation, LIVE_FENCE_LINES, reduceConversation, type ConversationState } from '../../../../src/tui/state/conversation.js';
import type { ConversationItem } from '../../../../src/tui/types.js';

type Item<K extends ConversationItem['kind']> = Extract<ConversationItem, { kind: K }>;

describe('a long code block streams into the scrollback a few lines at a time', () => {
  const start = (): ConversationState => {
    let state = initialConversation();
    state = reduceConversation(state, { type: 'message', message: { role: 'user', content: 'go' } });
    return reduceConversation(state, { type: 'turn_start', turn: 1 });
  };
  const delta = (state: ConversationState, text: string) => reduceConversation(state, { type: 'text_delta', turn: 1, text });
  const answers = (items: readonly ConversationItem[]) => items.filter((item): item is Item<'assistant'> => item.kind === 'assistant');
  const code = Array.from({ length: 30 }, (_, index) => `line ${index}`);

  it('commits closed pieces of the block, keeps at most LIVE_FENCE_LINES + 1 lines live, and the final text loses nothing', () => {
    let state = start();
    const answer = `Intro.\n\n\`\`\`ts\n${code.join('\n')}\n\`\`\`\n\nDone.`;
    for (const piece of answer.match(/[\s\S]{1,7}/g)!) {
      state = delta(state, piece);
      const live = answers(state.live);
      for (const item of live) expect(item.text.split('\n').length).toBeLessThanOrEqual(LIVE_FENCE_LINES + 3);
    }
    const pieces = answers([...state.committed, ...state.live]);
    expect(pieces.length).toBeGreaterThan(3);
    // Every piece of the block is a closed fence; reopened ones say so.
    const blocks = pieces.filter((item) => item.text.startsWith('```ts'));
    for (const block of blocks.slice(1)) expect(block.reopenedFence).toBe('```ts\n');
    const codeLines = blocks.flatMap((block) => block.text.split('\n').filter((line) => !line.startsWith('```')));
    expect(codeLines).toEqual(code);

    // The final message is authoritative for the live part and keeps the reopened fence.
    state = reduceConversation(state, { type: 'message', message: { role: 'assistant', content: answer, toolCalls: [], stopReason: 'stop' } });
    state = reduceConversation(state, { type: 'turn_end', turn: 1, message: { role: 'assistant', content: answer, toolCalls: [], stopReason: 'stop' } });
    expect(state.live).toEqual([]);
    expect(answers(state.committed).at(-1)!.text).toBe('Done.');
  });

  it('renders the pieces as one block: no blank row and no second language label between them', () => {
    let state = start();
    state = delta(state, `\`\`\`ts\n${code.slice(0, 12).join('\n')}\n`);
    const [first, second] = answers([...state.committed, ...state.live]);
    const options = { width: 60, detail: false, color: false };
    const rows = [...itemRows(first!, options), ...itemRows(second!, options)];
    expect(rows[0]).toBe('ts');
    expect(rows.slice(1)).toEqual(code.slice(0, 12));
  });
});

describe('a long list or paragraph streams into the scrollback as it goes', () => {
  const start = (): ConversationState => {
    let state = initialConversation();
    state = reduceConversation(state, { type: 'message', message: { role: 'user', content: 'go' } });
    return reduceConversation(state, { type: 'turn_start', turn: 1 });
  };
  /** Streams `answer` in small pieces; `bounded`: the live part never holds more than a few lines. */
  const stream = (answer: string, bounded = true): ConversationState => {
    let state = start();
    for (const piece of answer.match(/[\s\S]{1,5}/g)!) {
      state = reduceConversation(state, { type: 'text_delta', turn: 1, text: piece });
      if (!bounded) continue;
      for (const item of state.live) if (item.kind === 'assistant') expect(item.text.split('\n').length).toBeLessThanOrEqual(LIVE_FENCE_LINES + 2);
    }
    return state;
  };
  const answers = (state: ConversationState) => [...state.committed, ...state.live].filter((item): item is Item<'assistant'> => item.kind === 'assistant');
  const options = { width: 60, detail: false, color: false };
  const rowsOf = (state: ConversationState) => answers(state).flatMap((item) => itemRows(item, options));

  it('cuts a 30-item list between items; the pieces render as the whole list would', () => {
    const list = Array.from({ length: 30 }, (_, index) => `- item ${index}`).join('\n');
    const state = stream(`${list}\n`);
    expect(answers(state).length).toBeGreaterThan(3);
    for (const item of answers(state).slice(1)) expect(item.joined).toBe(true);
    expect(rowsOf(state)).toEqual(Array.from({ length: 30 }, (_, index) => `• item ${index}`));
  });

  it('cuts a long paragraph of short lines between lines, every word kept', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `Sentence ${index} goes here.`);
    const state = stream(lines.join('\n'));
    expect(answers(state).length).toBeGreaterThan(1);
    const words = rowsOf(state).join(' ').split(/\s+/).filter(Boolean);
    expect(words).toEqual(lines.join(' ').split(' '));
  });

  it('never cuts a table, a quote, or code after a blank line inside a fence', () => {
    const table = ['| a | b |', '|---|---|', ...Array.from({ length: 20 }, (_, index) => `| ${index} | x |`)].join('\n');
    expect(answers(stream(`${table}\n`, false))).toHaveLength(1);
    const quote = Array.from({ length: 20 }, (_, index) => `> line ${index}`).join('\n');
    expect(answers(stream(`${quote}\n`, false))).toHaveLength(1);
    // A blank line inside a fence: what follows is still code, cut (if at all) as code.
    const fenced = `\`\`\`\nfirst\n\n${Array.from({ length: 12 }, (_, index) => `code ${index}`).join('\n')}\n`;
    const pieces = answers(stream(fenced));
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(1)) expect(piece.reopenedFence).toBe('```\n');
  });
});
