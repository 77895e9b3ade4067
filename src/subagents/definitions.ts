/**
 * Subagent types defined in Markdown files (seek-spec section 3): YAML frontmatter between `---`
 * lines, then the instructions. seek's own fields and Claude Code's (`permissionMode`, `maxTurns`,
 * `disallowedTools`, CC tool names) are both accepted, so `.claude/agents/` works unchanged.
 *
 * Loading never throws: every problem becomes a notice `subagent definition <path>: <what>` and the
 * file (or the field) is skipped. The result feeds the `agent` tool's schema, so its order is a
 * pure function of the files: built-ins first, then defined types sorted by name.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { projectAgentsDir, projectClaudeAgentsDir, userAgentsDir } from '../config/paths.js';
import { BUILTIN_SUBAGENT_NAMES, BUILTIN_SUBAGENT_TYPES } from './builtin-types.js';
import type { SubagentPermission, SubagentType, SubagentTypeSource } from './types.js';

export const MAX_DEFINED_SUBAGENT_TYPES = 64;
export const MAX_DEFINITION_FILE_BYTES = 64 * 1024;
const MAX_DESCRIPTION_CHARS = 200;
const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Every seek tool in the parent's order: what `disallowedTools` subtracts from when `tools` is absent. */
const SEEK_TOOL_NAMES: readonly string[] = ['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git', 'todo_write', 'agent'];
const SEEK_TOOLS = new Set(SEEK_TOOL_NAMES);

/** Claude Code tool names with a seek equivalent. A Map, so names like `constructor` are not found. */
const CLAUDE_TOOLS = new Map<string, string>(Object.entries({
  Read: 'read_file', Write: 'write_file', Edit: 'edit_file', MultiEdit: 'edit_file', Bash: 'bash', Glob: 'glob',
  Grep: 'grep', LS: 'list_dir', Task: 'agent', Agent: 'agent', TodoWrite: 'todo_write',
}));

/**
 * Claude Code permission modes. `acceptEdits` (edits auto-approved, the rest asks) has no exact
 * seek mode; `ask` is the nearest that never loosens. `dontAsk` (deny whatever would prompt) is
 * seek's `deny`. Whatever a type asks for is capped at the parent's mode (childPolicy).
 */
const CLAUDE_PERMISSION_MODES = new Map<string, SubagentPermission>(Object.entries({
  default: 'inherit', acceptEdits: 'ask', plan: 'plan', bypassPermissions: 'yolo', dontAsk: 'deny',
} as const));

const POSITIVE_INT = 'must be a positive integer';
const positiveInt = z.number({ error: POSITIVE_INT }).int({ error: POSITIVE_INT }).positive({ error: POSITIVE_INT });
const requiredString = z.string({ error: (issue) => (issue.input === undefined ? 'missing' : 'must be a string') });
const toolList = z.union([z.array(z.string()), z.string()], { error: 'must be a list or a comma-separated string' });

/** Frontmatter fields; unknown ones pass through and are ignored. Null values are removed first
 * (an empty `model:` line means "not set"). */
const frontmatterSchema = z.looseObject({
  name: requiredString,
  description: requiredString,
  tools: toolList.optional(),
  disallowedTools: toolList.optional(),
  model: z.string({ error: 'must be a string' }).optional(),
  permission: z.enum(['inherit', 'ask', 'deny', 'auto', 'yolo', 'plan']).optional(),
  permissionMode: z.string({ error: 'must be a string' }).optional(),
  max_turns: positiveInt.optional(),
  maxTurns: positiveInt.optional(),
  budget_tokens: positiveInt.optional(),
  timeout_seconds: positiveInt.optional(),
});
type Frontmatter = z.infer<typeof frontmatterSchema>;

type Notify = (what: string) => void;

const notice = (path: string, what: string): string => `subagent definition ${path}: ${what}`;

// ---- Parsing one file ---------------------------------------------------------------------------

/**
 * Parses one definition. Pure: `file` is used only for `type.file` and the notices. Returns no
 * type when the file must be skipped (the last notice says why); notices about dropped parts of a
 * valid definition come with the type. Async only because the YAML parser is loaded on first use
 * (most projects define no subagent types, and start-up is measured).
 */
