import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ActionRequest } from '../../../src/agent/types.js';
import { PermissionPolicy } from '../../../src/policy/index.js';
import { createExitWorktreeTool } from '../../../src/tools/exit-worktree.js';
import { makeCtx, tempDir } from './helpers.js';

/** The tool with an `exit` that must never run here: these tests only ask the policy. */
function setup(): { project: string; worktree: string; describe: (args: { path: string; if_dirty?: 'keep' | 'discard' | 'merge' }, cwd?: string) => ActionRequest } {
  const project = tempDir('seek-exit-project-');
  const worktree = path.join(tempDir('seek-exit-home-'), 'worktrees', '20250101-000000-abcdef');
  const tool = createExitWorktreeTool({ exit: () => Promise.reject(new Error('not here')), projectRoot: () => project });
  return { project, worktree, describe: (args, cwd = project) => tool.describe!(args, makeCtx(cwd)) as ActionRequest };
}

describe('exit_worktree: what the policy is asked', () => {
  it('describes discard as a write of the worktree, merge as a write of the main tree, keep as a worktree action', () => {
    const { project, worktree, describe } = setup();
    expect(describe({ path: worktree, if_dirty: 'discard' })).toMatchObject({ kind: 'write', paths: [worktree] });
    expect(describe({ path: '.', if_dirty: 'discard' }, worktree)).toMatchObject({ kind: 'write', paths: [worktree] }); // relative to cwd
    expect(describe({ path: worktree, if_dirty: 'merge' })).toMatchObject({ kind: 'write', paths: [project] });
    expect(describe({ path: worktree })).toMatchObject({ kind: 'worktree', paths: [] });
    expect(describe({ path: worktree, if_dirty: 'keep' })).toMatchObject({ kind: 'worktree', paths: [] });
  });

  it('a discard is denied headless (default mode) and in plan mode, asked when someone can answer; keep is allowed', () => {
    const { project, worktree, describe } = setup();
    const discard = describe({ path: worktree, if_dirty: 'discard' });
    const headless = new PermissionPolicy({ root: project, preference: 'ask' });
    expect(headless.evaluate(discard, { tool: 'exit_worktree' }).decision).toBe('deny');
    expect(headless.evaluate(discard, { tool: 'exit_worktree', canAsk: true }).decision).toBe('ask');
    const plan = new PermissionPolicy({ root: project, preference: 'ask', workflow: 'plan_analyze' });
    expect(plan.evaluate(discard, { tool: 'exit_worktree', canAsk: true }).decision).toBe('deny');
    // Even from inside the worktree (the policy root is then the worktree): still asked.
    const inside = new PermissionPolicy({ root: worktree, preference: 'ask' });
    expect(inside.evaluate(describe({ path: '.', if_dirty: 'discard' }, worktree), { tool: 'exit_worktree' }).decision).toBe('deny');
    expect(headless.evaluate(describe({ path: worktree }), { tool: 'exit_worktree' }).decision).toBe('allow');
  });
});
