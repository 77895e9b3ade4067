/**
 * Language servers for a session (issue 42): diagnostics after edits and the `lsp` tool.
 * The composition root calls `createLspService` once and hands the result to the session and
 * its subagents; nothing of vscode-languageserver-protocol loads until a server starts.
 */
import type { Tool } from '../agent/types.js';
import { LspService, type LspServiceOptions } from './service.js';
import { createLspTool } from './tool.js';

export type { EditDiagnostics, LspServiceOptions } from './service.js';
export type { ServerStatus } from './pool.js';
export { lspSettingsFrom, type LspSettings } from './config.js';
export type { LspService };

export interface SessionLsp {
  service: LspService;
  /** `tools` with diagnostics after edits (and late ones), plus the `lsp` tool when servers are on. */
  withLsp(tools: readonly Tool[]): Tool[];
  /** Problems with config.json's `lsp` setting, for the user. */
  problems: string[];
  stop(): Promise<void>;
}

export function createLspService(options: LspServiceOptions): SessionLsp {
  const service = new LspService(options);
  return {
    service,
    withLsp: (tools) => (service.settings.enabled ? [...service.wrapTools(tools), createLspTool(service) as Tool] : [...tools]),
    problems: service.settings.problems,
    stop: () => service.stop(),
  };
}
