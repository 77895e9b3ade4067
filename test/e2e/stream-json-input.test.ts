import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';
import { StreamJsonSeek, type Line } from '../support/stream-json-client.js';

const suite = useScriptedServer();
const running: StreamJsonSeek[] = [];
afterEach(() => {
  for (const seek of running.splice(0)) seek.kill();
});

function start(root: string, home: string, args: string[] = []): StreamJsonSeek {
  const seek = StreamJsonSeek.start({ cwd: root, env: suite.env(home), args });
  running.push(seek);
  return seek;
}

const isCanUseTool = (line: Line) => line.type === 'control_request' && line.request?.subtype === 'can_use_tool';
const answer = (requestId: string, response: Record<string, unknown>) => ({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const lastToolResult = (index: number): any => suite.server.requests[index]!.body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1);

function sessionFile(home: string): string {
  const projects = join(home, 'projects');
  for (const pid of readdirSync(projects)) {
    const dir = join(projects, pid, 'sessions');
    const file = existsSync(dir) ? readdirSync(dir).find((name) => name.endsWith('.jsonl')) : undefined;
    if (file) return join(dir, file);
  }
  throw new Error('no session file');
}

describe('seek -p --input-format stream-json', { timeout: 120_000 }, () => {
  it('holds a conversation: two user messages over one process, the second request extends the first', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
    const seek = start(root, home);
    seek.user('first question');
    const first = await seek.waitFor((line) => line.type === 'result');
    expect(first).toMatchObject({ subtype: 'success', result: 'First answer.' });
    seek.send({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'text', text: 'question' }] } });
    const second = await seek.waitFor((line) => line.type === 'result' && line.result === 'Second answer.');
    expect(second.session_id).toBe(first.session_id);
    seek.close();
    expect(await seek.exited).toBe(0);
    const [request1, request2] = suite.server.requests.map((r) => r.body.messages.filter((m: { role: string }) => m.role !== 'system'));
    expect(request2.slice(0, request1.length)).toEqual(request1);
    expect(request2.map((m: { content: string }) => m.content).join('\n')).toContain('First answer.');
    expect(request2.at(-1).content).toContain('second\n\nquestion');
    expect(seek.lines.filter((line) => line.type === 'system' && line.subtype === 'init')).toHaveLength(1);
    expect(readFileSync(sessionFile(home), 'utf8')).toContain('Second answer.');
  });

  it('asks can_use_tool on stdio: allow runs the command, deny sends the message to the model', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo allowed > allowed.txt' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo denied > denied.txt' } }] },
      { text: 'Done.' },
    );
    const seek = start(root, home, ['--permission-prompt-tool', 'stdio']);
    seek.user('make two files');
    const ask1 = await seek.waitFor(isCanUseTool);
    expect(ask1.request).toMatchObject({ tool_name: 'bash', input: { command: 'echo allowed > allowed.txt' } });
    expect(ask1.request.tool_use_id).toEqual(expect.any(String));
    seek.send(answer(ask1.request_id, { behavior: 'allow', updatedInput: ask1.request.input }));
    const ask2 = await seek.waitFor((line) => isCanUseTool(line) && line.request_id !== ask1.request_id);
    seek.send(answer(ask2.request_id, { behavior: 'deny', message: 'not that file, use notes.txt' }));
    const result = await seek.waitFor((line) => line.type === 'result');
    expect(result.result).toBe('Done.');
    expect(readFileSync(join(root, 'allowed.txt'), 'utf8')).toBe('allowed\n');
    expect(existsSync(join(root, 'denied.txt'))).toBe(false);
    expect(lastToolResult(2).content).toContain('not that file, use notes.txt');
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('runs the updatedInput the program answers with, under the same deny rules', async () => {
    const { root, home } = makeProject();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }), { mode: 0o600 });
    suite.server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo original > out.txt' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'touch second.txt' } }] },
      { text: 'Done.' },
    );
    const seek = start(root, home, ['--permission-prompt-tool', 'stdio']);
    seek.user('write out.txt');
    const ask1 = await seek.waitFor(isCanUseTool);
    seek.send(answer(ask1.request_id, { behavior: 'allow', updatedInput: { command: 'echo changed > out.txt' } }));
    const ask2 = await seek.waitFor((line) => isCanUseTool(line) && line.request_id !== ask1.request_id);
    seek.send(answer(ask2.request_id, { behavior: 'allow', updatedInput: { command: 'rm README.md' } }));
    await seek.waitFor((line) => line.type === 'result');
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('changed\n');
    expect(existsSync(join(root, 'README.md'))).toBe(true);
    expect(existsSync(join(root, 'second.txt'))).toBe(false);
    const denied = seek.lines.filter((line) => line.type === 'tool_end').at(-1)!;
    expect(denied).toMatchObject({ is_error: true, denied: true });
    expect(lastToolResult(2).content).toMatch(/denied|rule/i);
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('interrupts a turn mid-stream and goes on with the next message', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'A long answer that never ends', pauseAfterChunks: { chunks: 2, until: new Promise(() => {}) } }, { text: 'Back again.' });
    const seek = start(root, home);
    seek.user('talk a lot');
    await seek.waitFor((line) => line.type === 'text_delta');
    seek.send({ type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } });
    expect(await seek.waitFor((line) => line.type === 'control_response')).toEqual({ type: 'control_response', response: { subtype: 'success', request_id: 'int-1', response: {} } });
    const interrupted = await seek.waitFor((line) => line.type === 'result');
    expect(interrupted).toMatchObject({ is_error: true, stop_reason: 'aborted' });
    seek.user('again');
    expect((await seek.waitFor((line) => line.type === 'result' && line.result === 'Back again.')).is_error).toBe(false);
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('interrupting while a question waits withdraws it (control_cancel_request); a late answer is ignored', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'touch never.txt' } }] }, { text: 'Next.' });
    const seek = start(root, home, ['--permission-prompt-tool', 'stdio']);
    seek.user('make a file');
    const question = await seek.waitFor(isCanUseTool);
    seek.send({ type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } });
    await seek.waitFor((line) => line.type === 'control_cancel_request' && line.request_id === question.request_id);
    expect(await seek.waitFor((line) => line.type === 'result')).toMatchObject({ is_error: true, stop_reason: 'aborted' });
    seek.send(answer(question.request_id, { behavior: 'allow' }));
    seek.user('go on');
    await seek.waitFor((line) => line.type === 'result' && line.result === 'Next.');
    seek.close();
    expect(await seek.exited).toBe(0);
    expect(existsSync(join(root, 'never.txt'))).toBe(false);
    expect(seek.lines.filter((line) => line.type === 'error')).toEqual([]);
  });

  it('set_permission_mode plan refuses a write; set_model changes the next request', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'plan.txt', content: 'x' } }] }, { text: 'Could not write.' });
    const seek = start(root, home, ['--yolo']);
    seek.send({ type: 'control_request', request_id: 'm-1', request: { subtype: 'set_permission_mode', mode: 'plan' } });
    seek.send({ type: 'control_request', request_id: 'm-2', request: { subtype: 'set_model', model: 'deepseek-reasoner' } });
    await seek.waitFor((line) => line.type === 'control_response' && line.response.request_id === 'm-2');
    expect(seek.lines.find((line) => line.response?.request_id === 'm-1')?.response).toMatchObject({ subtype: 'success', response: { mode: 'plan' } });
    seek.user('write plan.txt');
    await seek.waitFor((line) => line.type === 'result');
    expect(existsSync(join(root, 'plan.txt'))).toBe(false);
    expect(seek.lines.find((line) => line.type === 'tool_end')).toMatchObject({ name: 'write_file', is_error: true });
    expect(suite.server.requests[0]!.body.model).toBe('deepseek-reasoner');
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('answers malformed lines with error events, unknown control subtypes with error responses, and reads on', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'Still here.' });
    const seek = start(root, home);
    seek.send('this is not json');
    seek.send({ type: 'nonsense' });
    seek.send({ type: 'user', message: { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] } });
    seek.send({ type: 'control_request', request_id: 'x-1', request: { subtype: 'fly_to_moon' } });
    seek.user('hello');
    await seek.waitFor((line) => line.type === 'result');
    const errors = seek.lines.filter((line) => line.type === 'error' && line.kind === 'invalid_input');
    expect(errors.map((line) => line.line)).toEqual([1, 2, 3]);
    expect(errors[0]!.message).toContain('not JSON');
    expect(errors[2]!.message).toContain('image');
    const refused = seek.lines.find((line) => line.type === 'control_response');
    expect(refused!.response).toMatchObject({ subtype: 'error', request_id: 'x-1' });
    expect(refused!.response.error).toContain('fly_to_moon');
    expect(suite.server.requests).toHaveLength(1);
    seek.close();
    expect(await seek.exited).toBe(0);
  });

  it('runs built-in slash commands as seek -p does: /cost answers locally, an unknown one is an error result', async () => {
    const { root, home } = makeProject();
    const seek = start(root, home);
    seek.user('/cost');
    seek.user('/no-such-command');
    seek.close();
    expect(await seek.exited).toBe(1); // the last turn's status
    const [cost, unknown] = seek.results();
    expect(cost).toMatchObject({ is_error: false, num_turns: 0 });
    expect(cost!.result).toMatch(/in|tokens|\$/);
    expect(unknown).toMatchObject({ is_error: true, subtype: 'error' });
    expect(unknown!.error).toContain('unknown command /no-such-command');
    expect(suite.server.requests).toHaveLength(0);
  });

  it('stdin closing mid-turn: the open question is answered no, the turn ends and the session is saved', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'echo late > late.txt' } }] }, { text: 'Nobody answered.' });
    const seek = start(root, home, ['--permission-prompt-tool', 'stdio']);
    seek.user('do something');
    await seek.waitFor(isCanUseTool);
    seek.close();
    const result = await seek.waitFor((line) => line.type === 'result');
    expect(result.result).toBe('Nobody answered.');
    expect(await seek.exited).toBe(0);
    expect(existsSync(join(root, 'late.txt'))).toBe(false);
    const saved = readFileSync(sessionFile(home), 'utf8');
    expect(saved).toContain('Nobody answered.');
    expect(saved).toContain('declined');
  });
});
