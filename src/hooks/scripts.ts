import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PinnedFile } from './types.js';

/**
 * Project files a hook command runs. Trusting a project's hooks covers the files its commands
 * name, not just hooks.toml: `./scripts/guard.sh`, `bash .seek/check.sh`, `node tools/x.js`.
 * Contract: every word of the command (shell-style: quotes removed, split at blanks and at
 * `; & | ( ) < >`) is resolved against the project root (where hooks run); `$SEEK_PROJECT_PATH`
 * and `${SEEK_PROJECT_PATH}` at the start of a word stand for the root, and for `--opt=value` or
 * `VAR=value` the value counts too. A word that then names a regular file inside the root is
 * covered by its sha256. Output redirection targets (`> log`, `>> log`) are not: they are written,
 * not run. Not followed: `cd` before a relative path, globs, variables other than the above, paths
 * built at run time; a hook that needs those should name its script directly.
 */

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Shell-style words of a command, with operator tokens (`>`, `|`, …) as `{ op }`. */
function tokens(command: string): Array<{ word: string } | { op: string }> {
  const out: Array<{ word: string } | { op: string }> = [];
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) out.push({ word });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end < 0 ? undefined : end);
      inWord = true;
      i = end < 0 ? command.length : end;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) i++;
        word += command[i];
      }
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (c === '#' && !inWord) {
      const newline = command.indexOf('\n', i);
      i = newline < 0 ? command.length : newline - 1;
    } else if (/\s/.test(c)) {
      flush();
    } else if (';&|()<>`'.includes(c)) {
      flush();
      out.push({ op: c });
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return out;
}

/** Candidate paths (absolute) named by the command's words; existence is not checked here. */
export function commandPaths(command: string, projectRoot: string): string[] {
  const root = path.resolve(projectRoot);
  const found = new Set<string>();
  const list = tokens(command);
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if (!('word' in token)) continue;
    const previous = list[i - 1];
    if (previous && 'op' in previous && previous.op === '>') continue; // an output target
    const word = token.word.replace(/^(\$SEEK_PROJECT_PATH|\$\{SEEK_PROJECT_PATH\})(?=\/|$)/, root);
    const eq = word.indexOf('=');
    for (const candidate of eq > 0 ? [word, word.slice(eq + 1)] : [word]) {
      if (candidate === '' || candidate.startsWith('-') || candidate.includes('$') || /[*?[]/.test(candidate)) continue;
      const absolute = path.resolve(root, candidate);
      const relative = path.relative(root, absolute);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
      found.add(absolute);
    }
  }
  return [...found];
}

/** The `/`-separated path of `absolute` relative to the project root (the trust record's key). */
export function relativeKey(projectRoot: string, absolute: string): string {
  return path.relative(path.resolve(projectRoot), absolute).split(path.sep).join('/');
}

/** sha256 of a regular file's content; undefined when it is missing, not a file, or unreadable. */
export async function fileHash(absolute: string): Promise<string | undefined> {
  try {
    if (!(await stat(absolute)).isFile()) return undefined;
    return sha256Hex(await readFile(absolute));
  } catch {
    return undefined;
  }
}

/** The project files a command names, as they are now: relative key → sha256. */
export async function commandFiles(command: string, projectRoot: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const absolute of commandPaths(command, projectRoot)) {
    const hash = await fileHash(absolute);
    if (hash !== undefined) files[relativeKey(projectRoot, absolute)] = hash;
  }
  return files;
}

export type ScriptTrust = { trusted: true; pinned: PinnedFile[] } | { trusted: false; reason: string };

/**
 * Checks the files a command names against the hashes recorded when the project was trusted.
 * Untrusted when a named file changed, disappeared, or exists now but was not recorded (created
 * since, or trusted before seek covered scripts).
 */
export async function checkCommandFiles(command: string, projectRoot: string, recorded: Readonly<Record<string, string>>): Promise<ScriptTrust> {
  const pinned: PinnedFile[] = [];
  for (const absolute of commandPaths(command, projectRoot)) {
    const relative = relativeKey(projectRoot, absolute);
    const current = await fileHash(absolute);
    const trusted = Object.hasOwn(recorded, relative) ? recorded[relative] : undefined;
    if (current === undefined && trusted === undefined) continue; // not a file: nothing to cover
    if (trusted === undefined) return { trusted: false, reason: `script not covered by the trust: ${relative}` };
    if (current === undefined) return { trusted: false, reason: `script removed: ${relative}` };
    if (current !== trusted) return { trusted: false, reason: `script changed: ${relative}` };
    pinned.push({ path: absolute, relative, sha256: current });
  }
  return { trusted: true, pinned };
}

/** The first pinned file whose content is no longer what was trusted, if any. */
export async function changedPin(pinned: readonly PinnedFile[]): Promise<PinnedFile | undefined> {
  for (const pin of pinned) {
    if ((await fileHash(pin.path)) !== pin.sha256) return pin;
  }
  return undefined;
}
