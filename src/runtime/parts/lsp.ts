/** Language servers' piece of a session (lsp/): started on demand, their errors after each edit,
 * run under the session mode's sandbox profile, stopped with the session. */
import { createLspService, type SessionLsp } from '../../lsp/index.js';
import type { SessionPermissions } from '../permissions.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';

export function openLsp(base: SessionBase, options: OpenSessionOptions, permissions: SessionPermissions): SessionLsp {
  const { policy, sandbox, sandboxReady } = permissions;
  const lsp = createLspService({ config: (base.config as Record<string, unknown>).lsp, env: options.env, policy, sandbox, sandboxReady });
  for (const text of lsp.problems) base.board.add('warn', text);
  return lsp;
}
