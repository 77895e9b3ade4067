/**
 * What a child is made of, derived from its type and its parent: system prompt, tool names and
 * permission policy. Pure functions, so the rules read as a table and are tested as one.
 */
import { MODEL_CATALOG } from '../providers/catalog.js';
import type { PermissionPolicy } from '../policy/policy.js';
import { PREFERENCES, type Preference, type SpawnRestriction } from '../policy/types.js';
import { MAX_SUMMARY_BYTES } from './result-format.js';
import type { SubagentType } from './types.js';

/** Tools a child never gets: `todo_write` is the parent's plan, `agent` is added only when the
 * depth limit allows (see childToolNames). Tools that ask the user questions would go here too. */
const NEVER_INHERITED = new Set(['todo_write', 'agent']);

/** Where a child's own part of its system prompt begins (promotion strips it again). */
export const SUBAGENT_SECTION = '\n\n# Subagent';

/**
 * The child's system prompt: the parent's own bytes first (the provider's prefix cache already
 * holds them), then the role clause, the type's instructions and the summary-length hint.
 */
export function childSystemPrompt(parentSystemPrompt: string, type: SubagentType, description: string, workspaceNote?: string): string {
  const lines = [
    parentSystemPrompt + SUBAGENT_SECTION,
    `You are a subagent spawned by the parent agent for: ${description}.`,
    'Complete the task and return a concise summary as your final message. Do not engage in conversation: nobody will answer questions. The task prompt below is all the context you get; the parent sees only your final message.',
  ];
  if (workspaceNote) lines.push('', workspaceNote);
  if (type.instructions.trim()) lines.push('', type.instructions.trim());
  lines.push(
    '',
    `Your final message goes to the parent agent, not to the user. Keep it under about ${Math.round(MAX_SUMMARY_BYTES / 1000)},000 characters or it is truncated: lead with the answer, then the evidence (path:line), then anything left undone.`,
  );
  return lines.join('\n');
}

/**
 * The child's tool names, in the parent's order: the type's list (or everything the parent has
 * when the type names none) intersected with the parent's tools, minus `todo_write`; `agent` only
 * when `canSpawn` (depth below `subagents.max_depth`) and the type allows it.
 */
export function childToolNames(type: SubagentType, parentToolNames: readonly string[], canSpawn: boolean): string[] {
  const wanted = type.tools ? new Set(type.tools) : undefined;
  return parentToolNames.filter((name) => {
    if (wanted && !wanted.has(name)) return false;
    if (name === 'agent') return canSpawn && (wanted === undefined || wanted.has('agent'));
    return !NEVER_INHERITED.has(name);
  });
}


/** The tighter of two preferences. */
function tighter(a: Preference, b: Preference): Preference {
  return PREFERENCES.indexOf(a) <= PREFERENCES.indexOf(b) ? a : b;
}

/**
 * The child's policy: `spawn` on the parent's (tighten only, pre-approval never inherited). A type
 * asking for more than the parent has is capped at the parent's level rather than refused, so a
 * shared definition with `permission: yolo` still works, tightened, under an ask parent.
 */
export function childPolicy(parent: PermissionPolicy, type: SubagentType, root?: string): PermissionPolicy {
  const restriction: SpawnRestriction = root ? { root } : {};
  switch (type.permission) {
    case 'plan':
      restriction.workflow = 'plan_analyze';
      break;
    case 'ask':
    case 'deny':
    case 'auto':
    case 'yolo':
      restriction.preference = tighter(parent.preference, type.permission);
      break;
    case 'inherit':
      break;
  }
  return parent.spawn(restriction);
}

const CLAUDE_CODE_ALIASES = new Set(['sonnet', 'opus', 'haiku']);

/**
 * The child's model. A type's model is used when the session's provider can serve it; Claude
 * Code aliases (`sonnet`, `opus`, `haiku`) map to the newest catalog model of that family under
 * Anthropic. A model the catalog places with another provider falls back to the parent's model
 * (with a note), since the child talks to the same provider as its parent. Unknown names pass
 * through: local servers serve models no catalog knows.
 */
export function childModel(typeModel: string | undefined, parentModel: string, provider: string): { model: string; note?: string } {
  if (!typeModel) return { model: parentModel };
  if (CLAUDE_CODE_ALIASES.has(typeModel)) {
    const family = provider === 'anthropic' ? MODEL_CATALOG.find((m) => m.id.startsWith(`claude-${typeModel}`)) : undefined;
    if (family) return { model: family.id };
    return { model: parentModel, note: `model "${typeModel}" is a Claude alias and the provider is ${provider}; using ${parentModel}` };
  }
  const known = MODEL_CATALOG.find((m) => m.id === typeModel);
  const sameProvider = !known || provider === 'openai-compatible' || known.provider === provider;
  if (sameProvider) return { model: typeModel };
  return { model: parentModel, note: `model "${typeModel}" belongs to ${known.provider}, not ${provider}; using ${parentModel}` };
}
