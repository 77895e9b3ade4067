// Shell hooks (seek-spec 2.4): hooks.toml loading and validation, trust, the runner, the audit log.
export * from './types.js';
export { loadHooks, parseHooksToml, type LoadHooksOptions } from './config.js';
export {
  createHookRunner,
  truncateBytes,
  RESULT_ENV_MAX_BYTES,
  type HookRunner,
  type HookRunnerEnv,
  type HookRunnerOptions,
  type PostToolHookCall,
  type PreToolOutcome,
  type ToolHookCall,
} from './runner.js';
export { isTrusted, trustProject, resetTrust, updateTrustRecord, trustedHash, trustRecord, projectHooksHash, sha256Hex, type TrustRecord, type TrustedProject } from './trust.js';
export { appendAudit, auditFile, parseDuration, readAudit, type AuditFilter } from './audit.js';
export { checkSyntax, runShell, type ShellOptions, type ShellResult, type SyntaxCheck } from './exec.js';
export { describeMatcher, parseMatcher, type MatcherParse, type ToolMatcher } from './matcher.js';
export { CLAUDE_CODE_TOOL_ALIASES, MCP_TOOL_PREFIX, canonicalToolName, seekToolNames } from '../tools/tool-names.js';
export { fatalProblems, formatProblem, hooksStartupError, HooksConfigError, HOOKS_CONFIG_EXIT_STATUS } from './problems.js';
export { commandFiles, commandPaths } from './scripts.js';
