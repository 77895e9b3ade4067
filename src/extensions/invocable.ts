/**
 * Everything the user can run as `/name`: custom commands and skills, as in Claude Code, where a
 * skill `pdf` is `/pdf` too. A skill run this way is a command whose body is its SKILL.md (with
 * `$ARGUMENTS`, `$1`, `` !`cmd` `` and `@file` expanded like a command's), wrapped in the same
 * `<skill>` block the `skill` tool returns. When a skill and a command have the same name the skill
 * wins, as in Claude Code; a subfolder command keeps its namespaced name (`/review:code-review`),
 * any other is not reachable; either way a notice names both files.
 */
import type { CustomCommand } from './commands.js';
import type { Skill } from './skills.js';

export function skillCommand(skill: Skill): CustomCommand {
  return {
    name: skill.name,
    description: `${skill.description} (skill)`,
    file: skill.file,
    source: skill.source,
    skillDir: skill.dir,
    ...(skill.within ? { within: skill.within } : {}),
    ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
    ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
    ...(skill.allowedToolsText ? { allowedToolsText: skill.allowedToolsText } : {}),
  };
}

/** Commands and skills by the name that runs them, sorted by name. */
export function slashInvocable(commands: readonly CustomCommand[], skills: readonly Skill[], notices: string[]): CustomCommand[] {
  const bySkill = new Map(skills.map((skill) => [skill.name, skill]));
  const out: CustomCommand[] = skills.map(skillCommand);
  for (const command of commands) {
    const skill = bySkill.get(command.name);
    if (!skill) {
      out.push(command);
      continue;
    }
    if (command.namespaced) {
      notices.push(`command ${command.file}: /${command.name} is the skill ${skill.file}; this command runs as /${command.namespaced}`);
      out.push({ ...command, name: command.namespaced });
    } else {
      notices.push(`command ${command.file}: /${command.name} is the skill ${skill.file}, which wins (as in Claude Code); this command is not reachable`);
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The command `word` (without the slash) names: by its name, or a subfolder command's namespaced name. */
export function findInvocable(word: string, commands: readonly CustomCommand[]): CustomCommand | undefined {
  return commands.find((entry) => entry.name === word) ?? commands.find((entry) => entry.namespaced === word);
}
