import { existsSync } from 'node:fs';
import path from 'node:path';
import { realOrSelf } from './sensitive-paths.js';
import { globEntriesInRoot, isGlobEntry } from './denied-globs.js';

/**
 * Paths that deny rules name (`sandbox.denyRead`/`denyWrite` and the `Read(...)`/`Edit(...)` deny
 * rules turned into them, runtime/permissions.ts), resolved for one call's root: a relative entry
 * names a path in that root (a child's worktree included), an absolute one stands as it is. Only
 * paths that exist can be mounted over, and only those inside the root are returned (the rest of
 * the disk is read-only to commands anyway). A relative glob entry (`.env.*`, `**\/*.pem`) stands
 * for the files it matches in the root now (denied-globs.ts).
 */
export function deniedInRoot(entries: readonly string[], root: string): string[] {
  const literal = literalEntries(entries)
    .map((p) => (path.isAbsolute(p) ? p : path.join(root, p)))
    .filter((p) => existsSync(p));
  return [...new Set([...literal, ...globEntriesInRoot(entries, root)].map(realOrSelf).filter((p) => p.startsWith(`${root}/`)))];
}

/** The entries that name one path (not a glob). */
export function literalEntries(entries: readonly string[]): string[] {
  return entries.filter((p) => !isGlobEntry(p));
}

/**
 * The directories between `root` (excluded) and each path (excluded), to be bound onto themselves:
 * a mount point cannot be renamed or removed (EBUSY), so a command cannot move a denied file's
 * folder aside and put a folder of its own in its place (`mv config c2 && mkdir config && echo x >
 * config/deploy.yml`), nor move a hidden file's folder out from under its mount and leave the real
 * file under a new name for seek's own tools to read. Outermost first, so each inner mount lands on
 * the one before.
 */
export function ancestorsBelow(root: string, paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const p of paths) {
    if (!p.startsWith(`${root}/`)) continue;
    const parts = p.slice(root.length + 1).split('/').slice(0, -1);
    parts.forEach((_, i) => found.add(path.join(root, ...parts.slice(0, i + 1))));
  }
  return [...found].sort((a, b) => a.split('/').length - b.split('/').length);
}
