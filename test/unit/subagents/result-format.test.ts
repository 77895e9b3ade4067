import { describe, expect, it } from 'vitest';
import {
  capDescription,
  capSummary,
  completedResult,
  cutUtf8,
  failedResult,
  headlineOf,
  parseAgentResult,
  shortSubSid,
} from '../../../src/subagents/result-format.js';

describe('agent result format', () => {
  it('formats a completed result with headline, summary and a footer without cost', () => {
    const text = completedResult({ summary: '## Found it\n\nThe loop is in src/agent/loop.ts:60.', subSid: '20261122-101500-a1b2c3', turns: 3, tokens: 4521 });
    expect(text).toBe('[agent: completed] Found it\n\n## Found it\n\nThe loop is in src/agent/loop.ts:60.\n\n— sub-sid: a1b2c3 · turns: 3 · tokens: 4521');
  });

  it('formats a failure with its reason and the short sub-sid (empty before one was allocated)', () => {
    expect(failedResult('timeout', 'ran out of time', '20261122-101500-a1b2c3')).toBe('[agent: failed reason=timeout] ran out of time\n\n— sub-sid: a1b2c3');
    expect(failedResult('too_many_subagents', '4 active')).toBe('[agent: failed reason=too_many_subagents] 4 active\n\n— sub-sid: ');
  });

  it('caps the summary at 4096 bytes on a UTF-8 boundary and points at the transcript', () => {
    const summary = `first line\n${'é'.repeat(3000)}`; // 2 bytes each
    const capped = capSummary(summary);
    expect(capped.truncated).toBe(true);
    expect(capped.text.endsWith('\n…(truncated)')).toBe(true);
    const body = capped.text.slice(0, -'\n…(truncated)'.length);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4096);
    expect(body).not.toContain('\uFFFD');
    const text = completedResult({ summary, subSid: 'a-b-c', turns: 1, tokens: 1, transcriptPath: '/t/transcript.jsonl' });
    expect(text).toContain('— full transcript: /t/transcript.jsonl');
  });

  it('cuts UTF-8 without splitting a character', () => {
    expect(cutUtf8('a€b', 2)).toBe('a'); // € is 3 bytes
    expect(cutUtf8('a€b', 4)).toBe('a€');
    expect(cutUtf8('abc', 10)).toBe('abc');
  });

  it('takes the first non-blank line as headline, at most 120 bytes', () => {
    expect(headlineOf('\n\n  # Title here  \nbody')).toBe('Title here');
    expect(Buffer.byteLength(headlineOf('x'.repeat(500)))).toBe(120);
  });

  it('cuts descriptions over 120 bytes with a mark and folds whitespace', () => {
    expect(capDescription('  find   the\nloop ')).toBe('find the loop');
    const long = capDescription('d'.repeat(200));
    expect(long).toBe(`${'d'.repeat(120)}…(truncated)`);
  });

  it('parses results back and shortens sub-sids', () => {
    expect(parseAgentResult('[agent: completed] x')).toEqual({ status: 'completed' });
    expect(parseAgentResult('[agent: failed reason=killed] x')).toEqual({ status: 'failed', reason: 'killed' });
    expect(parseAgentResult('something else')).toBeUndefined();
    expect(shortSubSid('20261122-101500-a1b2c3')).toBe('a1b2c3');
  });
});
