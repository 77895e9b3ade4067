import { describe, expect, it } from 'vitest';
import { buildMessagesRequest } from '../../../src/providers/anthropic-convert.js';
import { buildChatRequest, detectOpenAICompat } from '../../../src/providers/openai-compat.js';
import type { Message, ToolResultMessage } from '../../../src/providers/types.js';
import { danglingToolCalls, interruptedToolResults } from '../../../src/session/reader.js';
import { LOST_MESSAGE, LOST_TOOL_RESULT, repairHistory } from '../../../src/session/repair.js';
import { checkAnthropicRequest, checkOpenAIRequest } from '../../support/scripted-server/checks.js';
import { assistant, call, result, user } from './helpers.js';

const lost = (toolCallId: string, toolName = 'read_file'): ToolResultMessage => ({ role: 'tool', toolCallId, toolName, content: LOST_TOOL_RESULT, isError: true });

/** The violations both wires' strict checks find in the request that would follow `history`:
 * dangling calls answered as the runtime does, then a new prompt. */
function violations(history: Message[]): string[] {
  const messages = [...history, ...interruptedToolResults(danglingToolCalls(history)), user('next prompt')];
  const request = { model: 'deepseek-v4-flash', system: 'You are seek.', messages, tools: [] };
  return [
    ...checkOpenAIRequest(buildChatRequest(request, detectOpenAICompat('deepseek', 'http://127.0.0.1'))),
    ...checkAnthropicRequest(buildMessagesRequest({ ...request, model: 'claude-sonnet-4-5' })),
  ];
}

describe('repairHistory', () => {
  it('returns a well-formed history unchanged, element for element, and leaves a trailing interrupted turn open', () => {
    const history: Message[] = [
      user('<context source="memory.index">x</context>'),
      user('go'),
      assistant('', [call('c1'), call('c2')]),
      result('c2'),
      result('c1'), // results in another order than the calls: legal
      assistant('again', [call('c1')]), // an id used by an earlier turn: legal on both wires
      result('c1'),
      assistant('done'),
      user('more'),
      user('and more'), // a failed turn leaves two prompts in a row: legal
      assistant('', [call('t1', 'bash'), call('t2')]),
      result('t2'),
    ];
    const { messages, report } = repairHistory(history);
    expect(report).toEqual({ insertedResults: 0, droppedResults: 0, renamedCalls: 0, insertedMessages: 0 });
    expect(messages).toHaveLength(history.length);
    messages.forEach((message, i) => expect(message).toBe(history[i]));
    expect(danglingToolCalls(messages)).toEqual([call('t1', 'bash')]);
    expect(violations(messages)).toEqual([]);
  });

  it('answers calls whose results were lost in the middle of the history', () => {
    const history: Message[] = [
      user('go'),
      assistant('', [call('a1'), call('a2', 'bash')]),
      result('a1'),
      // a2's result was a corrupt line
      assistant('next', [call('b1')]),
      // b1's result lost too, and the user's prompt after the answer
      assistant('done'),
      user('more'),
      assistant('ok'),
    ];
    expect(violations(history)).not.toEqual([]); // what the providers answered with HTTP 400
    const { messages, report } = repairHistory(history);
    expect(messages).toEqual([
      user('go'),
      assistant('', [call('a1'), call('a2', 'bash')]),
      result('a1'),
      lost('a2', 'bash'),
      assistant('next', [call('b1')]),
      lost('b1'),
      assistant('done'),
      user('more'),
      assistant('ok'),
    ]);
    expect(report).toMatchObject({ insertedResults: 2, droppedResults: 0 });
    expect(violations(messages)).toEqual([]);
  });

  it('drops orphan and duplicate results', () => {
    const history: Message[] = [
      result('before-anything'),
      user('go'),
      result('after-a-prompt'),
      assistant('', [call('a1')]),
      result('a1', 'first'),
      result('a1', 'second'), // answered twice
      result('zz'), // not a call of this turn
      user('more'),
      assistant('', [call('b1')]),
      result('b1'),
      result('a1'), // a call of an earlier turn
      assistant('done'),
    ];
    const { messages, report } = repairHistory(history);
    expect(messages).toEqual([
      user('go'),
      assistant('', [call('a1')]),
      result('a1', 'first'),
      user('more'),
      assistant('', [call('b1')]),
      result('b1'),
      assistant('done'),
    ]);
    expect(report).toMatchObject({ droppedResults: 5, insertedResults: 0 });
    expect(violations(messages)).toEqual([]);
  });

  it('gives repeated call ids within one message unique names, matching results in order', () => {
    const history: Message[] = [
      user('go'),
      assistant('', [call('x', 'read_file', '{"path":"a"}'), call('x', 'read_file', '{"path":"b"}'), call('x~2', 'grep')]),
      result('x', 'content of a'),
      result('x', 'content of b'),
      result('x~2', 'grep hits', 'grep'),
      assistant('', [call('y'), call('y')]),
      result('y', 'only one came back'),
      user('more'),
      assistant('done'),
    ];
    expect(violations(history)).not.toEqual([]);
    const { messages, report } = repairHistory(history);
    expect(messages).toEqual([
      user('go'),
      assistant('', [call('x', 'read_file', '{"path":"a"}'), call('x~3', 'read_file', '{"path":"b"}'), call('x~2', 'grep')]),
      result('x', 'content of a'),
      result('x~3', 'content of b'),
      result('x~2', 'grep hits', 'grep'),
      assistant('', [call('y'), call('y~2')]),
      result('y', 'only one came back'),
      lost('y~2'),
      user('more'),
      assistant('done'),
    ]);
    expect(report).toEqual({ insertedResults: 1, droppedResults: 0, renamedCalls: 2, insertedMessages: 0 });
    expect(violations(messages)).toEqual([]);
    // The input is never modified.
    expect(history[1]).toEqual(assistant('', [call('x', 'read_file', '{"path":"a"}'), call('x', 'read_file', '{"path":"b"}'), call('x~2', 'grep')]));
  });

  it('keeps roles valid: a user message first, never two assistant messages in a row', () => {
    const history: Message[] = [assistant('the first prompt was lost'), assistant('', [call('c')]), result('c'), assistant('done'), assistant('twice')];
    const { messages, report } = repairHistory(history);
    expect(messages).toEqual([
      user(LOST_MESSAGE),
      assistant('the first prompt was lost'),
      user(LOST_MESSAGE),
      assistant('', [call('c')]),
      result('c'),
      assistant('done'),
      user(LOST_MESSAGE),
      assistant('twice'),
    ]);
    expect(report.insertedMessages).toBe(3);
    expect(violations(messages)).toEqual([]);
  });

  it('turns a history with any set of lines lost into one both wires accept (200 seeded cases)', () => {
    const full: Message[] = [
      user('go'),
      assistant('', [call('a1'), call('a2'), call('a3', 'bash')]),
      result('a1'),
      result('a2'),
      result('a3'),
      assistant('reading', [call('b1')]),
      result('b1'),
      assistant('first answer'),
      user('second prompt'),
      assistant('', [call('c1'), call('c2')]),
      result('c2'),
      result('c1'),
      assistant('second answer'),
      user('third prompt'),
      assistant('', [call('d1')]),
      result('d1'),
    ];
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const damaged = full.filter(() => random() > 0.25);
      const { messages } = repairHistory(damaged);
      expect({ round, problems: violations(messages) }).toEqual({ round, problems: [] });
      // Deterministic: the same damage gives the same bytes on every resume (the prefix cache holds).
      expect(JSON.stringify(repairHistory(damaged).messages)).toBe(JSON.stringify(messages));
    }
  });
});
