/**
 * Skills: folders holding a `SKILL.md` (YAML frontmatter `name`, `description`, optional
 * `allowed-tools`, then the instructions) plus any files the instructions refer to. Found by the
 * shared rule (discovery.ts) in `skills/` folders. Only names and descriptions are read into the
 * session (skillCatalog); the body is read when the model calls the `skill` tool.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { lazySchema } from '../util/zod.js';
import { parseAllowedTools } from './allowed-tools.js';
import { byCodeUnit, collectByName, extensionDirs, listDir, readBoundedText, type ExtensionRoots, type ExtensionSource } from './discovery.js';
import { loadYamlParser, oneLine, parseFieldsLeniently, splitFrontmatter, withoutNulls } from './frontmatter.js';
import { splitToolList } from './tool-list.js';

export const SKILL_FILE = 'SKILL.md';
export const MAX_SKILLS = 200;
export const MAX_SKILL_FILE_BYTES = 128 * 1024;
const MAX_DESCRIPTION_CHARS = 1024;
const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface Skill {
  name: string;
  /** One line, at most 1024 characters. */
  description: string;
  /** The skill's folder and its SKILL.md. */
  dir: string;
  file: string;
  source: ExtensionSource;
  /** seek tool names; absent: the skill narrows nothing. */
  allowedTools?: string[];
  /** allowed-tools as written: what runs without asking while it is active (grants.ts). */
  allowedToolsText?: string[];
  /** `argument-hint`, shown when it is run as `/name`. */
  argumentHint?: string;
  /** The folder SKILL.md must stay inside when it is read again (extensions/discovery.ts): the
   * project root or the user's config folder. Absent: the skill's own folder. */
  within?: string;
}

const notice = (path: string, what: string): string => `skill ${path}: ${what}`;

const fieldsSchema = lazySchema((z) =>
  z.looseObject({
    name: z.string({ error: 'must be a string' }).optional(),
    description: z.string({ error: (issue) => (issue.input === undefined ? 'missing' : 'must be a string') }),
    'allowed-tools': z.union([z.array(z.string()), z.string()], { error: 'must be a list or a string' }).optional(),
    'argument-hint': z.union([z.string(), z.array(z.string())], { error: 'must be a string' }).optional(),
  }),
);

/** Parses one SKILL.md. Pure: `file` names the skill's folder and appears in notices. */
export function parseSkill(text: string, file: string, source: ExtensionSource): { skill?: Skill; notices: string[]; body?: string } {
  const notices: string[] = [];
  const skip = (what: string) => ({ notices: [...notices, notice(file, `${what}; skipped`)] });
  const parts = splitFrontmatter(text);
  if (!parts) return skip('no YAML frontmatter (the first line must be "---", closed by another "---" line)');
  const yaml = parseFieldsLeniently(parts.frontmatter);
  if ('error' in yaml) return skip(yaml.error);
  const parsed = fieldsSchema().safeParse(withoutNulls(yaml.value));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return skip(`${issue?.path.map(String).join('.') || 'frontmatter'}: ${issue?.message ?? 'invalid'}`);
  }
  const dir = dirname(file);
  const name = (parsed.data.name ?? basename(dir)).trim().toLowerCase();
  if (!NAME_PATTERN.test(name)) return skip(`name "${name}" is invalid (1-64 of a-z, 0-9, "-", "_", starting with a letter or digit)`);
  const description = oneLine(parsed.data.description, MAX_DESCRIPTION_CHARS);
  if (!description) return skip('description: empty');
  const skill: Skill = { name, description, dir, file, source };
  const allowed = parsed.data['allowed-tools'];
  if (allowed !== undefined) {
    skill.allowedTools = parseAllowedTools(allowed, (what) => notices.push(notice(file, what)));
    skill.allowedToolsText = typeof allowed === 'string' ? splitToolList(allowed) : allowed.map((entry) => entry.trim()).filter(Boolean);
  }
  const hint = parsed.data['argument-hint'];
  if (hint !== undefined) skill.argumentHint = oneLine(Array.isArray(hint) ? hint.map((part) => `[${part}]`).join(' ') : hint, 60);
  return { skill, notices, body: parts.body.trim() };
}

/** Every skill, sorted by name; the first of a name in precedence order wins. */
export async function loadSkills(roots: ExtensionRoots): Promise<{ skills: Skill[]; notices: string[] }> {
  const { items, notices } = await collectByName<Skill>({
    dirs: extensionDirs('skills', roots),
    list: skillFiles,
    load: async (file, place, into) => {
      const text = await readBoundedText(file, MAX_SKILL_FILE_BYTES, place, into, notice);
      if (text === undefined) return undefined;
      await loadYamlParser();
      const parsed = parseSkill(text, file, place.source);
      into.push(...parsed.notices);
      return parsed.skill ? { ...parsed.skill, within: place.within } : undefined;
    },
    notice,
    max: MAX_SKILLS,
    tooMany: `more than ${MAX_SKILLS} skills are installed; this and any later ones are skipped`,
  });
  return { skills: items.sort((a, b) => byCodeUnit(a.name, b.name)), notices };
}

/** `<dir>/<folder>/SKILL.md` of every folder that has one (folders without are not skills). */
async function skillFiles(dir: string, notices: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const name of await listDir(dir, notices, notice)) {
    const file = join(dir, name, SKILL_FILE);
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) files.push(file);
  }
  return files;
}

/** The body of a skill's SKILL.md as it is on disk now (the model loads it on demand). */
export async function readSkillBody(skill: Skill): Promise<{ body: string } | { error: string }> {
  const notices: string[] = [];
  const place = { within: skill.within ?? skill.dir, source: skill.source };
  const text = await readBoundedText(skill.file, MAX_SKILL_FILE_BYTES, place, notices, (path, what) => `${path}: ${what}`);
  if (text === undefined) return { error: notices[0] ?? `${skill.file} is not a file` };
  const parts = splitFrontmatter(text);
  return { body: (parts ? parts.body : text).trim() };
}
