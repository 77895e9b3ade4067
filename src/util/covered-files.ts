import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandLine } from './covered-command.js';
import { readScripts, walkCommand, type CoveredItem, type Walk } from './covered-walk.js';

export { commandPaths, relativeKey, type CommandLine } from './covered-command.js';
export type { CoveredItem } from './covered-walk.js';

/**
 * What an approval covers: given a command line (a shell string, or a program and its arguments)
 * and the project root, the project files whose content decides what the command runs, each
 * hashed. Project hook trust (src/hooks/trust.ts) and project MCP server approval
 * (src/mcp/approvals.ts) both record these hashes and ask again when one changes.
 *
 * Covered, always inside the project root (lexically; a symlink's target is hashed as it is):
 * - every word of the command that names a file (the program, `./scripts/guard.sh`,
 *   `bash .seek/check.sh`, `node tools/mcp-server.js`, `--config=conf/rules.json`, the value of
 *   `VAR=value`), resolved against the working directory; `$SEEK_PROJECT_PATH` and
 *   `${SEEK_PROJECT_PATH}` at the start of a word stand for the root (hooks). Output targets
 *   (`> log`) are not: they are written, not run;
 * - `make` (`gmake`; `-C DIR`, `-f FILE` understood): `GNUmakefile`, `makefile` and `Makefile` of
 *   its directory (all three, so one appearing later is noticed) or the `-f` files, and the files
 *   they `include` / `-include` / `sinclude` by a literal name, transitively (at most 32 files);
 * - `npm run X` (`run-script`), `npm test|start|stop|restart`, `npm install|ci`, `yarn X`,
 *   `yarn run X`, `pnpm X`, `pnpm run X` (`--prefix`, `-C`, `--dir`, `--cwd` understood): the
 *   entries of `package.json`'s `scripts` they run, `preX` and `postX` included (install: its
 *   lifecycle scripts), by the text of each entry, not the whole file (a key
 *   `package.json#scripts.X`);
 * - `sh|bash|dash|zsh|ksh FILE`, `source FILE`, `. FILE`: the file; `sh -c '…'`: the commands
 *   in the string, by these same rules;
 * - inside a covered `scripts` entry (at most 4 levels deep): the scripts it runs by the rules above
 *   (`npm run lint`, `make`, `sh x.sh`), a program it runs by path (`./bin/x`), and the script an
 *   interpreter runs (`node|python|python3|ruby|perl|php|tsx|ts-node|deno run|bun FILE`).
 * Simple commands are split at `;`, `&`, `|`, `(`, `)`, a backquote and a newline; leading
 * `VAR=value` words and the wrappers `command`, `builtin`, `exec`, `nohup`, `time`, `env`, `nice`
 * and `timeout` are passed over to find the program.
 * Not covered: what a Makefile's recipes run (scripts, `$(MAKE) -C sub`), includes or paths built
 * from variables or globs, any other word inside a `scripts` entry (a config file a tool reads),
 * `npx`, `yarn dlx`, `pnpm exec`, workspaces (`-w`, `yarn workspace`), `node_modules` (installed
 * dependencies, their own scripts), files outside the project, and anything a command decides at
 * run time (`cd` before a relative path, variables, files it downloads).
 *
 * Reading the command line is covered-command.ts; following it into scripts and Makefiles is
 * covered-walk.ts.
 */

/** A covered item with the hash it was approved with: checked again before each run. */
export interface CoveredPin {
  /** Absolute path. */
  path: string;
  /** The record key (see CoveredItem.key): what messages show. */
  relative: string;
  sha256: string;
  /** Set for a package.json scripts entry. */
  script?: string;
}

export interface CoverageOptions {
  /** Where the command runs (default: the project root). */
  cwd?: string;
}

/** What changed since the approval, for a message. */
export type CoverageChange = 'uncovered' | 'removed' | 'changed';

export type CoverageCheck = { ok: true; pinned: CoveredPin[] } | { ok: false; change: CoverageChange; key: string };


export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}


/**
 * Everything an approval of `command` covers (see the top of this file), in the order found.
 * Existence is not checked: a covered file that does not exist yet must be noticed when it appears.
 */
export async function coveredItems(command: CommandLine, projectRoot: string, options: CoverageOptions = {}): Promise<CoveredItem[]> {
  const root = path.resolve(projectRoot);
  const walk: Walk = { root, items: new Map(), makefiles: 0 };
  await walkCommand(walk, command, path.resolve(root, options.cwd ?? '.'), 0, true);
  return [...walk.items.values()];
}

/** sha256 of a regular file's content (streamed: any size); undefined when it is missing, not a
 * regular file (a FIFO, a device, a directory), or unreadable. */
export async function fileHash(absolute: string): Promise<string | undefined> {
  try {
    if (!(await stat(absolute)).isFile()) return undefined;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(absolute)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

/** The hash of an item as it is now: the file's content, or the text of the scripts entry (sha256
 * of its JSON string); undefined when it does not exist. */
export async function itemHash(item: Pick<CoveredItem, 'path' | 'script'>): Promise<string | undefined> {
  if (item.script === undefined) return fileHash(item.path);
  const text = (await readScripts(item.path))?.[item.script];
  return typeof text === 'string' ? sha256Hex(JSON.stringify(text)) : undefined;
}

/** What a command covers, as it is now: key → hash, for the items that exist. */
export async function coveredHashes(command: CommandLine, projectRoot: string, options: CoverageOptions = {}): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const item of await coveredItems(command, projectRoot, options)) {
    const hash = await itemHash(item);
    if (hash !== undefined) hashes[item.key] = hash;
  }
  return hashes;
}

/**
 * Checks what a command covers now against the hashes recorded at approval. Not ok when an item
 * changed, disappeared, or exists now but was not recorded (created since, or approved before
 * seek covered it); ok otherwise, with the items to pin (re-hash before each run).
 */
export async function checkCovered(command: CommandLine, projectRoot: string, recorded: Readonly<Record<string, string>>, options: CoverageOptions = {}): Promise<CoverageCheck> {
  const pinned: CoveredPin[] = [];
  for (const item of await coveredItems(command, projectRoot, options)) {
    const current = await itemHash(item);
    const approved = Object.hasOwn(recorded, item.key) ? recorded[item.key] : undefined;
    if (current === undefined && approved === undefined) continue; // nothing there: nothing to cover
    if (approved === undefined) return { ok: false, change: 'uncovered', key: item.key };
    if (current === undefined) return { ok: false, change: 'removed', key: item.key };
    if (current !== approved) return { ok: false, change: 'changed', key: item.key };
    pinned.push({ path: item.path, relative: item.key, sha256: current, ...(item.script !== undefined ? { script: item.script } : {}) });
  }
  return { ok: true, pinned };
}

/** The first pin whose content is no longer what was approved, if any. */
export async function changedPin<T extends CoveredPin>(pinned: readonly T[]): Promise<T | undefined> {
  for (const pin of pinned) {
    if ((await itemHash(pin)) !== pin.sha256) return pin;
  }
  return undefined;
}