export async function parseSubagentDefinition(
  text: string,
  file: string,
  source: SubagentTypeSource,
): Promise<{ type?: SubagentType; notices: string[] }> {
  const notices: string[] = [];
  const skip = (what: string): { notices: string[] } => ({ notices: [...notices, notice(file, `${what}; skipped`)] });
  const parts = splitFrontmatter(text);
  if (!parts) return skip('no YAML frontmatter (the first line must be "---", closed by another "---" line)');
  const yaml = parseYaml(parts.frontmatter, (await import('yaml')).parseDocument);
  if ('error' in yaml) return skip(yaml.error);
  const parsed = frontmatterSchema.safeParse(withoutNulls(yaml.value));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? '';
    return skip(field ? `${field}: ${issue?.message}` : `invalid frontmatter: ${issue?.message ?? 'unknown error'}`);
  }
  const fields = parsed.data;
  const name = fields.name.trim().toLowerCase();
  if (!NAME_PATTERN.test(name)) {
    return skip(`name "${fields.name}" is invalid (1-64 of a-z, 0-9, "-", "_", starting with a letter or digit)`);
  }
  if (BUILTIN_SUBAGENT_NAMES.has(name)) return skip(`name "${name}" is a built-in type, which cannot be overridden`);
  const description = oneLine(fields.description);
  if (!description) return skip('description: empty');

  const notify: Notify = (what) => notices.push(notice(file, what));
  const type: SubagentType = { name, description, source, file, instructions: parts.body.trim(), permission: permissionOf(fields, notify) };
  const tools = toolsOf(fields, notify);
  if (tools) type.tools = tools;
  const model = fields.model?.trim();
  if (model && model.toLowerCase() !== 'inherit') type.model = model;
  const maxTurns = fields.max_turns ?? fields.maxTurns;
  if (maxTurns !== undefined) type.maxTurns = maxTurns;
  if (fields.budget_tokens !== undefined) type.budgetTokens = fields.budget_tokens;
  if (fields.timeout_seconds !== undefined) type.timeoutSeconds = fields.timeout_seconds;
  return { type, notices };
}

/** Splits `---\n<yaml>\n---\n<body>`; undefined when the text does not open with a closed block.
 * A leading BOM and CRLF line ends are accepted. */
function splitFrontmatter(text: string): { frontmatter: string; body: string } | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return undefined;
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  if (close < 0) return undefined;
  return { frontmatter: lines.slice(1, close).join('\n'), body: lines.slice(close + 1).join('\n') };
}

function parseYaml(source: string, parseDocument: typeof import('yaml').parseDocument): { value: Record<string, unknown> } | { error: string } {
  try {
    const doc = parseDocument(source, { uniqueKeys: true, prettyErrors: true });
    const error = doc.errors[0];
    if (error) return { error: `invalid YAML frontmatter: ${firstLine(error.message)}` };
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { error: 'the frontmatter is not a YAML mapping of fields' };
    }
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: `invalid YAML frontmatter: ${firstLine(error instanceof Error ? error.message : String(error))}` };
  }
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined));
}

/** The first line of a YAML error, without the trailing colon that introduces its excerpt. */
const firstLine = (text: string): string => (text.split('\n', 1)[0] ?? '').trim().replace(/:$/, '');

/** Collapses whitespace (CC descriptions often span lines) and caps the length, by code points. */
function oneLine(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= MAX_DESCRIPTION_CHARS ? chars.join('') : `${chars.slice(0, MAX_DESCRIPTION_CHARS - 1).join('')}…`;
}

/** `permission` wins over CC's `permissionMode`; an unknown mode falls back to `inherit`. */
function permissionOf(fields: Frontmatter, notify: Notify): SubagentPermission {
  if (fields.permission) return fields.permission;
  if (fields.permissionMode === undefined) return 'inherit';
  const mapped = CLAUDE_PERMISSION_MODES.get(fields.permissionMode.trim());
  if (mapped) return mapped;
  notify(`permissionMode "${fields.permissionMode}" is not known; using inherit`);
  return 'inherit';
}

/**
 * The type's seek tool list, or undefined ("the parent's tools") when neither `tools` nor
 * `disallowedTools` is given. Unknown names in `tools` are dropped with a notice; in
 * `disallowedTools` they are ignored silently (seek has no such tool, so it is already absent).
 * An argument pattern (`Bash(rm:*)`) is not applied: the whole tool is allowed, or removed.
 */
function toolsOf(fields: Frontmatter, notify: Notify): string[] | undefined {
  if (fields.tools === undefined && fields.disallowedTools === undefined) return undefined;
  let allowed = [...SEEK_TOOL_NAMES];
  if (fields.tools !== undefined) {
    const mapped = mapToolNames(fields.tools);
    if (mapped.unknown.length > 0) notify(`tools: dropped unknown tool(s) ${mapped.unknown.join(', ')}`);
    if (mapped.patterned.length > 0) notify(`tools: argument patterns are not applied, the whole tool is allowed: ${mapped.patterned.join(', ')}`);
    allowed = mapped.names;
  }
  if (fields.disallowedTools !== undefined) {
    const mapped = mapToolNames(fields.disallowedTools);
    if (mapped.patterned.length > 0) notify(`disallowedTools: argument patterns are not applied, the whole tool is removed: ${mapped.patterned.join(', ')}`);
    const denied = new Set(mapped.names);
    allowed = allowed.filter((name) => !denied.has(name));
  }
  return allowed;
}

