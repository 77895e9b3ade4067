// Permission policy (seek-spec 2.3): two axes (preference, workflow), rules as data, spawn tightening.
export * from './types.js';
export { DEFAULT_RULES, SOURCE_PRECEDENCE, commandMatches, pathMatches, ruleAppliesTo, ruleMatches, suggestRule, formatRule } from './rules.js';
export { commandRulesReady, coverCommand, denyMatch, judgesCommands } from './command-rules.js';
export { analyzeCommand, formatSimpleCommand, loadShellParser, type CommandAnalysis, type SimpleCommand, type ShellWord } from './shell-commands.js';
export { isReadOnlyInspector, hasShellMetacharacters, shellWords, type InspectorScope } from './inspectors.js';
export { isInside, resolveReal } from './paths.js';
export { readGuard, readDeniedMessage, type ReadGuard } from './read-guard.js';
export {
  PermissionPolicy,
  createPolicy,
  evaluatePolicy,
  preferenceMayBecome,
  workflowMayBecome,
  type PermissionMode,
  type PolicyOptions,
  type PolicyState,
} from './policy.js';
export { mergeGuard, writeRefusal } from './write-guard.js';
