import { agentsCommand } from './agents.js';
import { clearCommand } from './clear.js';
import { compactCommand } from './compact.js';
import { costCommand } from './cost.js';
import { exitCommand } from './exit.js';
import { createHelpCommand } from './help.js';
import { hooksCommand } from './hooks.js';
import { modelCommand } from './model.js';
import { askCommand, autoCommand, planCommand, yoloCommand } from './modes.js';
import { resumeCommand } from './resume.js';
import type { SlashCommand } from './types.js';
import { worktreesCommand } from './worktrees.js';
import { memoryCommand } from './memory.js';
import { distillCommand } from './distill.js';
import { permissionsCommand } from './permissions.js';
import { mcpCommand } from './mcp.js';
import { lspCommand } from './lsp.js';
import { rewindCommand } from './rewind.js';
import { skillsCommand } from './skills.js';

export type { CommandContext, PanelSpec, PickerSpec, SlashCommand } from './types.js';

/**
 * The one table of slash commands. Later features add their command file here (and nowhere
 * else): the input completer and /help read this list.
 */
export const SLASH_COMMANDS: SlashCommand[] = [];
SLASH_COMMANDS.push(
  createHelpCommand(() => SLASH_COMMANDS),
  modelCommand,
  askCommand,
  autoCommand,
  yoloCommand,
  planCommand,
  resumeCommand,
  rewindCommand,
  clearCommand,
  compactCommand,
  costCommand,
  agentsCommand,
  worktreesCommand,
  memoryCommand,
  distillCommand,
  hooksCommand,
  permissionsCommand,
  mcpCommand,
  lspCommand,
  skillsCommand,
  exitCommand,
);

/** The session's custom commands that no built-in command shadows (a built-in name wins). */
export function customCommandsOf<T extends { name: string }>(commands: readonly T[]): T[] {
  return commands.filter((command) => !SLASH_COMMANDS.some((builtin) => builtin.name === command.name));
}

/** Splits `/name args` and finds the command; unknown names give undefined. */
export function parseSlashCommand(text: string): { command: SlashCommand; args: string } | { unknown: string } | undefined {
  if (!text.startsWith('/')) return undefined;
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
  if (!match) return undefined;
  const command = SLASH_COMMANDS.find((entry) => entry.name === match[1]);
  return command ? { command, args: match[2] ?? '' } : { unknown: match[1]! };
}
