import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { useRef, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationAnswer, ElicitationRequest } from '../../../../src/mcp/elicitation.js';
import type { PickerSpec } from '../../../../src/tui/commands/types.js';
import { ElicitationPrompt } from '../../../../src/tui/components/ElicitationPrompt.js';
import { PermissionPrompt } from '../../../../src/tui/components/PermissionPrompt.js';
import { Picker } from '../../../../src/tui/components/Picker.js';
import { Setup, type SetupResult } from '../../../../src/tui/components/Setup.js';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../../../src/policy/tool-gate.js';
import { editLine } from '../../../../src/tui/input/typed-line.js';
import { useLineInput } from '../../../../src/tui/input/use-line-input.js';
import { flush, KEYS, plain, renderAttached } from './helpers.js';

const mounted: Array<{ unmount: () => void }> = [];
afterEach(() => {
  for (const view of mounted.splice(0)) view.unmount();
});

/** A one-line field as the six in the terminal UI hold one: what it submitted, what it shows. */
function Field({ initial, submitted }: { initial: string; submitted: string[] }) {
  const text = useRef(initial);
  const [, redraw] = useState(0);
  useLineInput((input, key) => {
    const edit = editLine(text.current, input, key);
    text.current = edit.text;
    if (edit.submit) submitted.push(edit.text);
    redraw((n) => n + 1);
  });
  return <Text>[{text.current}]</Text>;
}

/** Writes each string as one read, as a terminal hands it over, and lets Ink deliver it. */
async function mountField(initial = '') {
  const submitted: string[] = [];
  const view = render(<Field initial={initial} submitted={submitted} />);
  mounted.push(view);
  await flush();
  const write = async (...reads: string[]) => {
    for (const read of reads) {
      view.stdin.write(read);
      await flush();
    }
  };
  return { submitted, write, shown: () => plain(view.lastFrame()) };
}

describe('useLineInput: keys one by one, a paste as one text', () => {
  it('reads "\\rann@example.com\\r" as Enter, the address, Enter', async () => {
    const field = await mountField();
    await field.write('\rann@example.com\r');
    expect(field.submitted).toEqual(['', 'ann@example.com']);
  });

  it('reads "\\x7f\\x7f7\\r" as two Backspaces, 7, Enter', async () => {
    const field = await mountField('42');
    await field.write('\u007f\u007f7\r');
    expect(field.submitted).toEqual(['7']);
  });

  it('takes a bracketed paste, in one read or cut as Ink cuts it, as one line that is never submitted', async () => {
    const field = await mountField('x ');
    await field.write('\u001b[200~one\r\ntwo\u001b[201~');
    expect(field.shown()).toBe('[x one two]');
    // A CRLF cut between two reads is still one line break.
    await field.write(KEYS.pasteStart, ' three\r', '\nfour\r\n', KEYS.pasteEnd);
    expect(field.shown()).toBe('[x one two three four ]');
    expect(field.submitted).toEqual([]);
    await field.write(KEYS.ctrlW, KEYS.ctrlW, '\r');
    expect(field.submitted).toEqual(['x one two ']);
  });

  it('treats what follows the paste as keys again: Enter submits, Ctrl+U clears', async () => {
    const field = await mountField();
    await field.write(`${KEYS.pasteStart}a\rb${KEYS.pasteEnd}\r`);
    expect(field.submitted).toEqual(['a b']);
    await field.write('zz\u0015y\r');
    expect(field.submitted).toEqual(['a b', 'y']);
  });
});

