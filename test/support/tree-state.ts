import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `root` (`.git` excluded) with its bytes (or link target) and mode. */
export function treeState(root: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (dir === root && name === '.git') continue;
      const full = join(dir, name);
      const stat = lstatSync(full);
      const key = relative(root, full);
      if (stat.isDirectory()) {
        state[`${key}/`] = 'dir';
        walk(full);
      } else if (stat.isSymbolicLink()) state[key] = `link:${readlinkSync(full)}`;
      else state[key] = `${(stat.mode & 0o777).toString(8)}:${readFileSync(full).toString('base64')}`;
    }
  };
  walk(root);
  return state;
}
