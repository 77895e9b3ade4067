/**
 * The project's source files for project-wide diagnostics: a walk of the tree that skips what
 * is never source (dependencies, build output, hidden folders), capped.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

const SKIPPED = new Set(['node_modules', 'dist', 'build', 'out', 'target', 'vendor', '__pycache__', 'venv', 'coverage']);

export async function projectFiles(root: string, wanted: (file: string) => boolean, max: number): Promise<{ list: string[]; truncated: boolean }> {
  const list: string[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) queue.push(full);
      else if (entry.isFile() && wanted(full)) {
        if (list.length >= max) return { list, truncated: true };
        list.push(full);
      }
    }
  }
  return { list, truncated: false };
}