describe('the one-line fields read a burst of keys key by key', () => {
  const FORM: ElicitationRequest = {
    server: 'mail',
    message: 'Who?',
    requestedSchema: {
      type: 'object',
      properties: { name: { type: 'string', title: 'Name' }, email: { type: 'string', title: 'Email', format: 'email' }, count: { type: 'integer', title: 'Count', default: 42 } },
      required: ['name', 'email'],
    },
  };

  it('a form: Enter, an address and Enter in one read; Backspaces, a digit and Enter in another', async () => {
    const answers: ElicitationAnswer[] = [];
    const view = await renderAttached(<ElicitationPrompt request={FORM} width={80} color={false} onAnswer={(answer) => answers.push(answer)} />);
    mounted.push(view);
    for (const read of ['Ann', '\rann@example.com\r', '\u007f\u007f7\r']) {
      view.stdin.write(read);
      await flush();
    }
    expect(answers).toEqual([{ action: 'accept', content: { name: 'Ann', email: 'ann@example.com', count: 7 } }]);
  });

  it('a form field takes a pasted address with its line break as text, not as Enter', async () => {
    const answers: ElicitationAnswer[] = [];
    const view = await renderAttached(<ElicitationPrompt request={FORM} width={80} color={false} onAnswer={(answer) => answers.push(answer)} />);
    mounted.push(view);
    view.stdin.write(`${KEYS.pasteStart}Ann\r\n${KEYS.pasteEnd}`);
    await flush();
    expect(plain(view.lastFrame())).toContain('❯ Name*: Ann ▏');
    expect(answers).toEqual([]);
  });

  it('a picker: filter text and Enter in one read pick the first match; one Enter after it picks nothing more', async () => {
    const picked: string[] = [];
    let done = 0;
    const items: PickerSpec['items'] = [
      { value: 'flash', label: 'deepseek-v4-flash' },
      { value: 'opus', label: 'claude-opus-4-7' },
      { value: 'sonnet', label: 'claude-sonnet-4-6' },
    ];
    const spec: PickerSpec = { title: 'Model', items, onSelect: (value) => void picked.push(value) };
    const view = await renderAttached(<Picker spec={spec} width={60} color={false} onDone={() => (done += 1)} />);
    mounted.push(view);
    view.stdin.write('claudx\u007fe\r\r');
    await flush();
    expect(picked).toEqual(['opus']);
    expect(done).toBe(1);
  });

  it('a picker: a pasted filter does not pick; Enter then picks from it', async () => {
    const picked: string[] = [];
    const spec: PickerSpec = { title: 'Model', items: [{ value: 'a', label: 'alpha' }, { value: 'b', label: 'beta' }], onSelect: (value) => void picked.push(value) };
    const view = await renderAttached(<Picker spec={spec} width={60} color={false} onDone={() => undefined} />);
    mounted.push(view);
    view.stdin.write(`${KEYS.pasteStart}bet${KEYS.pasteEnd}`);
    await flush();
    expect(plain(view.lastFrame())).toContain('filter: bet');
    expect(picked).toEqual([]);
    view.stdin.write('\r');
    await flush();
    expect(picked).toEqual(['b']);
  });
});

describe('a picker that opens another from its choice', () => {
  it('starts the next list afresh when the same component draws it: its keys are heard, the old filter is gone', async () => {
    const picked: string[] = [];
    const first: PickerSpec = { title: 'First', items: [{ value: 'one', label: 'one' }, { value: 'two', label: 'two' }], onSelect: () => undefined };
    const second: PickerSpec = { title: 'Second', items: [{ value: 'x', label: 'x' }, { value: 'y', label: 'y' }], onSelect: (value) => void picked.push(value) };
    const view = await renderAttached(<Picker spec={first} width={60} color={false} onDone={() => undefined} />);
    mounted.push(view);
    view.stdin.write('tw\r');
    await flush();
    view.rerender(<Picker spec={second} width={60} color={false} onDone={() => undefined} />);
    await flush();
    expect(plain(view.lastFrame())).not.toContain('filter:');
    view.stdin.write(KEYS.down);
    await flush();
    view.stdin.write(KEYS.enter);
    await flush();
    expect(picked).toEqual(['y']);
  });
});

describe('prompts that answer read the rest of a read as what it is', () => {
  const BASH: PermissionRequest = {
    tool: 'bash',
    callId: 'call_b',
    action: { kind: 'bash', paths: ['/repo'], command: 'npm test', summary: 'bash: npm test' },
    cwd: '/repo',
    reason: 'bash needs approval',
    alwaysRule: { tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' },
  };

  it('a permission prompt answers once for "yn", takes "t", words and Enter in one read, and ignores a pasted "y"', async () => {
    const answers: AskAnswer[] = [];
    const view = await renderAttached(<PermissionPrompt request={BASH} width={80} color={false} onAnswer={(answer) => answers.push(answer)} />);
    mounted.push(view);
    view.stdin.write(`${KEYS.pasteStart}y${KEYS.pasteEnd}`);
    await flush();
    expect(answers).toEqual([]);
    view.stdin.write('tuse pnpm\r');
    await flush();
    expect(answers).toEqual([{ decline: 'stop', feedback: 'use pnpm' }]);
    const second: AskAnswer[] = [];
    const other = await renderAttached(<PermissionPrompt request={BASH} width={80} color={false} onAnswer={(answer) => second.push(answer)} />);
    mounted.push(other);
    other.stdin.write('yn');
    await flush();
    expect(second).toEqual(['yes']);
  });

  it('setup: Enter on the provider, a key and Enter in one read save that key', async () => {
    const results: Array<SetupResult | undefined> = [];
    const view = render(<Setup configPath="/home/me/.seek/config.json" onDone={(result) => results.push(result)} />);
    mounted.push(view);
    await flush();
    view.stdin.write('\rsk-test-1\u007f2\r\r');
    await flush();
    expect(results).toEqual([{ provider: 'deepseek', apiKey: 'sk-test-2' }]);
  });
});
