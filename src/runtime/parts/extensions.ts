/**
 * What the user and the project added to seek: subagent types, skills and custom commands, found
 * by one discovery rule (extensions/discovery.ts) and read once at start.
 */
import type { PermissionPolicy } from '../../policy/policy.js';
import type { ToolScope } from '../../extensions/allowed-tools.js';
import { loadCommands, type CustomCommand, type UnloadedCommand } from '../../extensions/commands.js';
import { grantingFiles, projectGrantsTrusted } from '../../extensions/grants.js';
import { slashInvocable } from '../../extensions/invocable.js';
import { loadSkills, type Skill } from '../../extensions/skills.js';
import { loadSubagentTypes } from '../../subagents/definitions.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';

export interface Extensions {
  types: Awaited<ReturnType<typeof loadSubagentTypes>>['types'];
  skills: Skill[];
  /** Custom commands and skills, as /name. */
  commands: CustomCommand[];
  unloadedCommands: UnloadedCommand[];
}

export async function loadExtensions(base: SessionBase, options: OpenSessionOptions, policy: PermissionPolicy, scope: ToolScope): Promise<Extensions> {
  const roots = { projectRoot: base.projectRoot, seekHome: base.home, ...(options.env.HOME ? { home: options.env.HOME } : {}) };
  const [types, skills, commands] = await Promise.all([loadSubagentTypes(roots), loadSkills(roots), loadCommands(roots)]);
  // Skills are the user's own instructions, found where the user (or the project) put them: the
  // model reads their files without being asked about it, wherever they are (deny rules still apply).
  policy.allowReadsIn(skills.skills.map((skill) => skill.dir));
  for (const text of [...types.notices, ...skills.notices, ...commands.notices]) base.board.add('warn', text);
  // Skills run as /name too; the project's allowed-tools grant only once the user trusts them.
  const clashes: string[] = [];
  const invocable = slashInvocable(commands.commands, skills.skills, clashes);
  for (const text of clashes) base.board.add('warn', text);
  scope.projectGrantsTrusted = await projectGrantsTrusted(base.home, base.projectRoot, grantingFiles(invocable));
  return { types: types.types, skills: skills.skills, commands: invocable, unloadedCommands: commands.unloaded };
}
