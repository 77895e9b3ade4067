import { customCommandLines } from '../../frontends/extensions-list.js';
import type { SlashCommand } from './types.js';

export function createHelpCommand(all: () => readonly SlashCommand[]): SlashCommand {
  return {
    name: 'help',
    description: 'commands and keys',
    whileRunning: true,
    run(context) {
      const commands = all()
        .map((command) => `  /${`${command.name}${command.usage ? ` ${command.usage}` : ''}`.padEnd(22)} ${command.description}`)
        .join('\n');
      // Custom commands a built-in shadows are left out: typing the name runs the built-in.
      const custom = (context.session.customCommands ?? []).filter((entry) => !all().some((command) => command.name === entry.name));
      const customPart = custom.length > 0 ? `\n\nCustom commands\n${customCommandLines(custom).join('\n')}` : '';
      const keys = [
        '  enter                  send   (alt+enter, ctrl+j or \\ then enter: new line)',
        '  esc                    cancel the running turn',
        '  ctrl+c twice           exit',
        '  shift+tab              cycle mode: ask → auto → yolo → plan',
        '  ctrl+t                 the last tool row\'s whole output (←→ other rows, esc closes)',
        '  ctrl+o                 transcript: expand tool output and reasoning',
        '  up / down              input history;  @ file picker;  tab completes',
      ].join('\n');
      context.notice(`Commands\n${commands}${customPart}\n\nKeys\n${keys}`);
    },
  };
}
