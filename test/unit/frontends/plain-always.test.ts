import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PlainInteractive, SAVE_QUESTION, type InteractiveSession } from '../../../src/frontends/plain-interactive.js';
import type { AskAnswer, PermissionPrompt } from '../../../src/policy/tool-gate.js';

const REQUEST: PermissionPrompt = {
  tool: 'bash',
  callId: 'call_1',
  action: { kind: 'bash', paths: ['/repo'], command: 'npm test', summary: 'bash: npm test' },
  cwd: '/repo',
  reason: 'bash needs approval',
  alwaysRule: { tool: 'bash', pattern: 'npm test', decision: 'allow', source: 'session' },
};

function plain(where: { seekHome?: string; projectRoot?: string } = { seekHome: '/home/u/.seek', projectRoot: '/repo' }) {
  const input = new PassThrough();
  let written = '';
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  const session: InteractiveSession = {
    id: 's1',
    model: 'm',
    subscribe: () => () => undefined,
    prompt: () => Promise.reject(new Error('not used')),
    setMode: () => 'ask',
    costReport: () => '',
    ...where,
  };
  const ui = new PlainInteractive(session, input, output);
  return { ui, input, written: () => written };
}

/** Resolves once the output ends with `text` (the question is waiting for its line). */
async function shown(written: () => string, text: string): Promise<string> {
  for (let round = 0; round < 200 && !written().endsWith(text); round++) await new Promise((resolve) => setImmediate(resolve));
  expect(written().endsWith(text)).toBe(true);
  return written();
}

describe('plain front end: where an "always" rule goes', () => {
  it('after a, shows the exact rule and every file, then asks where it goes', async () => {
    const { ui, input, written } = plain();
    const answer = ui.ask(REQUEST);
    await shown(written, '[y]es / [n]o / [a]lways this session: ');
    expect(written()).not.toContain(SAVE_QUESTION);
    input.write('a\n');
    const text = await shown(written, SAVE_QUESTION);
    expect(text).toContain('Always allow bash(npm test):\n');
    expect(text).toContain('[s]ession  this session only');
    expect(text).toContain('[l]ocal    this project, only me: /repo/.seek/config.local.json (kept out of git)');
    expect(text).toContain('[p]roject  this project, everyone: /repo/.seek/config.json');
    expect(text).toContain('[u]ser     me, in every project: /home/u/.seek/config.json');
    input.write('l\n');
    await expect(answer).resolves.toBe('always-local');
    ui.close();
  });

  it.each([
    ['s', 'always'],
    ['', 'always'],
    ['session', 'always'],
    ['l', 'always-local'],
    ['P', 'always-project'],
    ['project', 'always-project'],
    ['u', 'always-user'],
    ['user', 'always-user'],
  ] as const)('%j answers %s', async (line, expected: AskAnswer) => {
    const { ui, input } = plain();
    const answer = ui.ask(REQUEST);
    input.write(`a\n${line}\n`);
    await expect(answer).resolves.toBe(expected);
    ui.close();
  });

  it('asks again after an answer it does not know; y and n never reach the second question', async () => {
    const { ui, input, written } = plain();
    const answer = ui.ask(REQUEST);
    input.write('always\nx\n');
    await shown(written, `(answer s, l, p or u)\n${SAVE_QUESTION}`);
    input.write('u\n');
    await expect(answer).resolves.toBe('always-user');
    const yes = ui.ask(REQUEST);
    input.write('y\n');
    await expect(yes).resolves.toBe('yes');
    expect(written().split(SAVE_QUESTION).length - 1).toBe(2); // only the first ask's two questions
    ui.close();
  });

  it('keeps the rule to this session when input ends at the second question, and names default files without a session', async () => {
    const { ui, input, written } = plain({});
    const answer = ui.ask(REQUEST);
    input.write('a\n');
    await shown(written, SAVE_QUESTION);
    expect(written()).toContain('.seek/config.local.json');
    expect(written()).toContain('~/.seek/config.json');
    input.end();
    await expect(answer).resolves.toBe('always');
    ui.close();
  });
});
