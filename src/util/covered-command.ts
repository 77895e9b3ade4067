import path from 'node:path';

/**
 * Reading a command line for what an approval covers (covered-files.ts): shell-style words split
 * into simple commands, the program of each past assignments and wrappers, option values and
 * operands, and the literal paths its words name inside the project root.
 */

/** A command line: a shell string (hooks), or a program with its arguments (a stdio MCP server). */
export type CommandLine = string | { argv: readonly string[] };

export type Token = { word: string } | { op: string };

/** Shell-style words of a command, with operator tokens (`>`, `|`, a newline, …) as `{ op }`. */
export function tokens(command: string): Token[] {
  const out: Token[] = [];
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
      if (command[i + 1] === '\n') i++; // a line continuation
      else {
        word += command[++i];
        inWord = true;
      }
    } else if (c === '#' && !inWord) {
      const newline = command.indexOf('\n', i);
      i = newline < 0 ? command.length : newline - 1;
    } else if (c === '\n') {
      flush();
      out.push({ op: c });
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

export function insideRoot(root: string, absolute: string): boolean {
  const relative = path.relative(root, absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** A literal path word (no variables, no globs) resolved against `cwd`, if it stays in the root. */
export function literalPath(word: string, root: string, cwd: string): string | undefined {
  const expanded = word.replace(/^(\$SEEK_PROJECT_PATH|\$\{SEEK_PROJECT_PATH\})(?=\/|$)/, root);
  if (expanded === '' || expanded.startsWith('-') || expanded.includes('$') || /[*?[]/.test(expanded)) return undefined;
  const absolute = path.resolve(cwd, expanded);
  return insideRoot(root, absolute) ? absolute : undefined;
}

/** The `/`-separated path of `absolute` relative to the project root (the record's key). */
export function relativeKey(projectRoot: string, absolute: string): string {
  return path.relative(path.resolve(projectRoot), absolute).split(path.sep).join('/');
}

/**
 * Candidate paths (absolute) named by the command's words, resolved against `cwd` (default the
 * root); existence is not checked here. The first rule of the list at the top of this file.
 */
export function commandPaths(command: CommandLine, projectRoot: string, cwd: string = projectRoot): string[] {
  const root = path.resolve(projectRoot);
  const base = path.resolve(root, cwd);
  const found = new Set<string>();
  const list: Token[] = typeof command === 'string' ? tokens(command) : command.argv.map((word) => ({ word }));
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if (!('word' in token)) continue;
    const previous = list[i - 1];
    if (previous && 'op' in previous && previous.op === '>') continue; // an output target
    const eq = token.word.indexOf('=');
    for (const candidate of eq > 0 ? [token.word, token.word.slice(eq + 1)] : [token.word]) {
      const absolute = literalPath(candidate, root, base);
      if (absolute) found.add(absolute);
    }
  }
  return [...found];
}


/** Splits tokens into simple commands (their words, redirections left out). */
export function simpleCommands(list: readonly Token[]): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if ('word' in token) {
      current.push(token.word);
    } else if (token.op === '<' || token.op === '>') {
      const next = list[i + 1];
      if (next && 'word' in next) i++; // the redirection's file
    } else {
      if (current.length > 0) commands.push(current);
      current = [];
    }
  }
  if (current.length > 0) commands.push(current);
  return commands;
}

/** The program of a simple command after assignments and wrappers, and the index of its word. */
export function programAt(words: readonly string[]): number {
  let i = 0;
  while (i < words.length) {
    const word = words[i]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      i++;
      continue;
    }
    const name = path.basename(word);
    if (name === 'command' || name === 'builtin' || name === 'exec' || name === 'nohup' || name === 'time') {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i++;
    } else if (name === 'env') {
      i++;
      while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) {
        if (words[i] === '-u' || words[i] === '-C' || words[i] === '-S') i++;
        i++;
      }
    } else if (name === 'nice') {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i += words[i] === '-n' ? 2 : 1;
    } else if (name === 'timeout') {
      i++;
      while (i < words.length && words[i]!.startsWith('-')) i += words[i] === '-s' || words[i] === '-k' ? 2 : 1;
      i++; // the duration
    } else {
      return i;
    }
  }
  return words.length;
}

/** Words of `args` that are not options (a value of an option given as `--opt=value` stays attached). */
export function operands(args: readonly string[], valued: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i + 1)];
    if (arg.startsWith('-')) {
      if (valued.has(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** The value of a directory option (`-C dir`, `-Cdir`, `--dir=dir`, `--dir dir`), the last given. */
export function optionValue(args: readonly string[], short: readonly string[], long: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    for (const flag of short) {
      if (arg === flag) value = args[i + 1];
      else if (arg.startsWith(flag) && flag.length === 2 && !arg.startsWith('--')) value = arg.slice(2);
    }
    for (const flag of long) {
      if (arg === flag) value = args[i + 1];
      else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
    }
  }
  return value;
}
