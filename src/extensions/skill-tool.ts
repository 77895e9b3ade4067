/**
 * skill: loads one skill on demand. The tool's description carries the catalog (names and short
 * descriptions, computed once at session start so the prompt prefix stays byte-stable); a call
 * returns the skill's SKILL.md body and the list of the other files in its folder, which the model
 * then reads with read_file. The read goes through the permission policy like read_file's; the
 * folders of the skills found at start count as inside the project for reads (PolicyState.readRoots).
 * A skill's `allowed-tools` narrows the tools of the rest of the turn, and what it lists runs
 * without asking where its source is trusted (extensions/allowed-tools.ts, grants.ts).
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Tool, ToolResult } from '../agent/types.js';
import type { ToolScope } from './allowed-tools.js';
import { readSkillBody, SKILL_FILE, type Skill } from './skills.js';
import { skillCatalog } from './skill-catalog.js';
import { TOOL_PARAMETERS } from '../tools/tool-schemas.generated.js';
import { SKILL_TOOL_NAME, skillSchema, type SkillArgs } from '../tools/skill-schema.js';

export { SKILL_TOOL_NAME, skillSchema, type SkillArgs };

/** Files listed per skill folder, and how deep the listing goes. */
const MAX_LISTED_FILES = 100;
const MAX_LIST_DEPTH = 4;


export interface SkillToolDeps {
  skills: readonly Skill[];
  /** Where an active skill's allowed-tools take effect (the session's gate reads it). */
  scope?: ToolScope;
}

export function createSkillTool(deps: SkillToolDeps): Tool<SkillArgs> {
  const byName = new Map(deps.skills.map((skill) => [skill.name, skill]));
  return {
    name: SKILL_TOOL_NAME,
    // In the catalog of tools on demand, the skills by name and short description (skillCatalog's
    // byte budget): each skill's name and description enter the context once, at session start.
    summary: `skills, load one when a task fits: ${skillCatalog(deps.skills).split('\n').join(' | ')}`,
    description: `Load a skill's instructions when a task fits one (an unknown name lists all):\n${skillCatalog(deps.skills)}`,
    parameters: TOOL_PARAMETERS.skill,
    get schema() {
      return skillSchema();
    },
    readOnly: true,
    describe(args) {
      const skill = byName.get(args.name.trim().toLowerCase());
      return { kind: 'read', paths: skill ? [skill.file] : [], summary: `skill ${args.name}` };
    },
    async execute(args): Promise<ToolResult> {
      const skill = byName.get(args.name.trim().toLowerCase());
      if (!skill) return { content: unknownSkill(args.name, deps.skills), isError: true };
      const read = await readSkillBody(skill);
      if ('error' in read) return { content: `skill ${skill.name} could not be read: ${read.error}`, isError: true };
      const grant = skill.allowedToolsText ? { file: skill.file, source: skill.source, entries: skill.allowedToolsText } : undefined;
      const limit = skill.allowedTools ? { by: `skill "${skill.name}"`, tools: skill.allowedTools, ...(grant ? { grant } : {}) } : undefined;
      if (limit) deps.scope?.narrow(limit);
      const held = limit ? (deps.scope?.grant(limit) ?? []) : [];
      const files = await otherFiles(skill.dir);
      const lines = [`<skill name="${skill.name}" dir="${skill.dir}">`, read.body, '</skill>'];
      if (files.names.length > 0) {
        lines.push('', `Other files in ${skill.dir} (read them with read_file when the instructions call for them):`, ...files.names);
        if (files.more) lines.push(`(more files not listed; use list_dir on ${skill.dir})`);
      }
      if (skill.allowedTools) {
        const listed = skill.allowedTools.length > 0 ? skill.allowedTools.join(', ') : 'no tools';
        lines.push('', `While this skill is active (until this turn ends) only these tools run: ${listed}; others are refused.`);
        if (held.length > 0) lines.push(...held);
      }
      return { content: lines.join('\n'), display: { kind: 'text', text: `loaded skill ${skill.name}${files.names.length ? ` (${files.names.length} other file(s))` : ''}` } };
    },
  };
}

/** An unknown name lists every skill in full: the catalog may have cut descriptions short. */
function unknownSkill(name: string, skills: readonly Skill[]): string {
  if (skills.length === 0) return `No skill named "${name}": no skills are installed.`;
  return [`No skill named "${name}". The installed skills:`, ...skills.map((skill) => `- ${skill.name}: ${skill.description}`)].join('\n');
}

/** Paths (relative to the folder, `/`-separated) of the folder's files other than SKILL.md,
 * hidden entries left out, sorted. */
async function otherFiles(dir: string): Promise<{ names: string[]; more: boolean }> {
  const names: string[] = [];
  let more = false;
  const walk = async (folder: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_LIST_DEPTH) await walk(path, depth + 1);
      } else if (entry.isFile() && !(depth === 1 && entry.name === SKILL_FILE)) {
        if (names.length >= MAX_LISTED_FILES) {
          more = true;
          return;
        }
        names.push(relative(dir, path).split('\\').join('/'));
      }
    }
  };
  await walk(dir, 1);
  return { names, more };
}
