import { describe, expect, it } from 'vitest';
import {
  buildSummaryPrompt,
  renderTranscript,
  TOOL_ARGS_CHARS,
  TOOL_RESULT_CHARS,
} from '../../../src/runtime/compaction.js';
import type { Message } from '../../../src/providers/types.js';
import { sampleHistory } from './helpers.js';

const BIG = 1_000_000;

describe('the rendered transcript', () => {
  it('shows user, assistant and tool messages, with tool calls as [called name(args)]', () => {
    const { text, omitted } = renderTranscript(sampleHistory(), BIG);
    expect(omitted).toBe(0);
    expect(text).toBe(
      [
        '[user]\nRename the heading in README.md to "demo project".',
        '[assistant]\nLet me look.\n[called read_file({"path":"README.md"})]',
        '[tool result: read_file]\n# demo\n',
        '[assistant]\n[called bash({"command":"npm test"})]',
        '[tool result: bash, error]\nexit code 1: 2 tests failed',
      ].join('\n\n'),
    );
  });

  it('cuts each tool result to about 2,000 characters and long call arguments to 300', () => {
    const history: Message[] = [
      { role: 'user', content: 'read the big file' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'write_file', arguments: JSON.stringify({ path: 'a.txt', content: 'w'.repeat(5_000) }) }], stopReason: 'tool_calls' },
      { role: 'tool', toolCallId: 'c', toolName: 'write_file', content: 'r'.repeat(5_000) + 'TAIL', isError: false },
    ];
    const { text } = renderTranscript(history, BIG);
    expect(text).toContain('r'.repeat(TOOL_RESULT_CHARS) + '… [3004 more chars cut]');
    expect(text).not.toContain('TAIL');
    expect(text).toMatch(/\[called write_file\(\{"path":"a\.txt","content":"w+… \[\d+ more chars cut\]\)\]/);
    const call = text.split('\n').find((line) => line.startsWith('[called'))!;
    expect(call.length).toBeLessThan(TOOL_ARGS_CHARS + 60);
  });

  it('leaves reasoning out', () => {
    const history: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'answer', reasoning: 'SECRET THOUGHTS', toolCalls: [], stopReason: 'stop' },
    ];
    expect(renderTranscript(history, BIG).text).not.toContain('SECRET THOUGHTS');
  });

  it('keeps the first user message and the most recent part when the history is too large, and says so', () => {
    const history: Message[] = [{ role: 'user', content: 'THE ORIGINAL TASK' }];
    for (let i = 0; i < 40; i++) {
      history.push({ role: 'assistant', content: `step ${i} ${'x'.repeat(200)}`, toolCalls: [], stopReason: 'stop' });
      history.push({ role: 'user', content: `go on ${i}` });
    }
    const { text, omitted } = renderTranscript(history, 3_000);
    expect(text.length).toBeLessThanOrEqual(3_000);
    expect(text.startsWith('[user]\nTHE ORIGINAL TASK\n\n[… ')).toBe(true);
    expect(omitted).toBeGreaterThan(0);
    expect(text).toContain(`[… ${omitted} earlier messages omitted to fit the context window …]`);
    expect(text.endsWith('[user]\ngo on 39')).toBe(true);
    expect(text).not.toContain('step 0 ');
    // Everything after the note is a contiguous run of the newest messages.
    const kept = text.split('\n\n').length - 2;
    expect(kept + omitted + 1).toBe(history.length);
  });

  it('keeps the end of the newest message when not even that fits whole, and caps a huge task', () => {
    const history: Message[] = [
      { role: 'user', content: 'TASK ' + 't'.repeat(10_000) },
      { role: 'assistant', content: 'a'.repeat(10_000) + 'THE END', toolCalls: [], stopReason: 'stop' },
    ];
    const { text, omitted } = renderTranscript(history, 4_000);
    expect(omitted).toBe(0);
    expect(text.length).toBeLessThanOrEqual(4_000);
    expect(text).toContain('[user]\nTASK ');
    expect(text.endsWith('THE END')).toBe(true);
  });
});

describe('the summariser prompt', () => {
  it('holds the transcript and asks for a brief that lets the work continue', () => {
    const prompt = buildSummaryPrompt(sampleHistory(), 1_000_000);
    expect(prompt).toContain(`<conversation>\n${renderTranscript(sampleHistory(), BIG).text}\n</conversation>`);
    for (const part of ['goals', 'current request', 'decisions', 'files read and files changed', 'commands run', 'errors', 'exact next step', '600 words']) {
      expect(prompt).toContain(part);
    }
    expect(prompt).not.toContain('omitted');
    expect(prompt).not.toContain('Additional instructions');
  });

  it('trims to about 60% of the window (chars / 4) and says earlier parts were omitted', () => {
    const history: Message[] = [{ role: 'user', content: 'THE ORIGINAL TASK' }];
    for (let i = 0; i < 100; i++) history.push({ role: 'user', content: `message ${i} ${'y'.repeat(100)}` });
    const prompt = buildSummaryPrompt(history, 2_000); // budget 2,000 * 0.6 * 4 = 4,800 chars
    const transcript = prompt.slice(prompt.indexOf('<conversation>'), prompt.indexOf('</conversation>'));
    expect(transcript.length).toBeLessThanOrEqual(4_800 + 20);
    expect(transcript.length).toBeGreaterThan(4_000);
    expect(transcript).toContain('THE ORIGINAL TASK');
    expect(transcript).toContain('message 99 ');
    expect(prompt).toMatch(/Earlier parts of the conversation \(\d+ messages\) were omitted to fit the context window; say so in the brief\./);
  });

  it('adds the /compact instructions', () => {
    expect(buildSummaryPrompt(sampleHistory(), 1_000_000, 'keep the test names')).toContain(
      'Additional instructions from the user for this summary: keep the test names',
    );
    expect(buildSummaryPrompt(sampleHistory(), 1_000_000, '   ')).not.toContain('Additional instructions');
  });
});
