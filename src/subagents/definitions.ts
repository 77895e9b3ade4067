/**
 * Subagent types defined in Markdown files (seek-spec section 3): YAML frontmatter between `---`
 * lines, then the instructions. seek's own fields and Claude Code's (`permissionMode`, `maxTurns`,
 * `disallowedTools`, CC tool names) are both accepted, so `.claude/agents/` works unchanged.
 *
 * Loading never throws: every problem becomes a notice `subagent definition <path>: <what>` and the
 * file (or the field) is skipped. The result feeds the `agent` tool's schema, so its order is a
 * pure function of the files: built-ins first, then defined types sorted by name.
 */
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { byCodeUnit, collectByName, extensionDirs, markdownFiles, readBoundedText, type ExtensionDir } from '../extensions/discovery.js';
import { loadYamlParser, oneLine as collapse, parseYamlFields, splitFrontmatter, withoutNulls } from '../extensions/frontmatter.js';
import { CLAUDE_TOOL_NAMES, mapToolNames as mapNames } from '../extensions/tool-list.js';
import { BUILTIN_SUBAGENT_NAMES, BUILTIN_SUBAGENT_TYPES } from './builtin-types.js';
import type { SubagentPermission, SubagentType, SubagentTypeSource } from './types.js';

export const MAX_DEFINED_SUBAGENT_TYPES = 64;
export const MAX_DEFINITION_FILE_BYTES = 64 * 1024;
const MAX_DESCRIPTION_CHARS = 200;
const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Every seek tool in the parent's order: what `disallowedTools` subtracts from when `tools` is absent. */
const SEEK_TOOL_NAMES: readonly string[] = ['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir', 'git', 'todo_write', 'agent', 'web_fetch', 'web_search'];
const SEEK_TOOLS = new Set(SEEK_TOOL_NAMES);

/** seek's name for a tool a definition names (its own or Claude Code's); subagents get no `skill`. */
const definitionToolName = (name: string): string | undefined => {
  const mapped = SEEK_TOOLS.has(name) ? name : CLAUDE_TOOL_NAMES.get(name);
  return mapped !== undefined && SEEK_TOOLS.has(mapped) ? mapped : undefined;
};

/**
 * Claude Code permission modes. `acceptEdits` (edits auto-approved, the rest asks) has no exact
 * seek mode; `ask` is the nearest that never loosens. `dontAsk` (deny whatever would prompt) is
 * seek's `deny`. Whatever a type asks for is capped at the parent's mode (childPolicy).
 */
const CLAUDE_PERMISSION_MODES = new Map<string, SubagentPermission>(Object.entries({
  default: 'inherit', acceptEdits: 'ask', plan: 'plan', bypassPermissions: 'yolo', dontAsk: 'deny',
} as const));

const POSITIVE_INT = 'must be a positive integer';
const positiveInt = lazySchema((z) => z.number({ error: POSITIVE_INT }).int({ error: POSITIVE_INT }).positive({ error: POSITIVE_INT }));
const requiredString = lazySchema((z) => z.string({ error: (issue) => (issue.input === undefined ? 'missing' : 'must be a string') }));
const toolList = lazySchema((z) => z.union([z.array(z.string()), z.string()], { error: 'must be a list or a comma-separated string' }));

/** Frontmatter fields; unknown ones pass through and are ignored. Null values are removed first
 * (an empty `model:` line means "not set"). */
const frontmatterSchema = lazySchema((z) =>
  z.looseObject({
    name: requiredString(),
    description: requiredString(),
    tools: toolList().optional(),
    disallowedTools: toolList().optional(),
    model: z.string({ error: 'must be a string' }).optional(),
    permission: z.enum(['inherit', 'ask', 'deny', 'auto', 'yolo', 'plan']).optional(),
    permissionMode: z.string({ error: 'must be a string' }).optional(),
    max_turns: positiveInt().optional(),
    maxTurns: positiveInt().optional(),
    budget_tokens: positiveInt().optional(),
    timeout_seconds: positiveInt().optional(),
  }),
);
type Frontmatter = z.infer<ReturnType<typeof frontmatterSchema>>;

type Notify = (what: string) => void;

const notice = (path: string, what: string): string => `subagent definition ${path}: ${what}`;

// ---- Parsing one file ---------------------------------------------------------------------------

/**
 * Parses one definition. Pure: `file` is used only for `type.file` and the notices. Returns no
 * type when the file must be skipped (the last notice says why); notices about dropped parts of a
 * valid definition come with the type.
 */
export function parseSubagentDefinition(
  text: string,
  file: string,
  source: SubagentTypeSource,
): { type?: SubagentType; notices: string[] } {
  const notices: string[] = [];
  const skip = (what: string): { notices: string[] } => ({ notices: [...notices, notice(file, `${what}; skipped`)] });
  const parts = splitFrontmatter(text);
  if (!parts) return skip('no YAML frontmatter (the first line must be "---", closed by another "---" line)');
  const yaml = parseYamlFields(parts.frontmatter);
  if ('error' in yaml) return skip(yaml.error);
  const parsed = frontmatterSchema().safeParse(withoutNulls(yaml.value));
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

/** Collapses whitespace and caps the description at MAX_DESCRIPTION_CHARS. */
const oneLine = (text: string): string => collapse(text, MAX_DESCRIPTION_CHARS);

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
const mapToolNames = (value: string | string[]) => mapNames(value, definitionToolName);

// ---- Loading the directories --------------------------------------------------------------------

export interface LoadSubagentTypesOptions {
  projectRoot: string;
  seekHome: string;
  /** The user's home directory; `<home>/.claude/agents/` is read only when given. */
  home?: string;
}

/**
 * Built-ins, then the defined types sorted by name. The folders and their precedence are the shared
 * rule of extensions/discovery.ts (project `.seek/agents`, project `.claude/agents`,
 * `<seekHome>/agents`, `<home>/.claude/agents`; the first definition of a name wins); files within
 * one directory in file-name order.
 */
export async function loadSubagentTypes(options: LoadSubagentTypesOptions): Promise<{ types: SubagentType[]; notices: string[] }> {
  const { items, notices } = await collectByName<SubagentType>({
    dirs: extensionDirs('agents', options),
    list: (dir, into) => markdownFiles(dir, into, notice),
    load: (file, place, into) => loadDefinitionFile(file, place, into),
    notice,
    max: MAX_DEFINED_SUBAGENT_TYPES,
    tooMany: `more than ${MAX_DEFINED_SUBAGENT_TYPES} subagent types are defined; this and any later definitions are skipped`,
  });
  const sorted = items.sort((a, b) => byCodeUnit(a.name, b.name));
  return { types: [...BUILTIN_SUBAGENT_TYPES, ...sorted], notices };
}

/** The names the model may pass as `subagent_type`, in order. */
export function subagentTypeNames(types: readonly SubagentType[]): string[] {
  return types.map((type) => type.name);
}

/** Reads and parses one file; undefined (with a notice) when it is skipped. */
async function loadDefinitionFile(file: string, place: ExtensionDir, notices: string[]): Promise<SubagentType | undefined> {
  const { source } = place;
  const text = await readBoundedText(file, MAX_DEFINITION_FILE_BYTES, place, notices, notice);
  if (text === undefined) return undefined;
  // Agents have no `.agents/` folder, so every source is one a subagent type can have.
  await loadYamlParser();
  const parsed = parseSubagentDefinition(text, file, source as SubagentTypeSource);
  notices.push(...parsed.notices);
  return parsed.type;
}
