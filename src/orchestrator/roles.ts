/**
 * Roles of orchestration tasks and the subagent types they run as. The three built-in roles are
 * `explorer` (read-only research), `editor` (makes changes) and `reviewer` (read-only, judges the
 * diffs of the editors it depends on). A defined type (.seek/agents/*.md) with one of these names
 * replaces that role's tools, permission, model and instructions, keeping the role's part in the
 * plan; every other subagent type (built-in or defined) may be used as a role by its name.
 */
import { READ_ONLY_SUBAGENT_TOOLS } from '../subagents/builtin-types.js';
import type { SubagentType } from '../subagents/types.js';
import type { RoleInfo } from './plan.js';
import type { RoleKind } from './types.js';

export const BUILTIN_ROLES = ['explorer', 'editor', 'reviewer'] as const;

export interface Role extends RoleInfo {
  name: string;
  type: SubagentType;
}

const SHARED = 'You are one task of a larger plan run by the parent agent; other subagents may run beside you. Do exactly your task.';

const ROLE_TYPES: Record<(typeof BUILTIN_ROLES)[number], SubagentType> = {
  explorer: {
    name: 'explorer',
    description: 'Read-only research for a plan task: finds code and reports findings with path:line references.',
    source: 'builtin',
    tools: [...READ_ONLY_SUBAGENT_TOOLS],
    permission: 'plan',
    instructions: [
      SHARED,
      'Research only: never create, modify or delete files, and never run commands that change anything.',
      'Report your findings as a bulleted list; cite every fact with a path:line reference. Later tasks build on what you report.',
    ].join('\n'),
  },
  editor: {
    name: 'editor',
    description: 'Makes the code changes a plan task asks for and reports what it changed.',
    source: 'builtin',
    permission: 'inherit',
    instructions: [
      SHARED,
      'Make the changes the task asks for, and only those. Do not commit: the orchestrator brings your changes back.',
      'End with a summary: every file you changed and why, how you checked it, and anything left undone.',
    ].join('\n'),
  },
  reviewer: {
    name: 'reviewer',
    description: 'Reviews the changes of the editors it depends on and returns a verdict.',
    source: 'builtin',
    tools: [...READ_ONLY_SUBAGENT_TOOLS],
    permission: 'plan',
    instructions: [
      SHARED,
      'Review the changes shown in your task prompt: read the changed files where the diff is not enough. Never modify anything.',
      `Look for bugs, missing tests, unhandled errors and changes the task did not ask for. ${VERDICT_RULE()}`,
    ].join('\n'),
  },
};

/** The verdict line every reviewer ends with (parsed by `parseVerdict`). */
export function VERDICT_RULE(): string {
  return 'End with exactly one verdict line: "VERDICT: approve", or "VERDICT: problems" followed by a numbered list of the problems, each with path:line and a suggested fix.';
}

const WRITE_TOOLS = new Set(['write_file', 'edit_file', 'bash']);

/** Whether a type can change files: not plan-only, and its tools (or the parent's) include a writer. */
function kindOf(type: SubagentType): RoleKind {
  if (type.permission === 'plan') return 'reader';
  return type.tools === undefined || type.tools.some((tool) => WRITE_TOOLS.has(tool)) ? 'writer' : 'reader';
}

export interface RoleCatalog {
  resolve(name: string): Role | undefined;
  /** Every role name, built-in roles first, then the session's subagent types; stable per session. */
  names: readonly string[];
}

export function roleCatalog(types: readonly SubagentType[]): RoleCatalog {
  const roles = new Map<string, Role>();
  for (const name of BUILTIN_ROLES) {
    const defined = types.find((type) => type.name === name && type.source !== 'builtin');
    const type = defined ?? ROLE_TYPES[name];
    // A defined explorer or reviewer that can write is scheduled as a writer: it must not collide.
    roles.set(name, { name, type, kind: name === 'editor' ? 'writer' : kindOf(type), reviews: name === 'reviewer' });
  }
  for (const type of types) {
    if (!roles.has(type.name)) roles.set(type.name, { name: type.name, type, kind: kindOf(type), reviews: false });
  }
  return { resolve: (name) => roles.get(name), names: [...roles.keys()] };
}
