import { describe, expect, it } from 'vitest';
import { promptText } from '../../../src/acp/prompt-content.js';
import { replayUpdates } from '../../../src/acp/replay.js';
import { diffContent, parseHunks } from '../../../src/acp/tool-calls.js';
import { makeDiffDisplay } from '../../../src/tools/diff-display.js';

describe('acp mapping', () => {
  it('turns a unified diff into one ACP diff per hunk, context included', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'line two\n').replace('line 18\n', 'line eighteen\n');
    const display = makeDiffDisplay('f.txt', before, after);
    const hunks = parseHunks(display.diff);
    expect(hunks.map((hunk) => hunk.newStart)).toEqual([1, 15]);
    expect(diffContent('/p/f.txt', display, false)).toEqual([
      { type: 'diff', path: '/p/f.txt', oldText: 'line 1\nline 2\nline 3\nline 4\nline 5\n', newText: 'line 1\nline two\nline 3\nline 4\nline 5\n' },
      { type: 'diff', path: '/p/f.txt', oldText: 'line 15\nline 16\nline 17\nline 18\nline 19\nline 20\n', newText: 'line 15\nline 16\nline 17\nline eighteen\nline 19\nline 20\n' },
    ]);
    expect(diffContent('/p/new.txt', makeDiffDisplay('new.txt', '', 'a\nb\n'), true)).toEqual([{ type: 'diff', path: '/p/new.txt', newText: 'a\nb\n' }]);
  });

  it('joins prompt blocks into one message: links as paths, embedded text fenced with its URI', () => {
    expect(
      promptText([
        { type: 'text', text: 'Fix' },
        { type: 'resource_link', uri: 'file:///repo/a%20b.ts', name: 'a b.ts' },
        { type: 'text', text: 'using' },
        { type: 'resource', resource: { uri: 'file:///repo/c.ts', text: 'const c = 1;' } },
      ]),
    ).toBe('Fix @/repo/a b.ts using\n<resource uri="/repo/c.ts">\nconst c = 1;\n</resource>');
  });

  it('replays a history without injected context or mode reminders; calls carry their final status', () => {
    const updates = replayUpdates([
      { role: 'user', content: '<context source="memory">remember this</context>' },
      { role: 'user', content: 'look\n\n<system-reminder>Plan mode: read-only.</system-reminder>' },
      { role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }, { id: 'c2', name: 'read_file', arguments: '{"path":"x"}' }], stopReason: 'tool_calls' },
      { role: 'tool', toolCallId: 'c1', toolName: 'bash', content: 'a\nb', isError: false },
      { role: 'tool', toolCallId: 'c2', toolName: 'read_file', content: 'File not found: x.', isError: true },
    ]);
    expect(updates.map((update) => update.sessionUpdate)).toEqual(['user_message_chunk', 'agent_message_chunk', 'tool_call', 'tool_call']);
    expect(updates[0]).toEqual({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'look' } });
    expect(updates[2]).toMatchObject({ toolCallId: 'c1', kind: 'execute', status: 'completed', title: 'bash ls' });
    expect(updates[3]).toMatchObject({ toolCallId: 'c2', kind: 'read', status: 'failed' });
  });

  it('replays a call made through call_tool as the tool it called', () => {
    const updates = replayUpdates([
      { role: 'user', content: 'list' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'p1', name: 'call_tool', arguments: '{"name":"bash","arguments":{"command":"ls"}}' }], stopReason: 'tool_calls' },
      { role: 'tool', toolCallId: 'p1', toolName: 'bash', content: 'a', isError: false },
    ]);
    expect(updates[1]).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: 'p1', kind: 'execute', title: 'bash ls', rawInput: { command: 'ls' }, status: 'completed' });
  });
});
