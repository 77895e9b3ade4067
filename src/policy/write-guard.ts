/**
 * The one check of a file write that seek makes by a route other than write_file/edit_file's own
 * permission decision: a worktree's merge back into a tree (exit_worktree, a plan's editors). The
 * yes such a route had (the mode, a prompt about "merge worktree X") was not a yes to each file it
 * brings, so each is judged as an edit of that file would be: a deny rule refuses it (in every
 * mode), an ask rule refuses it (a person was not asked about this file), and a protected path
 * (protected-paths.ts) refuses it in every mode but yolo.
 */
import path from 'node:path';
import type { ActionRequest, WriteCheck } from '../agent/types.js';
import type { MergeGuard, MergeRefusal } from '../worktree/types.js';
import { evaluatePolicy, ruleWhere, type PolicyState } from './evaluate.js';
import { resolveReal } from './paths.js';
import type { PermissionPolicy } from './policy.js';
import { protectedWrite } from './protected-paths.js';
import { formatRule } from './rules.js';

/** The file tools whose rules an edit made by another route must honour (`Edit(...)` names both). */
const WRITERS = [
  { tool: 'edit_file', kind: 'edit' },
  { tool: 'write_file', kind: 'write' },
] as const;

/** Why seek may not write `target` (absolute) inside `root` without a person's yes to that file,
 * judged by `state`'s rules and mode; undefined when it may. */
export function writeRefusal(state: PolicyState, root: string, target: string): string | undefined {
  const judged: PolicyState = { ...state, root };
  for (const { tool, kind } of WRITERS) {
    const decision = evaluatePolicy(judged, { kind, paths: [target], summary: `${kind} ${target}` }, { tool, cwd: root, canAsk: false });
    if (decision.decision !== 'deny' || decision.rule === undefined) continue;
    if (decision.code === 'deny_rule') return `denied by ${formatRule(decision.rule)} ${ruleWhere(decision.rule)}`;
    if (decision.code === 'ask_rule') return `the ask rule ${formatRule(decision.rule)} ${ruleWhere(decision.rule)} needs a person's yes for it`;
  }
  const what = state.preference === 'yolo' ? undefined : protectedWrite(root, target);
  return what === undefined ? undefined : `${what}, which needs a person's yes in every mode but --yolo`;
}

/** The merge guard of an agent's merges: its policy's rules and mode, judged in the tree merged into. */
export function mergeGuard(policy: PermissionPolicy): MergeGuard {
  return (root, files) => {
    const state = policy.state();
    const refusals: MergeRefusal[] = [];
    for (const file of files) {
      const reason = writeRefusal(state, root, path.join(root, ...file.split('/')));
      if (reason !== undefined) refusals.push({ file, reason });
    }
    return refusals;
  };
}

/**
 * The gate's check of where a write it let through really lands (ToolContext.checkWrite): the file
 * at the moment of writing is judged as the call was, by the same policy. It may be written when
 * the policy allows it by itself, or when it is the very file a person approved (`approved`: the
 * call's paths, links resolved, when the question was put), unless a deny rule names it. Anything
 * else was reached through a link put on the way after the decision: refused.
 */
export function writeCheckFor(policy: PermissionPolicy, tool: string, action: ActionRequest, cwd: string, approved: readonly string[]): WriteCheck | undefined {
  if (action.kind !== 'write' && action.kind !== 'edit') return undefined;
  return (target) => {
    const real = resolveReal(target);
    const decision = policy.evaluate({ ...action, paths: [real] }, { tool, cwd, canAsk: false });
    if (decision.decision === 'allow') return undefined;
    if (decision.code !== 'deny_rule' && approved.includes(real)) return undefined;
    const judged = approved.length > 0 ? approved : action.paths;
    return `it now leads to ${real}, not the file that was approved (${judged.join(', ')}): a link was put on its way after the decision, and ${decision.decision === 'deny' && decision.code === 'deny_rule' ? `that file is denied by ${formatRule(decision.rule!)}` : 'that file needs its own approval'}; nothing was written`;
  };
}

/** The call's paths as the policy judges them (links resolved), for `writeCheckFor`'s `approved`. */
export function judgedPaths(action: ActionRequest): string[] {
  return action.kind === 'write' || action.kind === 'edit' ? action.paths.map((p) => resolveReal(p)) : [];
}
