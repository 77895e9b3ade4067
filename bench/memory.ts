/**
 * Memory figures (`npm run bench:memory`) with 10,000 entries in one project's memory.jsonl, on
 * real files: loading the file, building the index (and its token size, against the 1,500 cap),
 * recall by name (a locked read-modify-write of the whole file: the recall count is saved),
 * recall by query (a search, no write), and a session's memory start (decay pass + context).
 * Medians of RUNS runs; prints figures, asserts nothing.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryFile, projectDir } from '../src/config/paths.js';
import { renderIndex } from '../src/memory/index-view.js';
import { recallEntry } from '../src/memory/operations.js';
import { searchEntries } from '../src/memory/search.js';
import { DEFAULT_MEMORY_SETTINGS } from '../src/memory/settings.js';
import { SessionMemory } from '../src/memory/session-memory.js';
import { MemoryStore } from '../src/memory/store.js';
import { estimateTokens } from '../src/memory/tokens.js';

const ENTRIES = 10_000;
const RUNS = 7;
const TAGS = ['api', 'build', 'ci', 'db', 'docs', 'frontend', 'infra', 'security', 'testing', 'tooling'];

const home = realpathSync(mkdtempSync(join(tmpdir(), 'seek-bench-memory-')));
const pid = 'benchbenchbench0';
mkdirSync(projectDir(home, pid), { recursive: true });
const now = Date.now();
const lines: string[] = [];
for (let i = 0; i < ENTRIES; i++) {
  const created = new Date(now - (i % 90) * 86_400_000).toISOString();
  lines.push(
    JSON.stringify({
      schema_version: 1,
      name: `decision-${String(i).padStart(5, '0')}`,
      tagline: `Decision ${i}: use the shared ${TAGS[i % TAGS.length]} helper instead of ad-hoc code`,
      content: `We decided on ${i} because of a concrete constraint in module ${i % 250}. Alternatives were rejected. `.repeat(3),
      tags: [TAGS[i % TAGS.length]],
      created_at: created,
      updated_at: created,
      last_recalled_at: created,
      recall_count: i % 7,
      ...(i % 500 === 0 ? { pinned: true } : {}),
    }),
  );
}
writeFileSync(memoryFile(home, pid), `${lines.join('\n')}\n`);
const store = new MemoryStore({ seekHome: home, projectId: pid });

async function time(label: string, fn: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const started = performance.now();
    await fn();
    if (run >= 0) samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  console.log(`  ${label.padEnd(52)} ${median.toFixed(2).padStart(9)} ms   (min ${samples[0]!.toFixed(2)}, max ${samples.at(-1)!.toFixed(2)})`);
  return median;
}

try {
  console.log(`memory with ${ENTRIES} entries (${(Buffer.byteLength(lines.join('\n')) / 1024 / 1024).toFixed(1)} MB memory.jsonl), median of ${RUNS}:`);
  const entries = (await store.load()).entries;
  await time('load memory.jsonl', () => store.load());
  await time('build the index (render, cap 1,500 tokens)', () => renderIndex(entries));
  await time('recall by name (locked read, bump, atomic rewrite)', () => recallEntry(store, 'decision-05000'));
  await time('recall by query ("module 42", search only)', async () => searchEntries((await store.load()).entries, 'module 42'));
  await time('session start: decay pass + soul + index context', () =>
    SessionMemory.open({
      seekHome: home,
      projectId: pid,
      projectRoot: home,
      sessionId: 'bench',
      stream: async function* () {},
      flashModel: 'x',
      settings: DEFAULT_MEMORY_SETTINGS,
      save: false,
      bill: () => undefined,
      notify: () => undefined,
    }),
  );
  const index = renderIndex(entries);
  const uncapped = renderIndex(entries, Number.POSITIVE_INFINITY);
  console.log(`index: ${index.tokens} tokens (estimate), ${index.listed} entries listed, ${index.omitted} left out; uncapped it would be ${estimateTokens(uncapped.body)} tokens`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
