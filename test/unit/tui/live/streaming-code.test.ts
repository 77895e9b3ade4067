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
    expect(rows.slice(1)).toEqual(code.slice(0, 12).map((line) => `│ ${line}`));
  });
});
