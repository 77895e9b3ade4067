/**
 * The three subagent types every session has (seek-spec section 3). Their names are reserved: a
 * definition file cannot override them (see definitions.ts). The texts feed the `agent` tool's
 * schema and the child's system prompt, so they must stay byte-stable across launches.
 */
import type { SubagentType } from './types.js';

/** The tools of the read-only types: reading and searching, `git` (plan mode keeps it read-only),
 * `memory_recall` (the memory index they start with names entries to recall), and the MCP tools
 * when the parent has them (limited to tools their server marks read-only, each still needing an
 * allow rule in plan mode). The child gets them in the parent's order (childToolNames), so order
 * here is cosmetic. */
export const READ_ONLY_SUBAGENT_TOOLS: readonly string[] = Object.freeze(['read_file', 'grep', 'glob', 'list_dir', 'git', 'memory_recall', 'mcp_search', 'mcp_call']);

const EXPLORE_INSTRUCTIONS = [
  'Research only. Never create, modify or delete files, and never run commands that change anything (no installs, builds that write, commits or checkouts).',
  'Search broadly first (glob, grep), then read the relevant parts. Be thorough but fast: stop once the question is answered.',
  'Report your findings as a bulleted list; cite every fact with a path:line reference.',
].join('\n');

const PLAN_INSTRUCTIONS = [
  'Produce an implementation plan; do not implement it. Never create, modify or delete files, and never run commands that change anything.',
  'Read the code the change touches before planning it.',
  'Return a numbered list of steps the parent or the user can execute in order. Name the files and functions each step changes, say what changes, and note risks, open questions and how to verify the result (tests to add or run).',
].join('\n');

/** Built-in types in the order the model sees them. Frozen (entries too): shared by every session. */
export const BUILTIN_SUBAGENT_TYPES: readonly SubagentType[] = Object.freeze(
  ([
  {
    name: 'general-purpose',
    description:
      "For multi-step tasks that need the parent's tools, such as research combined with changes; works on its own and returns a summary.",
    source: 'builtin',
    instructions: '',
    permission: 'inherit',
  },
  {
    name: 'explore',
    description:
      'Read-only research: finds code, answers questions about the codebase and reports findings with path:line references. Never modifies files.',
    source: 'builtin',
    tools: [...READ_ONLY_SUBAGENT_TOOLS],
    instructions: EXPLORE_INSTRUCTIONS,
    permission: 'plan',
  },
  {
    name: 'plan',
    description:
      'Read-only planning: studies the code and returns a numbered implementation plan naming files and functions. Never modifies files.',
    source: 'builtin',
    tools: [...READ_ONLY_SUBAGENT_TOOLS],
    instructions: PLAN_INSTRUCTIONS,
    permission: 'plan',
  },
] satisfies SubagentType[]).map((type) => Object.freeze(type)),
);

/** Names a definition file may not use. */
export const BUILTIN_SUBAGENT_NAMES: ReadonlySet<string> = new Set(BUILTIN_SUBAGENT_TYPES.map((type) => type.name));
