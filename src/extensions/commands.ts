/**
 * Custom slash commands: Markdown files in `commands/` folders (found by the shared rule,
 * discovery.ts). `review.md` is `/review`; a file in a subfolder keeps its own name, as in Claude
 * Code: `frontend/test.md` is `/test`, its description ends with `(project:frontend)`, and it also
 * answers to the namespaced `/frontend:test`. When two files would both be `/test`, the first in
 * precedence order keeps `/test` and the other is reachable only as `/frontend:test`, with a notice
 * naming both files. Optional frontmatter: `description`, `argument-hint`, `model`,
 * `allowed-tools`. The body is the prompt (command-text.ts expands it). Commands live on the
 * user's side: nothing of them enters a request until one is run.
 */
import { dirname, join, relative, sep } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { parseAllowedTools } from './allowed-tools.js';
import { byCodeUnit, collectByName, extensionDirs, listDir, readBoundedText, type ExtensionRoots, type ExtensionSource } from './discovery.js';
import { loadYamlParser, oneLine, parseFieldsLeniently, splitFrontmatter, withoutNulls } from './frontmatter.js';
import { splitToolList } from './tool-list.js';
import { stat } from 'node:fs/promises';

export const MAX_COMMANDS = 500;
export const MAX_COMMAND_FILE_BYTES = 64 * 1024;
/** Namespaces nest at most this deep (`a/b/c.md` is `/a:b:c`). */
const MAX_DEPTH = 3;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface CustomCommand {
  /** Without the slash: `review`, `test` (from `frontend/test.md`). */
  name: string;
  /** For a file in a subfolder: its namespaced name (`frontend:test`), which also runs it. */
  namespaced?: string;
  /** Set when this is a skill run as `/name` (its SKILL.md is the body). */
  skillDir?: string;
  description: string;
  /** `argument-hint`; an unquoted `[pr-number]` (a YAML list) reads as written. */
  argumentHint?: string;
  /** The model this command's turn uses (the session's model again afterwards). */
  model?: string;
  allowedTools?: string[];
  /** `allowed-tools` as written (`Bash(git add:*)`): what the command's turn may run without asking
   * (extensions/grants.ts), where its source is trusted. */
  allowedToolsText?: string[];
  file: string;
  source: ExtensionSource;
  /** The folder the file must stay inside when it is read again (extensions/discovery.ts): the
   * project root or the user's config folder. Absent: the file's own folder. */
  within?: string;
}

/** A command file that could not be loaded (refused, too large, unreadable): running its name
 * fails with this reason instead of sending `/name` to the model as a prompt. */
export interface UnloadedCommand {
  name: string;
  file: string;
  reason: string;
}

const notice = (path: string, what: string): string => `command ${path}: ${what}`;

const optionalString = lazySchema((z) => z.string({ error: 'must be a string' }).optional());
const fieldsSchema = lazySchema((z) =>
  z.looseObject({
    description: optionalString(),
    'argument-hint': z.union([z.string(), z.array(z.string())], { error: 'must be a string' }).optional(),
    model: optionalString(),
    'allowed-tools': z.union([z.array(z.string()), z.string()], { error: 'must be a list or a string' }).optional(),
  }),
);

/** The command's fields and body. Frontmatter is optional; without a description the body's first
 * line stands for it. */
