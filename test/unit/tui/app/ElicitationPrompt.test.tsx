import { describe, expect, it } from 'vitest';
import type { ElicitationAnswer, ElicitationRequest } from '../../../../src/mcp/elicitation.js';
import { ElicitationPrompt } from '../../../../src/tui/components/ElicitationPrompt.js';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';
import { flush, KEYS, renderAttached } from '../input/helpers.js';

const REQUEST: ElicitationRequest = {
  server: 'everything',
  message: 'Please provide inputs for the following fields:',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', description: 'Your full, legal name' },
      agree: { type: 'boolean', title: 'Agree' },
      count: { type: 'integer', title: 'Count', minimum: 1, maximum: 100, default: 42 },
      hero: { type: 'string', title: 'Hero', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Wonder Woman' }], default: 'hero-1' },
      fish: { type: 'array', title: 'Fish', items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] }, default: ['fish-1'] },
    },
    required: ['name'],
  },
};

async function setup(request: ElicitationRequest = REQUEST, maxRows?: number) {
  const answers: ElicitationAnswer[] = [];
  const view = await renderAttached(
    <ElicitationPrompt request={request} width={90} color={false} {...(maxRows ? { maxRows } : {})} onAnswer={(answer) => answers.push(answer)} />,
  );
  const frame = () => stripAnsi(view.lastFrame() ?? '');
  async function press(...sequences: string[]): Promise<void> {
    for (const sequence of sequences) {
      view.stdin.write(sequence);
      await flush();
    }
  }
  return { answers, frame, press, view };
}

describe('ElicitationPrompt', () => {
  it('shows the server, its message and every field with its default in place', async () => {
    const { frame, view } = await setup();
    expect(frame()).toContain('MCP server everything asks:');
    expect(frame()).toContain('Please provide inputs for the following fields:');
    expect(frame()).toContain('❯ Name*: ▏');
    expect(frame()).toContain('Your full, legal name');
    expect(frame()).toContain('Count: 42');
    expect(frame()).toContain('Hero: Superman');
    expect(frame()).toContain('Fish: [x] Tuna  [ ] Salmon');
    view.unmount();
  });

  it('text and Enter in one read fill the field and move on; Enter on the last field accepts, numbers as numbers', async () => {
    const { answers, frame, press, view } = await setup();
    await press('Ann Lee\r');
    expect(frame()).toContain('❯ Agree: — (y/n)');
    await press('y', KEYS.enter, KEYS.backspace, KEYS.backspace, '7', KEYS.enter, KEYS.right, KEYS.enter, KEYS.right, ' ', KEYS.enter);
    expect(answers).toEqual([{ action: 'accept', content: { name: 'Ann Lee', agree: true, count: 7, hero: 'hero-2', fish: ['fish-1', 'fish-2'] } }]);
    view.unmount();
  });

  it('Enter through the form sends the defaults, but not before a required field is filled', async () => {
    const { answers, frame, press, view } = await setup();
    await press(KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter);
    expect(answers).toEqual([]);
    expect(frame()).toContain('! Name is required');
    expect(frame()).toContain('❯ Name*:');
    await press('Bo', KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
    expect(answers).toEqual([{ action: 'accept', content: { name: 'Bo', count: 42, hero: 'hero-1', fish: ['fish-1'] } }]);
    view.unmount();
  });

  it('says what is wrong with a typed value and keeps the form open', async () => {
    const { answers, frame, press, view } = await setup();
    await press('Ann', KEYS.down, KEYS.down, KEYS.ctrlU, '500', KEYS.down, KEYS.down, KEYS.enter);
    expect(answers).toEqual([]);
    expect(frame()).toContain('! Count must be 1 to 100');
    expect(frame()).toContain('❯ Count: 500▏');
    view.unmount();
  });

  it('Esc declines and Ctrl+C cancels, once', async () => {
    const first = await setup();
    await first.press(KEYS.escape, KEYS.escape);
    expect(first.answers).toEqual([{ action: 'decline' }]);
    first.view.unmount();
    const second = await setup();
    await second.press('\u0003');
    expect(second.answers).toEqual([{ action: 'cancel' }]);
    second.view.unmount();
  });

  it('keeps within maxRows, showing a window of fields around the focused one', async () => {
    const { frame, press, view } = await setup(REQUEST, 8);
    expect(frame().split('\n').length).toBeLessThanOrEqual(8);
    expect(frame()).toContain('fields 1–');
    await press(KEYS.down, KEYS.down, KEYS.down, KEYS.down);
    expect(frame().split('\n').length).toBeLessThanOrEqual(8);
    expect(frame()).toContain('❯ Fish:');
    expect(frame()).not.toContain('Name*:');
    view.unmount();
  });

  it('shows escape sequences a server sends as text, not as terminal commands', async () => {
    const { frame, view } = await setup({ ...REQUEST, message: 'hi \u001b[2J\u001b]0;pwned\u0007there' });
    expect(view.lastFrame()).not.toContain('\u001b[2J');
    expect(frame()).toContain('hi there');
    view.unmount();
  });
});

describe('ElicitationPrompt: Enters in one read', () => {
  it('"\\r\\r" moves on twice (keys typed faster than a read), not two spaces', async () => {
    const { frame, press, view } = await setup();
    await press('Ann\r', 'y', '\r\r');
    expect(frame()).toContain('❯ Hero: ‹ Superman ›');
    view.unmount();
  });
});

describe('ElicitationPrompt: Backspaces in one read', () => {
  it('"\\x7f\\x7f" deletes two characters', async () => {
    const { frame, press, view } = await setup();
    await press(KEYS.down, KEYS.down, '\u007f\u007f', '7');
    expect(frame()).toContain('❯ Count: 7▏');
    view.unmount();
  });

  it('Backspaces and the digit typed after them in one read (the read that failed in CI)', async () => {
    const { frame, press, view } = await setup();
    await press(KEYS.down, KEYS.down, '\u007f\u007f7');
    expect(frame()).toContain('❯ Count: 7▏');
    view.unmount();
  });

  it('keys after an Enter in the same read go to the next field', async () => {
    const { answers, frame, press, view } = await setup();
    await press('Annx\u007f\ry');
    expect(frame()).toContain('❯ Agree: yes (y/n)');
    await press('\r\u007f\u007f9\r\r\r');
    expect(answers).toEqual([{ action: 'accept', content: { name: 'Ann', agree: true, count: 9, hero: 'hero-1', fish: ['fish-1'] } }]);
    view.unmount();
  });
});
