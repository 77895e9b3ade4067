/**
 * A mistyped subcommand (`seek worktre list`) must not become a prompt for the model. The rule,
 * narrow so that a prompt is still a prompt (`seek "fix the bug"`, `seek hook up the database`):
 * the first argument is one word, not a command, at most two edits from one (one for names of up
 * to four letters, like `run`), and what follows is nothing or starts the way that command's
 * arguments do: a flag, one of its own subcommands, or an existing file. `seek -- WORDS` is always
 * a prompt.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { distance } from 'fastest-levenshtein';
import type { Command } from 'commander';
import { COMMAND_LIKE } from '../launch/route.js';

/** The refusal to print for `argv`, or undefined when it is not a near miss. */
export async function nearMissCommand(argv: readonly string[], commands: Record<string, () => Promise<Command>>, cwd: string = process.cwd()): Promise<string | undefined> {
  const [first, next] = argv;
  if (first === undefined || !COMMAND_LIKE.test(first) || first in commands) return undefined;
  const name = closestName(first.toLowerCase(), Object.keys(commands));
  if (name === undefined) return undefined;
  if (next !== undefined && !startsLike(await commands[name]!(), next, cwd)) return undefined;
  const suggestion = ['seek', name, ...argv.slice(1)].join(' ');
  return `"${first}" is not a seek command. Did you mean: ${suggestion}\n(to send it to the model as a prompt: seek -- ${argv.join(' ')})`;
}

/** The nearest command name within the allowed distance; the first of equals. */
export function closestName(word: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const d = distance(word, name);
    if (d <= (name.length <= 4 ? 1 : 2) && (best === undefined || d < best.distance)) best = { name, distance: d };
  }
  return best?.name;
}

function startsLike(command: Command, word: string, cwd: string): boolean {
  if (word.startsWith('-')) return true;
  if (command.commands.some((sub) => sub.name() === word || sub.aliases().includes(word))) return true;
  return command.registeredArguments.length > 0 && existsSync(resolve(cwd, word));
}
