import type { Command } from 'commander';

/** Commander stops by throwing (never `process.exit`, which would cut the output short); main
 * turns that into the exit status. */
export function configureExits(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) configureExits(sub);
}
