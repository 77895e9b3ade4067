import { textWidth, wrapSegments } from '../markdown/width.js';
import type { SlashCommand } from './types.js';

/** Columns the notice row takes before the text (`· `, then a 2-space hanging indent). */
const NOTICE_INDENT = 2;
/** A command or key is padded to this many columns; its description starts after it and a space. */
const LABEL_COLUMNS = 22;
/** Narrower than this, a description goes on the lines under its label. */
const MIN_DESCRIPTION_COLUMNS = 20;
const UNDER_INDENT = '      ';

const KEYS: ReadonlyArray<readonly [string, string]> = [
  ['enter', 'send   (alt+enter, ctrl+j or \\ then enter: new line)'],
  ['esc', 'cancel the running turn'],
  ['ctrl+c twice', 'exit'],
  ['shift+tab', 'cycle mode: ask → auto → yolo → plan'],
  ['ctrl+t', "the last tool row's whole output (←→ other rows, esc closes)"],
  ['ctrl+o', 'transcript: expand tool output and reasoning'],
  ['up / down', 'input history;  @ file picker;  tab completes'],
];

export function createHelpCommand(all: () => readonly SlashCommand[]): SlashCommand {
  return {
    name: 'help',
    description: 'commands and keys',
    whileRunning: true,
    run(context) {
      const width = context.width ?? 80;
      const commands = all()
        .map((command) => helpRow(`/${command.name}${command.usage ? ` ${command.usage}` : ''}`, command.description, width))
        .join('\n');
      // Custom commands a built-in shadows are left out: typing the name runs the built-in.
      const custom = (context.session.customCommands ?? []).filter((entry) => !all().some((command) => command.name === entry.name));
      const customRows = custom.map((entry) => helpRow(`/${entry.name}${entry.argumentHint ? ` ${entry.argumentHint}` : ''}`, entry.description, width));
      const customPart = custom.length > 0 ? `\n\nCustom commands\n${customRows.join('\n')}` : '';
      const keys = KEYS.map(([key, what]) => helpRow(key, what, width)).join('\n');
      context.notice(`Commands\n${commands}${customPart}\n\nKeys\n${keys}`);
    },
  };
}

/**
 * One `  label   description` row, wrapped for a terminal `width` columns wide with a hanging
 * indent: continuation lines start under the description, not back at the row's start. On a
 * terminal too narrow for that, the description goes under the label.
 */
export function helpRow(label: string, description: string, width: number): string {
  const head = `  ${label.padEnd(LABEL_COLUMNS)} `;
  const column = textWidth(head);
  const room = width - NOTICE_INDENT - column;
  if (room < MIN_DESCRIPTION_COLUMNS) {
    const under = wrapWords(description, Math.max(1, width - NOTICE_INDENT - UNDER_INDENT.length)).map((line) => UNDER_INDENT + line);
    return [`  ${label}`, ...under].join('\n');
  }
  const [first = '', ...rest] = wrapWords(description, room);
  return [head + first, ...rest.map((line) => ' '.repeat(column) + line)].join('\n');
}

function wrapWords(text: string, columns: number): string[] {
  return wrapSegments([{ text }], columns).map((line) => line.map((segment) => segment.text).join(''));
}
