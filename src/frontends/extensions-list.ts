/**
 * The text of `/skills` and of the custom-command part of `/help`, shared by the terminal UI and
 * the plain line mode.
 */
import type { CustomCommand } from '../extensions/commands.js';
import type { Skill } from '../extensions/skills.js';

type SkillView = Pick<Skill, 'name' | 'description' | 'file'> & { allowedTools?: readonly string[] };
type CommandView = Pick<CustomCommand, 'name' | 'description'> & { argumentHint?: string };

export function skillsListing(skills: readonly SkillView[]): string {
  if (skills.length === 0) {
    return 'No skills installed. A skill is a folder with a SKILL.md in .seek/skills, .claude/skills or .agents/skills (project), or ~/.seek/skills or ~/.claude/skills (user).';
  }
  const lines = [`Skills (${skills.length}; the model loads one with the skill tool when a task fits):`];
  for (const skill of skills) {
    lines.push(`  ${skill.name}  ${skill.description}`);
    lines.push(`    ${skill.file}${skill.allowedTools ? `  · allowed-tools: ${skill.allowedTools.join(', ') || 'none'}` : ''}`);
  }
  return lines.join('\n');
}

/** `  /name HINT   description` lines, or nothing when there are no custom commands. */
export function customCommandLines(commands: readonly CommandView[], width = 22): string[] {
  return commands.map((command) => `  /${`${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}`.padEnd(width)} ${command.description}`);
}