export function parseCommand(text: string, file: string, name: string, source: ExtensionSource): { command?: CustomCommand; body?: string; notices: string[] } {
  const notices: string[] = [];
  const skip = (what: string) => ({ notices: [...notices, notice(file, `${what}; skipped`)] });
  const parts = splitFrontmatter(text);
  let fields: z.infer<ReturnType<typeof fieldsSchema>> = {};
  if (parts) {
    const yaml = parseFieldsLeniently(parts.frontmatter);
    if ('error' in yaml) return skip(yaml.error);
    const parsed = fieldsSchema().safeParse(withoutNulls(yaml.value));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return skip(`${issue?.path.map(String).join('.') || 'frontmatter'}: ${issue?.message ?? 'invalid'}`);
    }
    fields = parsed.data;
  }
  const body = (parts ? parts.body : text.replace(/^\uFEFF/, '')).trim();
  const firstBodyLine = body.split('\n').find((line) => line.trim() !== '') ?? '';
  const command: CustomCommand = { name, description: oneLine(fields.description ?? firstBodyLine.replace(/^#+\s*/, ''), 100), file, source };
  const hint = fields['argument-hint'];
  if (hint !== undefined) command.argumentHint = oneLine(Array.isArray(hint) ? hint.map((part) => `[${part}]`).join(' ') : hint, 60);
  const model = fields.model?.trim();
  if (model && model.toLowerCase() !== 'inherit') command.model = model;
  const allowed = fields['allowed-tools'];
  if (allowed !== undefined) {
    command.allowedTools = parseAllowedTools(allowed, (what) => notices.push(notice(file, what)));
    command.allowedToolsText = toolEntries(allowed);
  }
  return { command, body, notices };
}

/** Every command, sorted by name; the first of a name in precedence order wins. */
export async function loadCommands(roots: ExtensionRoots): Promise<{ commands: CustomCommand[]; notices: string[]; unloaded: UnloadedCommand[] }> {
  const unloaded: UnloadedCommand[] = [];
  const { items, notices } = await collectByName<CustomCommand>({
    dirs: extensionDirs('commands', roots),
    list: (dir, into) => commandFiles(dir, into, 1),
    load: async (file, place, into) => {
      const name = commandName(place.dir, file);
      if (!name) {
        into.push(notice(file, 'the path is not a command name (letters, digits, "_", "-", "." in each part); skipped'));
        return undefined;
      }
      const before = into.length;
      const text = await readBoundedText(file, MAX_COMMAND_FILE_BYTES, place, into, notice);
      if (text === undefined) {
        if (into.length > before) unloaded.push({ name, file, reason: into.at(-1)! });
        return undefined;
      }
      await loadYamlParser();
      const parsed = parseCommand(text, file, name, place.source);
      into.push(...parsed.notices);
      return parsed.command ? { ...parsed.command, within: place.within } : undefined;
    },
    notice,
    max: MAX_COMMANDS,
    tooMany: `more than ${MAX_COMMANDS} commands are installed; this and any later ones are skipped`,
  });
  const commands = ownNames(items, notices);
  const loaded = new Set(commands.flatMap((item) => [item.name, item.namespaced ?? item.name]));
  const firstUnloaded = new Map<string, UnloadedCommand>();
  for (const entry of unloaded) if (!loaded.has(entry.name) && !firstUnloaded.has(entry.name)) firstUnloaded.set(entry.name, entry);
  return { commands: commands.sort((a, b) => byCodeUnit(a.name, b.name)), notices, unloaded: [...firstUnloaded.values()] };
}

/** Claude Code's naming: a subfolder command takes its file's name and shows its folder in the
 * description (`(project:frontend)`); the namespaced name stays as a second way to type it. In
 * discovery (precedence) order the first file to claim a name keeps it; a later one keeps only its
 * namespaced name, and a notice names both files. */
function ownNames(items: readonly CustomCommand[], notices: string[]): CustomCommand[] {
  const taken = new Map<string, string>();
  const out: CustomCommand[] = [];
  for (const item of items) {
    const parts = item.name.split(':');
    const short = parts.at(-1)!;
    const earlier = taken.get(short);
    if (parts.length === 1) {
      if (earlier !== undefined) notices.push(notice(item.file, `name "${short}" is already defined by ${earlier}; skipped`));
      else out.push(item);
      taken.set(short, earlier ?? item.file);
      continue;
    }
    const folder = `(${item.source.startsWith('project') ? 'project' : 'user'}:${parts.slice(0, -1).join('/')})`;
    const described: CustomCommand = { ...item, description: `${item.description} ${folder}`.trim(), namespaced: item.name };
    if (earlier !== undefined) {
      notices.push(notice(item.file, `/${short} is already defined by ${earlier}; this one runs as /${item.name}`));
      out.push(described);
    } else {
      taken.set(short, item.file);
      out.push({ ...described, name: short });
    }
  }
  return out;
}

/** The entries of an `allowed-tools` value as written. */
function toolEntries(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? splitToolList(value) : value.map((entry) => entry.trim()).filter(Boolean);
}

/** The command's text now (frontmatter fields as loaded at start; the body as on disk, read under
 * the same rule as at start: a file turned into a link to elsewhere since is refused). */
export async function readCommandBody(command: CustomCommand): Promise<{ body: string } | { error: string }> {
  const notices: string[] = [];
  const place = { within: command.within ?? dirname(command.file), source: command.source };
  const text = await readBoundedText(command.file, MAX_COMMAND_FILE_BYTES, place, notices, (path, what) => `${path}: ${what}`);
  if (text === undefined) return { error: notices[0] ?? `${command.file} is not a file` };
  await loadYamlParser();
  const parsed = parseCommand(text, command.file, command.name, command.source);
  return parsed.body !== undefined ? { body: parsed.body } : { error: parsed.notices[0] ?? 'unreadable' };
}

/** `frontend/test.md` under `dir` is `frontend:test`; undefined for names that cannot be typed. */
function commandName(dir: string, file: string): string | undefined {
  const parts = relative(dir, file).slice(0, -'.md'.length).split(sep);
  return parts.every((part) => SEGMENT.test(part)) ? parts.join(':') : undefined;
}

/** `*.md` files of `dir` and its subfolders (to MAX_DEPTH), files before subfolders, by code unit. */
async function commandFiles(dir: string, notices: string[], depth: number): Promise<string[]> {
  const files: string[] = [];
  const folders: string[] = [];
  for (const name of await listDir(dir, notices, notice)) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && name.toLowerCase().endsWith('.md')) files.push(path);
    else if (info?.isDirectory() && depth < MAX_DEPTH) folders.push(path);
  }
  for (const folder of folders.sort(byCodeUnit)) files.push(...(await commandFiles(folder, notices, depth + 1)));
  return files;
}
