/**
 * A separate process writing memory entries (the concurrency test): `node --import tsx
 * memory-writer.ts <home> <pid> <prefix> <count>` remembers `<prefix>-0` … `<prefix>-<count-1>`,
 * one transaction each, as a seek process would.
 */
import { rememberEntry } from '../../src/memory/operations.js';
import { MemoryStore } from '../../src/memory/store.js';

const [home, pid, prefix, count] = process.argv.slice(2);
const store = new MemoryStore({ seekHome: home!, projectId: pid!, lockWaitMs: 120_000 });
for (let i = 0; i < Number(count); i++) {
  await rememberEntry(store, { name: `${prefix}-${i}`, tagline: `entry ${i} of ${prefix}`, content: `written by ${prefix}` });
}
