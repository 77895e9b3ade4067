import type { AgentSession } from '../../runtime/session.js';
import { createSlashCompleter } from '../input/index.js';
import type { Completer } from '../types.js';
import { customCommandsOf, SLASH_COMMANDS } from './index.js';

/** The slash menu of `session`: the built-in commands with their argument completion, then the
 * session's custom commands (one with an argument hint completes with a space). */
export function sessionSlashCompleter(session: AgentSession): Completer['slash'] {
  return createSlashCompleter([
    ...SLASH_COMMANDS.map((command) => ({
      name: command.name,
      description: command.description,
      ...(command.args ? { args: (partial: string) => command.args!(partial, { session }) } : {}),
    })),
    ...customCommandsOf(session.customCommands ?? []).map((command) => ({
      name: command.name,
      description: `${command.description}${command.argumentHint ? ` ${command.argumentHint}` : ''}`,
      ...(command.argumentHint ? { args: () => [] } : {}),
    })),
  ]);
}
