import { join } from 'node:path';
import { MemoryStore } from '../../../src/memory/store.js';
import { tempDir } from '../../support/temp-dirs.js';

/** A store under a fresh temporary SEEK_HOME (removed after the test file) with a movable clock. */
export function tempStore(start = '2026-01-01T00:00:00.000Z') {
  const home = tempDir('seek-memory-');
  const clock = { now: new Date(start) };
  const store = new MemoryStore({ seekHome: home, projectId: 'abcdefabcdefabcd', projectRoot: join(home, 'project'), now: () => clock.now });
  const advance = (days: number) => {
    clock.now = new Date(clock.now.getTime() + days * 86_400_000);
  };
  return { home, store, clock, advance };
}

export const entry = (name: string, over: Record<string, unknown> = {}) => ({ name, tagline: `${name} tagline`, content: `${name} content`, ...over });