/** Maps seek and CC names to seek names, deduplicated in first-seen order. */
function mapToolNames(value: string | string[]): { names: string[]; unknown: string[]; patterned: string[] } {
  const names: string[] = [];
  const unknown: string[] = [];
  const patterned: string[] = [];
  const entries = typeof value === 'string' ? splitToolList(value) : value.map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const match = /^([^()\s]+)\s*\(.*\)$/s.exec(entry);
    const base = match?.[1] ?? entry;
    const name = SEEK_TOOLS.has(base) ? base : CLAUDE_TOOLS.get(base);
    if (name === undefined) {
      unknown.push(entry);
      continue;
    }
    if (match) patterned.push(entry);
    if (!names.includes(name)) names.push(name);
  }
  return { names, unknown, patterned };
}

/** Splits `Read, Bash(git add:*, git commit:*)` on commas outside parentheses. */
function splitToolList(text: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      entries.push(current);
      current = '';
    } else current += char;
  }
  entries.push(current);
  return entries.map((entry) => entry.trim()).filter(Boolean);
}

// ---- Loading the directories --------------------------------------------------------------------

export interface LoadSubagentTypesOptions {
  projectRoot: string;
  seekHome: string;
  /** The user's home directory; `<home>/.claude/agents/` is read only when given. */
  home?: string;
}

/**
 * Built-ins, then the defined types sorted by name. Directories in precedence order (the first
 * definition of a name wins): project `.seek/agents`, project `.claude/agents`, `<seekHome>/agents`,
 * `<home>/.claude/agents`; files within one directory in file-name order. A directory reached
 * twice (seek run in the home directory) is read once, under its first source.
 */
export async function loadSubagentTypes(options: LoadSubagentTypesOptions): Promise<{ types: SubagentType[]; notices: string[] }> {
  const notices: string[] = [];
  const defined = new Map<string, SubagentType>();
  const seen = new Set<string>();
  scan: for (const { dir, source } of definitionDirs(options)) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    for (const file of await definitionFiles(dir, notices)) {
      const type = await loadDefinitionFile(file, source, notices);
      if (!type) continue;
      const earlier = defined.get(type.name);
      if (earlier) {
        notices.push(notice(file, `name "${type.name}" is already defined by ${earlier.file}; skipped`));
      } else if (defined.size >= MAX_DEFINED_SUBAGENT_TYPES) {
        notices.push(notice(file, `more than ${MAX_DEFINED_SUBAGENT_TYPES} subagent types are defined; this and any later definitions are skipped`));
        break scan;
      } else defined.set(type.name, type);
    }
  }
  const sorted = [...defined.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { types: [...BUILTIN_SUBAGENT_TYPES, ...sorted], notices };
}

/** The names the model may pass as `subagent_type`, in order. */
export function subagentTypeNames(types: readonly SubagentType[]): string[] {
  return types.map((type) => type.name);
}

function definitionDirs(options: LoadSubagentTypesOptions): Array<{ dir: string; source: SubagentTypeSource }> {
  const root = resolve(options.projectRoot);
  const dirs: Array<{ dir: string; source: SubagentTypeSource }> = [
    { dir: projectAgentsDir(root), source: 'project' },
    { dir: projectClaudeAgentsDir(root), source: 'project-claude' },
    { dir: userAgentsDir(resolve(options.seekHome)), source: 'user' },
  ];
  if (options.home) dirs.push({ dir: projectClaudeAgentsDir(resolve(options.home)), source: 'user-claude' });
  return dirs;
}

/** Absolute paths of the `*.md` files in `dir` (hidden files excluded), sorted by code unit so the
 * order does not depend on the locale. A missing directory is no error. */
async function definitionFiles(dir: string, notices: string[]): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') notices.push(notice(dir, `cannot list the directory (${code ?? messageOf(error)})`));
    return [];
  }
  return names
    .filter((name) => !name.startsWith('.') && name.toLowerCase().endsWith('.md'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => join(dir, name));
}

/** Reads and parses one file; undefined (with a notice) when it is skipped. Entries that are not
 * regular files (a directory named `x.md`) are passed over silently. */
async function loadDefinitionFile(file: string, source: SubagentTypeSource, notices: string[]): Promise<SubagentType | undefined> {
  let text: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    // Checked before reading (no huge reads) and after (the file may have grown in between).
    const bytes = info.size > MAX_DEFINITION_FILE_BYTES ? undefined : await readFile(file);
    const size = bytes?.length ?? info.size;
    if (!bytes || size > MAX_DEFINITION_FILE_BYTES) {
      notices.push(notice(file, `${size} bytes is over the ${MAX_DEFINITION_FILE_BYTES / 1024} KiB limit; skipped`));
      return undefined;
    }
    text = bytes.toString('utf8');
  } catch (error) {
    notices.push(notice(file, `cannot read (${errorCode(error) ?? messageOf(error)}); skipped`));
    return undefined;
  }
  const parsed = await parseSubagentDefinition(text, file, source);
  notices.push(...parsed.notices);
  return parsed.type;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
