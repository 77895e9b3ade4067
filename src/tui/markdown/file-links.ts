import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hyperlinksOn, type Segment, type Style } from './ansi.js';

/**
 * Paths in answers as OSC 8 links to their files. Where links are on (`setHyperlinks`) and the
 * terminal UI named the session's directory (`setFileLinkRoot`), a code span or a plain word that
 * names a file existing in that directory (relative to it, or absolute inside it; an optional
 * `:line` or `:line:col` stays in the text) becomes a link to the file. Nothing else changes: the
 * text shown is the same, and with links off no file is looked at and the output is as before.
 * Fenced code is never linked (blocks.ts renders it without inline tokens).
 */

/** The address of a local file for an OSC 8 link: `file://HOST/path`, the host naming the machine
 * the file is on, as the OSC 8 convention asks (a terminal opens only its own host's files). */
export function fileUrl(file: string, host: string = thisHost()): string {
  return pathToFileURL(path.resolve(file)).href.replace(/^file:\/\//, `file://${encodeURIComponent(host)}`);
}

let host: string | undefined;
const thisHost = () => (host ??= hostname());

const urls = new Map<string, string>();
/** `fileUrl` of this host, remembered (answers re-render on every frame while they stream). */
function linkTo(file: string): string {
  let url = urls.get(file);
  if (url === undefined) {
    if (urls.size >= 1000) urls.clear();
    url = fileUrl(file);
    urls.set(file, url);
  }
  return url;
}

/** Files looked up per render at most: a long answer full of path-like words never stalls a frame. */
export const MAX_CHECKS_PER_RENDER = 200;

/** Answers whether a token names a file of the root; remembers what it looked up. */
export interface PathLinker {
  /** The file a token (`src/a.ts`, `src/a.ts:12:3`, `/abs/in/root`) names, when it exists in the
   * root; else undefined. */
  target(token: string): string | undefined;
  /** Files looked up so far (not counting answers from the cache). */
  readonly checks: number;
}

/** A linker for `root`: `exists` is asked at most `maxChecks` times (the rest are not linked). */
export function createPathLinker(root: string, exists: (file: string) => boolean = isFile, maxChecks = MAX_CHECKS_PER_RENDER): PathLinker & { readonly looked: ReadonlyMap<string, boolean> } {
  const known = new Map<string, boolean>();
  let checks = 0;
  return {
    get checks() {
      return checks;
    },
    looked: known,
    target(token) {
      const file = candidateFile(token, root);
      if (file === undefined) return undefined;
      let found = known.get(file);
      if (found === undefined) {
        if (checks >= maxChecks) return undefined;
        checks += 1;
        found = exists(file);
        known.set(file, found);
      }
      return found ? file : undefined;
    },
  };
}

function isFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

const LINE_SUFFIX = /:\d+(?::\d+)?$/;

/** The absolute file a token would name inside `root`, before looking: it must look like a path
 * (a `/`, or a name with an extension that starts with a letter), hold no space or control
 * character, not be a URL, and resolve inside the root (`../outside` does not). */
export function candidateFile(token: string, root: string): string | undefined {
  const bare = token.replace(LINE_SUFFIX, '');
  if (bare === '' || bare.length > 1024 || /[\s\u0000-\u001f\u007f-\u009f]/.test(bare) || bare.includes('://')) return undefined;
  if (!bare.includes('/') && !/[^.]\.[A-Za-z][^./]*$/.test(bare)) return undefined; // `a.ts`, not `v1.2`
  const file = path.resolve(root, bare);
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return file;
}

/** The directory answers link into, asked at each render: the session's working directory. */
let rootOf: () => string | undefined = () => undefined;
let current: PathLinker | undefined;

/**
 * The directory whose files answers link to: the session's working directory, or a function
 * giving it at each render (after enter_worktree it is inside the worktree). Undefined turns file
 * links off.
 */
export function setFileLinkRoot(dir: string | (() => string | undefined) | undefined): void {
  if (typeof dir === 'function') rootOf = () => resolvedRoot(dir());
  else {
    const fixed = resolvedRoot(dir);
    rootOf = () => fixed;
  }
}

function resolvedRoot(dir: string | undefined): string | undefined {
  return dir === undefined ? undefined : path.resolve(dir);
}

/** What a render linked against: its root and each file it looked up, with whether it was there. */
export interface LinkFacts {
  root: string;
  looked: ReadonlyMap<string, boolean>;
}

/** Runs one render with a fresh linker (its own lookups, its own cap) when file links are on. */
export function withPathLinks<T>(render: () => T): T {
  return renderWithPathLinks(render).value;
}

/** `withPathLinks`, also telling what the render's links rest on (undefined: links were off). */
export function renderWithPathLinks<T>(render: () => T): { value: T; links: LinkFacts | undefined } {
  const root = hyperlinksOn() ? rootOf() : undefined;
  if (root === undefined) return { value: render(), links: undefined };
  const outer = current;
  const linker = createPathLinker(root);
  current = linker;
  try {
    return { value: render(), links: { root, looked: linker.looked } };
  } finally {
    current = outer;
  }
}

/**
 * Whether a render's links would come out the same now: links still on or off as they were, the
 * same root, and each file it looked up (at most MAX_CHECKS_PER_RENDER) still there or still
 * missing. A file made after an answer was drawn is linked when the answer is drawn again.
 */
export function pathLinksHold(links: LinkFacts | undefined, exists: (file: string) => boolean = isFile): boolean {
  const root = hyperlinksOn() ? rootOf() : undefined;
  if (links === undefined || root === undefined) return links === undefined && root === undefined;
  if (links.root !== root) return false;
  let checks = 0;
  for (const [file, found] of links.looked) {
    if (checks++ >= MAX_CHECKS_PER_RENDER) break;
    if (exists(file) !== found) return false;
  }
  return true;
}

/** The root of the links a render would make now (undefined: off); the stream states key on it. */
export function pathLinkRoot(): string | undefined {
  return hyperlinksOn() ? rootOf() : undefined;
}

// Punctuation around a word that is not part of the path: `(src/a.ts),` or `"a.ts".`
const WORD = /^([(["'<]*)(.*?)([)\]"'>,;:.!?]*)$/;
const PLAIN_WORDS = /(\s+)/;

/** The `file://` target of a Markdown link's address that names a file (`[a.ts](src/a.ts)`). */
export function fileLinkTarget(href: string): string | undefined {
  const file = current?.target(href);
  return file === undefined ? undefined : linkTo(file);
}

/** A code span's text as segments: the whole span linked when it names a file. */
export function linkCodeSpan(text: string, style: Style | undefined): Segment[] {
  const linker = current;
  if (linker === undefined || style?.link !== undefined) return [{ text, style }];
  const file = linker.target(text.trim());
  return [{ text, style: file === undefined ? style : { ...style, link: linkTo(file) } }];
}

/** Plain text as segments: each word that names a file linked (its punctuation left out). */
export function linkPlainText(text: string, style: Style | undefined): Segment[] {
  const linker = current;
  if (linker === undefined || style?.link !== undefined || !/[./]/.test(text)) return [{ text, style }];
  const out: Segment[] = [];
  let plain = '';
  for (const piece of text.split(PLAIN_WORDS)) {
    const parts = /[./]/.test(piece) ? WORD.exec(piece) : null;
    const file = parts ? linker.target(parts[2]!) : undefined;
    if (parts === null || file === undefined) {
      plain += piece;
      continue;
    }
    plain += parts[1]!;
    if (plain !== '') out.push({ text: plain, style });
    out.push({ text: parts[2]!, style: { ...style, link: linkTo(file) } });
    plain = parts[3]!;
  }
  if (plain !== '') out.push({ text: plain, style });
  return out;
}
