import type { GitClient } from './git.js';

/**
 * `git diff --stat` then the patch between two tree-ishes, cut at `maxBytes` (UTF-8 bytes, marker
 * included) with a marker saying how to see the rest. Empty when their content is the same.
 */
export async function diffTrees(git: Pick<GitClient, 'ok'>, root: string, from: string, to: string, maxBytes: number): Promise<string> {
  if (from === to) return '';
  const [stat, patch] = await Promise.all([
    git.ok(root, ['diff', '--stat', '--no-color', from, to]),
    git.ok(root, ['diff', '--no-color', '--no-ext-diff', from, to]),
  ]);
  if (patch === '') return ''; // the same content under two names (a commit and its tree)
  const text = `${stat.trimEnd()}\n\n${patch}`;
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const marker = `\n… (diff cut at ${maxBytes} bytes; the whole of it: git diff ${from.slice(0, 12)} ${to.slice(0, 12)})`;
  const room = Math.max(0, maxBytes - Buffer.byteLength(marker));
  // A cut inside a multi-byte character leaves U+FFFD, dropped here.
  return Buffer.from(text).subarray(0, room).toString('utf8').replace(/\uFFFD+$/, '') + marker;
}
