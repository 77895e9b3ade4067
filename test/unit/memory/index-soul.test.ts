import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMemoryContext } from '../../../src/memory/context.js';
import { renderIndex, INDEX_HEADER } from '../../../src/memory/index-view.js';
import { rememberEntry, setPinned } from '../../../src/memory/operations.js';
import { parseSoul, SOUL_TRUNCATION_MARK, stableForInjection, updateSoulText } from '../../../src/memory/soul.js';
import { estimateTokens } from '../../../src/memory/tokens.js';
import { entry, tempStore } from './helpers.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the memory index', () => {
  it('lists name: tagline grouped by first tag (general last), never content, stale left out', async () => {
    const { store } = tempStore();
    await rememberEntry(store, { ...entry('zeta'), tags: ['build'] });
    await rememberEntry(store, { ...entry('alpha'), tags: ['build', 'ci'] });
    await rememberEntry(store, entry('loose'));
    await rememberEntry(store, { ...entry('api'), tags: ['api'] });
    const entries = (await store.load()).entries;
    entries.push({ ...entries[0]!, name: 'old-one', stale: true });
    const index = renderIndex(entries);
    expect(index.body).toBe(
      [INDEX_HEADER, '', '### api', '- api: api tagline', '', '### build', '- alpha: alpha tagline', '- zeta: zeta tagline', '', '### general', '- loose: loose tagline', '', '(1 stale entry is not listed; memory_recall with a query finds them too.)'].join('\n'),
    );
    for (const name of ['zeta', 'alpha', 'loose', 'api']) expect(index.body).not.toContain(`${name} content`);
  });

  it('gives the same bytes for the same files, whatever the order they were written in or the clock', async () => {
    const a = tempStore('2026-01-01T00:00:00Z');
    const b = tempStore('2027-06-01T00:00:00Z');
    for (const name of ['x', 'y', 'z']) await rememberEntry(a.store, { ...entry(name), tags: ['t'] });
    for (const name of ['z', 'x', 'y']) await rememberEntry(b.store, { ...entry(name), tags: ['t'] });
    const first = renderIndex((await a.store.load()).entries).body;
    expect(sha(renderIndex((await a.store.load()).entries).body)).toBe(sha(first));
    expect(sha(renderIndex((await b.store.load()).entries).body)).toBe(sha(first));
  });

  it('over 1,500 tokens keeps pinned and most-recalled entries first and says how many were left out', async () => {
    const { store } = tempStore();
    for (let i = 0; i < 400; i++) await rememberEntry(store, { name: `entry-${String(i).padStart(3, '0')}`, tagline: `a tagline long enough to cost tokens number ${i}`, content: 'c' });
    await setPinned(store, 'entry-399', true);
    const index = renderIndex((await store.load()).entries);
    expect(index.tokens).toBeLessThanOrEqual(1500);
    expect(estimateTokens(index.body)).toBe(index.tokens);
    expect(index.body).toContain('- entry-399:');
    expect(index.body.endsWith(`... and ${index.omitted} more (truncated to fit token budget)`)).toBe(true);
    expect(index.listed + index.omitted).toBe(400);
  });
});

describe('the user profile (soul.md)', () => {
  const SOUL = [
    '---',
    'schema_version: 1',
    'updated_at: 2026-01-01T00:00:00Z',
    '---',
    '# User profile',
    'Notes I wrote by hand.',
    '',
    '## Stable',
    '- **Prefers small commits**',
    '  - why: asked for it in three projects',
    '  - sources: project:a, project:b',
    '- **Writes tests first**',
    '',
    '## Pending',
    '- **Likes tabs**',
    '  - sources: session:x, project:a',
    '',
    '## My own section',
    'kept as written',
  ].join('\n');

  it('injects the Stable part without bookkeeping lines, as a user-role context message', () => {
    const context = buildMemoryContext(parseSoul(SOUL), []);
    expect(context.messages).toEqual([{ role: 'user', content: '<context source="memory.soul">\n- **Prefers small commits**\n  - why: asked for it in three projects\n- **Writes tests first**\n</context>' }]);
  });

  it('cuts Stable at whole bullets under 450 tokens, with the truncation marker', () => {
    const bullets = Array.from({ length: 80 }, (_, i) => `- **Trait number ${i} with quite a few words to make it long enough**`);
    const text = stableForInjection(parseSoul(`## Stable\n${bullets.join('\n')}\n`));
    expect(estimateTokens(text)).toBeLessThanOrEqual(450);
    expect(text.endsWith(SOUL_TRUNCATION_MARK)).toBe(true);
    const kept = text.split('\n').slice(0, -1);
    expect(kept.every((line, i) => line === bullets[i])).toBe(true);
  });

  it('a dream update replaces Pending and appends promotions, keeping every hand-written line', () => {
    const next = updateSoulText(SOUL, {
      pending: [{ trait: 'Reviews diffs before merging', why: 'twice', sources: ['project:a', 'project:c'], firstSeen: '2026-02-01', lastConfirmed: '2026-02-01', extra: [] }],
      promote: [{ trait: 'Likes tabs', why: '', sources: ['project:a', 'project:b', 'project:c'], extra: [] }],
      now: new Date('2026-02-01T00:00:00Z'),
    });
    expect(next).toContain('updated_at: 2026-02-01T00:00:00.000Z');
    expect(next).toContain('Notes I wrote by hand.');
    expect(next).toContain('## My own section\nkept as written');
    const soul = parseSoul(next);
    expect(soul.stable.traits.map((t) => t.trait)).toEqual(['Prefers small commits', 'Writes tests first', 'Likes tabs']);
    expect(soul.pending.traits).toMatchObject([{ trait: 'Reviews diffs before merging', sources: ['project:a', 'project:c'], firstSeen: '2026-02-01' }]);
  });
});
