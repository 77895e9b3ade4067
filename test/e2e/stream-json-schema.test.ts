import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';
import { StreamJsonSeek } from '../support/stream-json-client.js';

const suite = useScriptedServer();
const SCHEMA = JSON.parse(readFileSync(new URL('../../schemas/stream-json.schema.json', import.meta.url), 'utf8')) as object;
const running: StreamJsonSeek[] = [];
afterEach(() => {
  for (const seek of running.splice(0)) seek.kill();
});

describe('schemas/stream-json.schema.json', { timeout: 180_000 }, () => {
  it('describes every line of a real conversation: retries, tools, permission questions, a subagent, control answers, bad input, results', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { httpError: { status: 500, message: 'try again' } },
      { reasoning: 'Look first.', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }, { name: 'bash', arguments: { command: 'touch made.txt' } }] },
      { toolCalls: [{ name: 'agent', arguments: { description: 'look around', prompt: 'List the files.', subagent_type: 'explore' } }] },
      { text: 'Only README.md.' },
      { text: 'All done.' },
      { text: 'Second turn.' },
    );
    const seek = StreamJsonSeek.start({ cwd: root, env: suite.env(home), args: ['--permission-prompt-tool', 'stdio'] });
    running.push(seek);
    seek.answerQuestions(() => ({ behavior: 'allow' }));
    seek.send('{broken');
    seek.send({ type: 'control_request', request_id: 'c-1', request: { subtype: 'no_such_thing' } });
    seek.send({ type: 'control_request', request_id: 'c-2', request: { subtype: 'set_permission_mode', mode: 'default' } });
    seek.user('look and make a file');
    await seek.waitFor((line) => line.type === 'result');
    seek.user('and again');
    seek.close();
    expect(await seek.exited).toBe(0);

    const validate = new Ajv({ allErrors: true }).compile(SCHEMA);
    const invalid = seek.lines.filter((line) => !validate(line)).map((line) => ({ line, errors: (validate(line), validate.errors) }));
    expect(invalid).toEqual([]);
    const types = new Set(seek.lines.map((line) => `${line.type}${line.sub_sid && !String(line.type).startsWith('subagent_') ? '@sub' : ''}`));
    for (const type of ['system', 'message', 'turn_start', 'reasoning_delta', 'text_delta', 'retry', 'tool_start', 'tool_end', 'usage', 'turn_end', 'error', 'subagent_start', 'subagent_end', 'message@sub', 'result', 'control_request', 'control_response']) {
      expect(types, type).toContain(type);
    }
    expect(seek.lines.filter((line) => line.type === 'result')).toHaveLength(2);
  });

  it('refuses lines that drift from it (the check can fail)', () => {
    const validate = new Ajv().compile(SCHEMA);
    expect(validate({ type: 'turn_start', turn: 1 })).toBe(true);
    expect(validate({ type: 'turn_start', turn: 1, surprise: true })).toBe(false);
    expect(validate({ type: 'result', subtype: 'success' })).toBe(false);
    expect(validate({ type: 'no_such_line' })).toBe(false);
  });
});
