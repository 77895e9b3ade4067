/**
 * Builds `Completer['slash']` from a command table, so the App's command registry plugs in
 * without the editor knowing about commands.
 *
 * Convention the editor relies on (see completion.ts): a command that takes arguments completes
 * as `/name ` (trailing space: Enter then shows its arguments instead of submitting), one that
 * takes none completes as `/name` (Enter submits it at once). An argument completes bare.
 */
import type { Completer, Completion } from '../types.js';

export interface SlashCommandSpec {
  /** Without the slash. */
  name: string;
  description: string;
  /** Candidates for the argument; `partial` is everything typed after `/name `. */
  args?: (partial: string) => Completion[];
}

export function createSlashCompleter(commands: readonly SlashCommandSpec[]): Completer['slash'] {
  return (line: string): Completion[] => {
    const match = /^\/(\S*)(\s+([\s\S]*))?$/.exec(line);
    if (!match) return [];
    const name = match[1] ?? '';
    if (match[2] === undefined) return commandsMatching(commands, name);
    const command = commands.find((entry) => entry.name === name);
    return command?.args ? command.args(match[3] ?? '') : [];
  };
}

/** Commands whose name is `typed`, then those starting with it, then those containing it
 * (case-insensitive), each group in table order. */
function commandsMatching(commands: readonly SlashCommandSpec[], typed: string): Completion[] {
  const needle = typed.toLowerCase();
  const rank = (name: string): number => {
    const lower = name.toLowerCase();
    if (lower === needle) return 0;
    if (lower.startsWith(needle)) return 1;
    return lower.includes(needle) ? 2 : -1;
  };
  return commands
    .map((command, index) => ({ command, index, rank: rank(command.name) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ command }) => ({
      value: `/${command.name}${command.args ? ' ' : ''}`,
      label: `/${command.name}`,
      description: command.description,
    }));
}
