/**
 * Shell words as bash evaluates them before running a program: quotes and backslashes removed,
 * `$'…'` decoded, globs and brace expansions made unknown (a word's *unknown* parts are only known
 * when the command runs), plus how a word and a simple command are shown. The walk that builds them
 * from the bash grammar's tree is walk.ts.
 */
/** A piece of a word: known text, or something only known when the command runs. */
export type WordPart = { text: string } | { unknown: string };

export interface ShellWord {
  /** The word as written. */
  source: string;
  parts: WordPart[];
}

export interface SimpleCommand {
  /** Leading `NAME=value` assignments (`FOO=1 curl …`), as words. */
  assignments: ShellWord[];
  /** The program and its arguments; empty for a bare assignment or redirection. */
  argv: ShellWord[];
  /** An output redirection to a file (not `/dev/null`, not another descriptor) applies to it. */
  writesFiles: boolean;
  /** What it was reached through, outermost first: `sudo`, `sh -c`, `$( )`, `xargs`. */
  via: string[];
  /** Its runner appends arguments when it runs (xargs, parallel): more words may follow. */
  openArgs: boolean;
  /** Set when its program is a wrapper (WRAPPERS) that runs another command, which is listed too.
   * `transparent`: the wrapper only changes how the command runs (time, nice, timeout…), so an
   * allow rule for the command covers it; env, sudo, xargs, find, shells and the like are not. */
  wrapper?: { name: string; transparent: boolean; runs: boolean };
  /** Set when the command stands for something that cannot be read statically (the program is
   * then unknown): why. */
  unresolved?: string;
}

export interface CommandAnalysis {
  command: string;
  commands: SimpleCommand[];
  /** Why no allow rule may apply (empty when every command could be read). */
  problems: string[];
}

export function literalOf(word: ShellWord): string | undefined {
  let text = '';
  for (const part of word.parts) {
    if ('unknown' in part) return undefined;
    text += part.text;
  }
  return text;
}

export const textWord = (text: string, source = text): ShellWord => ({ source, parts: [{ text }] });
export const unknownWord = (source: string): ShellWord => ({ source, parts: [{ unknown: source }] });

/** The program a word names, compared by its last path component (`/usr/bin/curl`, `./curl` →
 * `curl`); undefined when that component is not known before the command runs. */
export function programName(word: ShellWord): string | undefined {
  let tail = '';
  for (const part of word.parts) {
    if ('unknown' in part) {
      tail = '\0'; // unknown until a later literal slash
      continue;
    }
    const slash = part.text.lastIndexOf('/');
    tail = slash >= 0 ? part.text.slice(slash + 1) : tail + part.text;
  }
  return tail.includes('\0') ? undefined : tail;
}

/** Shell-quotes a literal word for display; unknown parts keep their source. */
export function displayWord(word: ShellWord): string {
  const literal = literalOf(word);
  if (literal === undefined) return word.source;
  if (literal !== '' && /^[\w@%+=:,./-]+$/.test(literal)) return literal;
  return `'${literal.replace(/'/g, `'\\''`)}'`;
}

/** `[via → ]words`, as `seek permissions check` shows a simple command. */
export function formatSimpleCommand(command: SimpleCommand): string {
  const words = [...command.assignments, ...command.argv].map(displayWord).join(' ');
  const shown = command.unresolved !== undefined && command.argv.length <= 1 ? `${words || '?'} (unknown: ${command.unresolved})` : words;
  return command.via.length > 0 ? `${command.via.join(' → ')} → ${shown}` : shown;
}

/** A run of a word being built: quoted text is never glob or brace syntax. */
export type Seg = { text: string; quoted: boolean } | { unknown: string };

export function pushUnquoted(text: string, segs: Seg[]): void {
  let run = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      if (run) segs.push({ text: run, quoted: false });
      run = '';
      const next = text[++i]!;
      if (next !== '\n') segs.push({ text: next, quoted: true });
      continue;
    }
    run += ch;
  }
  if (run) segs.push({ text: run, quoted: false });
}

export function pushQuoted(text: string, segs: Seg[]): void {
  if (text) segs.push({ text, quoted: true });
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a newline. */
export function pushDoubleQuoted(text: string, segs: Seg[]): void {
  pushQuoted(text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch)), segs);
}

/** bash's `$'…'` escapes; a NUL (`\0`, `\x00`, `\c@`…) ends the string (`$'rm\0x'` is `rm`). */
export function decodeAnsiC(body: string): string {
  return decodeEscapes(body).split('\0')[0]!;
}

function decodeEscapes(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const e = body[++i]!;
    const simple: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
    if (e in simple) {
      out += simple[e];
    } else if (/[0-7]/.test(e)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const max = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const digits = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(body.slice(i + 1))?.[0];
      if (!digits) {
        out += `\\${e}`;
        continue;
      }
      const code = parseInt(digits, 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
      i += digits.length;
    } else if (e === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += `\\${e}`;
    }
  }
  return out;
}

/** Glob and brace syntax in the unquoted characters: unquoted `*`, `?` and `[…]` become unknown
 * (they expand to file names); a brace expansion makes the whole word unknown. */
export function finishWord(source: string, runs: Seg[]): ShellWord {
  if (!runs.some((run) => 'quoted' in run && !run.quoted && /[*?[{]/.test(run.text))) return { source, parts: segsToParts(runs) };
  // Character by character, each knowing whether it was quoted.
  type Char = { ch: string; quoted: boolean } | { unknown: string };
  const segs: Char[] = runs.flatMap((run): Char[] => ('unknown' in run ? [run] : [...run.text].map((ch) => ({ ch, quoted: run.quoted }))));
  const unquoted = (s: Char | undefined, ch: string): boolean => s !== undefined && !('unknown' in s) && !s.quoted && s.ch === ch;
  for (let open = 0; open < segs.length; open++) {
    if (!unquoted(segs[open], '{')) continue;
    for (let close = open + 1; close < segs.length; close++) {
      if (unquoted(segs[close], '}')) {
        const inner = segs.slice(open + 1, close);
        const comma = inner.some((s) => unquoted(s, ','));
        const range = inner.some((s, k) => unquoted(s, '.') && unquoted(inner[k + 1], '.'));
        if (comma || range) return unknownWord(source);
        break;
      }
    }
  }
  const parts: WordPart[] = [];
  const addText = (ch: string): void => {
    const last = parts.at(-1);
    if (last && 'text' in last) last.text += ch;
    else parts.push({ text: ch });
  };
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if ('unknown' in seg) {
      parts.push({ unknown: seg.unknown });
    } else if (!seg.quoted && (seg.ch === '*' || seg.ch === '?')) {
      parts.push({ unknown: seg.ch });
    } else if (!seg.quoted && seg.ch === '[') {
      let close = -1;
      for (let k = i + 2; k < segs.length; k++) {
        if (unquoted(segs[k], ']')) {
          close = k;
          break;
        }
      }
      if (close < 0) addText('[');
      else {
        parts.push({ unknown: '[…]' });
        i = close;
      }
    } else {
      addText(seg.ch);
    }
  }
  return { source, parts };
}

export function segsToParts(segs: Seg[]): WordPart[] {
  const parts: WordPart[] = [];
  for (const seg of segs) {
    const last = parts.at(-1);
    if ('unknown' in seg) parts.push({ unknown: seg.unknown });
    else if (last && 'text' in last) last.text += seg.text;
    else parts.push({ text: seg.text });
  }
  return parts;
}
