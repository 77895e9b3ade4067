/**
 * Expanding a custom command's body into the prompt sent to the model, in this order:
 *  1. arguments: `$ARGUMENTS` is everything typed after the name, `$1` … `$9` its words (quotes
 *     group words: `"two words"`). A body that uses neither gets the arguments appended as
 *     `Arguments: …` so nothing typed is lost;
 *  2. `` !`command` ``: replaced by the command's output; each one runs through the session's
 *     permission policy like a bash call (asked interactively, denied headless unless allowed);
 *  3. `@path`: a file the path names (relative to the working directory) is appended as a
 *     `<file path="…">` block, read through the policy like read_file. A mention that names no
 *     file (an e-mail address, a decorator) is left as written.
 * A refused command or read stops the expansion: nothing is sent, and the error says what.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface ExpandDeps {
  /** Runs a shell command through the policy: its output, or why it did not run. */
  run(command: string): Promise<Outcome<string>>;
  /** Reads a file through the policy; undefined when `path` names no regular file. */
  read(path: string): Promise<Outcome<{ path: string; text: string }> | undefined>;
}

const COMMAND_DIRECTIVE = /!`([^`\n]+)`/g;
const FILE_MENTION = /(^|[\s(])@([^\s`'"<>()]+)/g;
const MAX_FILES = 20;

/** Shell-like words: spaces separate, single or double quotes group (without the quotes). */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of args.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

export function substituteArguments(body: string, args: string): string {
  const trimmed = args.trim();
  const words = splitArguments(trimmed);
  let used = false;
  const text = body.replace(/\$ARGUMENTS\b|\$([1-9])(?![0-9])/g, (whole, digit: string | undefined) => {
    used = true;
    return digit === undefined ? trimmed : (words[Number(digit) - 1] ?? '');
  });
  return used || trimmed === '' ? text : `${text}\n\nArguments: ${trimmed}`;
}

export async function expandCommandText(name: string, body: string, args: string, deps: ExpandDeps): Promise<{ text: string } | { error: string }> {
  let text = substituteArguments(body, args);

  const outputs: string[] = [];
  for (const match of text.matchAll(COMMAND_DIRECTIVE)) {
    const command = match[1]!.trim();
    const outcome = await deps.run(command);
    if (!outcome.ok) return { error: `/${name}: !\`${command}\` was not run: ${outcome.reason}` };
    outputs.push(outcome.value.replace(/\s+$/, ''));
  }
  let index = 0;
  text = text.replace(COMMAND_DIRECTIVE, () => outputs[index++] ?? '');

  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(FILE_MENTION)) {
    const mention = match[2]!;
    for (const candidate of [mention, mention.replace(/[.,;:!?]+$/, '')]) {
      if (seen.has(candidate) || blocks.length >= MAX_FILES) break;
      const outcome = await deps.read(candidate);
      if (outcome === undefined) continue;
      if (!outcome.ok) return { error: `/${name}: @${candidate} was not read: ${outcome.reason}` };
      seen.add(candidate);
      blocks.push(`<file path="${outcome.value.path}">\n${outcome.value.text.replace(/\s+$/, '')}\n</file>`);
      break;
    }
  }
  return { text: blocks.length > 0 ? `${text}\n\n${blocks.join('\n\n')}` : text };
}
