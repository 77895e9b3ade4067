import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maybeAutoDream, readDreamState } from '../../../src/memory/auto-dream.js';
import { capPending, evaluatePending, mergeIntoPending, similarity } from '../../../src/memory/dream-merge.js';
import { parseProposals } from '../../../src/memory/dream.js';
import { parseCandidates, renderTranscript } from '../../../src/memory/distill.js';
import { rememberEntry } from '../../../src/memory/operations.js';
import type { SoulTrait } from '../../../src/memory/soul.js';
import { MemoryStore } from '../../../src/memory/store.js';
import { fakeStream } from '../../support/fake-stream.js';
import { tempStore } from './helpers.js';

const trait = (text: string, over: Partial<SoulTrait> = {}): SoulTrait => ({ trait: text, why: '', sources: [], extra: [], ...over });

describe('dream merge rules', () => {
  it('similarity: word Jaccard for phrases, Levenshtein ratio for single words', () => {
    expect(similarity('prefers small commits', 'prefers small focused commits')).toBeCloseTo(3 / 4, 6);
    expect(similarity('pnpm', 'pnpm!')).toBeCloseTo(0.8, 6);
    expect(similarity('uses tabs', 'writes Rust')).toBe(0);
  });

  it('keeps only traits with two distinct sources, merges similar ones into Pending, leaves Stable ones alone', () => {
    const pending = [trait('Prefers small commits', { why: 'asked twice', sources: ['project:a', 'session:1'], firstSeen: '2026-01-01' })];
    const stable = [trait('Writes tests first')];
    const { pending: next, items } = mergeIntoPending(
      pending,
      stable,
      [
        { trait: 'Prefers small focused commits', why: 'again in b', sources: ['project:b', 'PROJECT:B ', 'session:2'] },
        { trait: 'Writes tests first always', why: 'x', sources: ['project:a', 'project:c'] },
        { trait: 'Likes Fridays', why: 'once', sources: ['session:3'] },
        { trait: 'Answers in English', why: 'everywhere', sources: ['project:a', 'project:b'] },
      ],
      '2026-02-01',
    );
    expect(items.map((item) => item.kind)).toEqual(['merged', 'stable', 'weak', 'new']);
    expect(next.find((t) => t.trait === 'Prefers small commits')).toMatchObject({ sources: ['project:a', 'project:b', 'session:1', 'session:2'], why: 'asked twice; again in b', lastConfirmed: '2026-02-01', firstSeen: '2026-01-01' });
    expect(next.map((t) => t.trait)).toEqual(['Prefers small commits', 'Answers in English']); // most sources first
  });

  it('promotes after 14 days with 3 project sources, expires after 30 days unconfirmed, caps Pending at whole bullets', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    const { promote, expire, keep } = evaluatePending(
      [
        trait('promote me', { sources: ['project:a', 'project:b', 'project:c'], firstSeen: '2026-02-01', lastConfirmed: '2026-02-20' }),
        trait('too young', { sources: ['project:a', 'project:b', 'project:c'], firstSeen: '2026-02-20', lastConfirmed: '2026-02-20' }),
        trait('sessions only', { sources: ['session:1', 'session:2', 'session:3'], firstSeen: '2026-01-01', lastConfirmed: '2026-02-25' }),
        trait('forgotten', { sources: ['project:a', 'project:b'], firstSeen: '2026-01-01', lastConfirmed: '2026-01-15' }),
        trait('no dates', { sources: ['project:a', 'project:b'] }),
      ],
      now,
    );
    expect(promote.map((t) => t.trait)).toEqual(['promote me']);
    expect(expire.map((t) => t.trait)).toEqual(['forgotten']);
    expect(keep.map((t) => t.trait)).toEqual(['too young', 'sessions only', 'no dates']);
    const many = Array.from({ length: 200 }, (_, i) => trait(`trait number ${i} with a reasonably long description of the habit`, { sources: ['project:a', 'project:b'] }));
    const capped = capPending(many);
    expect(capped.kept.length + capped.dropped.length).toBe(200);
    expect(capped.dropped.length).toBeGreaterThan(0);
  });

  it('drops sources the inputs do not have, and refuses an answer that is not a list', () => {
    const parsed = parseProposals('```json\n[{"trait":"x y","why":"w","sources":["project:a","project:ghost"]}]\n```', new Set(['project:a']));
    expect(parsed).toEqual({ proposals: [{ trait: 'x y', why: 'w', sources: ['project:a'] }], unknown: ['project:ghost'] });
    expect(() => parseProposals('I cannot', new Set())).toThrow("the model's answer was not a JSON list of traits");
  });
});

describe('distill parsing', () => {
  it('renders the transcript without injected context and keeps at most three valid candidates', () => {
    const transcript = renderTranscript([
      { role: 'user', content: '<context source="memory.index">\nsecret index\n</context>' },
      { role: 'user', content: 'why pnpm?' },
      { role: 'assistant', content: 'Because of hoisting.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"package.json"}' }], stopReason: 'tool_calls' },
      { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: '{"name":"x"}', isError: false },
    ]);
    expect(transcript).toBe('user: why pnpm?\nassistant: Because of hoisting.\n  [tool call: read_file({"path":"package.json"})]\n[tool result c1]: {"name":"x"}');
    const many = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ name: `n-${i}`, tagline: 't', content: 'c' })));
    expect(parseCandidates(many).candidates.map((c) => c.name)).toEqual(['n-0', 'n-1', 'n-2']);
    expect(parseCandidates('{"name":"solo","tagline":"t","content":"c"}').candidates).toHaveLength(1);
  });
});

describe('automatic dreaming', () => {
  it('is off by default; with N it counts sessions and dreams in the background on the Nth, writing soul.md', async () => {
    const { home } = tempStore();
    for (const pid of ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb']) {
      await rememberEntry(new MemoryStore({ seekHome: home, projectId: pid, projectRoot: join(home, pid) }), { name: 'x', tagline: 'small commits', content: 'c' });
    }
    const notices: string[] = [];
    const options = {
      seekHome: home,
      run: true,
      model: 'flash',
      signal: new AbortController().signal,
      bill: () => undefined,
      notify: (_level: string, text: string) => notices.push(text),
    };
    const answer = JSON.stringify([{ trait: 'Prefers small commits', why: 'both projects', sources: ['project:aaaaaaaaaaaaaaaa', 'project:bbbbbbbbbbbbbbbb'] }]);
    expect(await maybeAutoDream({ ...options, every: 0, stream: fakeStream([{ text: answer }]) })).toBeUndefined();
    expect(existsSync(join(home, 'dream-state.json'))).toBe(false);

    expect(await maybeAutoDream({ ...options, every: 2, stream: fakeStream([{ text: answer }]) })).toBeUndefined();
    expect((await readDreamState(home)).sessions_since_dream).toBe(1);
    const background = await maybeAutoDream({ ...options, every: 2, stream: fakeStream([{ text: answer }]) });
    expect(background?.done).toBeInstanceOf(Promise);
    expect(existsSync(join(home, 'soul.md'))).toBe(false); // not waited for
    expect((await readDreamState(home)).sessions_since_dream).toBe(0);
    await background!.done;
    expect(readFileSync(join(home, 'soul.md'), 'utf8')).toContain('- **Prefers small commits**');
    expect(notices[0]).toMatch(/^dream: updated soul\.md/);
  });
});
