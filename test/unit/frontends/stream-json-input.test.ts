import { describe, expect, it } from 'vitest';
import { answerControlRequest, PermissionQuestions } from '../../../src/frontends/stream-json/control.js';
import { parseInputLine, userContentFromBlocks } from '../../../src/frontends/stream-json/input.js';

describe('stream-json input lines', () => {
  it('reads user messages as strings, text blocks and image blocks; a malformed image block is refused', () => {
    expect(parseInputLine('{"type":"user","message":{"role":"user","content":"hi"}}')).toEqual({ ok: true, message: { type: 'user', text: 'hi', images: [] } });
    expect(userContentFromBlocks([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }])).toEqual({ text: 'a\n\nb', images: [] });
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } };
    const imageUrl = { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } };
    expect(userContentFromBlocks([image, { type: 'text', text: 'look' }, imageUrl])).toEqual({ text: 'look', images: [image, imageUrl] });
    expect(parseInputLine(JSON.stringify({ type: 'user', message: { role: 'user', content: [image] } }))).toEqual({ ok: true, message: { type: 'user', text: '', images: [image] } });
    expect(userContentFromBlocks([{ type: 'image', source: { type: 'base64' } }])).toEqual({ error: expect.stringContaining('content block 0 (image) needs "source"') });
    expect(userContentFromBlocks([{ type: 'image_url', image_url: 3 }])).toEqual({ error: expect.stringContaining('content block 0 (image_url) needs') });
    expect(userContentFromBlocks([{ type: 'tool_result' }])).toEqual({ error: expect.stringContaining('tool_result') });
    expect(parseInputLine('{"type":"user","message":{"role":"user","content":"  "}}')).toMatchObject({ ok: false, error: 'the user message is empty' });
  });

  it('refuses what is not a message, and keeps the request id of a bad control request', () => {
    expect(parseInputLine('nope')).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
    expect(parseInputLine('[1]')).toMatchObject({ ok: false });
    expect(parseInputLine('{"type":"control_request","request_id":"r","request":{}}')).toMatchObject({ ok: false, requestId: 'r' });
    expect(parseInputLine('')).toEqual({ ok: true, message: { type: 'ignored' } });
  });

  it('answers control requests: modes by Claude Code and seek names, unknown subtypes with an error', () => {
    const lines: Record<string, unknown>[] = [];
    const modes: string[] = [];
    const target = { interrupt: () => modes.push('interrupt'), setMode: (mode: string) => (modes.push(mode), mode), setModel: () => {} };
    answerControlRequest(target, 'a', 'set_permission_mode', { mode: 'acceptEdits' }, (line) => lines.push(line));
    answerControlRequest(target, 'b', 'set_permission_mode', { mode: 'bogus' }, (line) => lines.push(line));
    answerControlRequest(target, 'c', 'warp', {}, (line) => lines.push(line));
    expect(modes).toEqual(['auto']);
    expect(lines.map((line) => (line.response as { subtype: string }).subtype)).toEqual(['success', 'error', 'error']);
  });

  it('a question for a turn already interrupted is answered no at once, and nothing is asked', async () => {
    const lines: Record<string, unknown>[] = [];
    const questions = new PermissionQuestions((line) => lines.push(line));
    const prompt = { tool: 'bash', callId: 'c1', action: { kind: 'command', paths: [], summary: 'run ls' }, cwd: '/', reason: 'bash needs approval', input: { command: 'ls' } };
    const answer = await questions.ask(prompt as unknown as Parameters<typeof questions.ask>[0], AbortSignal.abort());
    expect(answer).toBe('no');
    expect(lines).toEqual([]);
  });
});
