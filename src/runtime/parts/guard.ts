/**
 * What stands between the model and the machine: the permission policy and the OS sandbox, the
 * hooks, and the gate every tool call of the session (and of its children) passes through.
 */
import { startHookRunner } from '../../hooks/session-hooks.js';
import type { HookRunner } from '../../hooks/runner.js';
import { ToolScope } from '../../extensions/allowed-tools.js';
import { createToolGate, serializeAsk, type AskFn, type ToolGate } from '../../policy/tool-gate.js';
import { SEEK_VERSION } from '../../util/version.js';
import { savedRuleWriter, setUpPermissions, type SessionPermissions } from '../permissions.js';
import { Workspace } from '../workspace.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';

export async function openPermissions(base: SessionBase, options: OpenSessionOptions): Promise<SessionPermissions> {
  const permissions = await setUpPermissions({
    root: base.projectRoot,
    seekHome: base.home,
    configFile: base.configFile,
    config: base.config,
    env: options.env,
    interactive: options.interactive,
    deferSandbox: !options.interactive,
    ...(options.yolo ? { yolo: true } : {}),
    ...(options.auto ? { auto: true } : {}),
    ...(options.plan ? { plan: true } : {}),
  });
  for (const text of permissions.notices) base.board.add('warn', text);
  return permissions;
}

/** The hooks runner, when any hook is configured (the files were checked by openBase). */
export async function startHooks(base: SessionBase, sessionId: string): Promise<HookRunner | undefined> {
  for (const text of base.loadedHooks.notices) base.board.add('warn', text);
  if (base.loadedHooks.hooks.length === 0) return undefined;
  return startHookRunner({
    hooks: base.loadedHooks,
    seekHome: base.home,
    env: { sessionId, projectId: base.pid, projectPath: base.projectRoot, version: SEEK_VERSION },
    onProblem: base.board.problem,
  });
}

export interface Guard {
  /** The user's answers; the session's gate and every child's share one queue of questions. */
  ask: AskFn | undefined;
  workspace: Workspace;
  saveRule: ReturnType<typeof savedRuleWriter>;
  scope: ToolScope;
  gate: ToolGate;
}

export function buildGuard(base: SessionBase, options: OpenSessionOptions, permissions: SessionPermissions, hooks: HookRunner | undefined): Guard {
  const { policy, sandbox, sandboxReady } = permissions;
  const ask = options.ask ? serializeAsk(options.ask) : undefined;
  const workspace = new Workspace(base.projectRoot, options.cwd, policy);
  const saveRule = savedRuleWriter(base.home, base.projectRoot);
  const scope = new ToolScope(policy);
  const gate = createToolGate({ policy, workspace, sandbox, sandboxReady, saveRule, scope, onProblem: base.board.problem, ...(hooks ? { hooks } : {}), ...(ask ? { ask } : {}) });
  return { ask, workspace, saveRule, scope, gate };
}
