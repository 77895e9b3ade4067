/**
 * Adding and removing permission rules in config files (the TUI's `/permissions` and its "always
 * for this project / for me" answers). Every other key of the file is kept; the file is replaced
 * atomically. The personal `config.local.json` is added to `.git/info/exclude` so it is never
 * committed by accident. A rule the user writes through seek is theirs: when it loosens a project
 * file (allow, or the default mode), the project's rules are trusted as they now are.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../config/atomic-file.js';
import { excludeFromGit } from '../util/git-exclude.js';
import { configFile } from '../config/paths.js';
import { trustRecord, updateTrustRecord } from '../hooks/trust.js';
import { seekToolNames } from '../tools/tool-names.js';
import { currentProjectPermissionsHash, localConfigFile, projectConfigFile, type ConfigRuleSource } from './config-rules.js';
import { parseRuleText } from './rule-syntax.js';
import type { RuleDecision } from './types.js';

export interface RuleLocation {
  scope: ConfigRuleSource;
  seekHome: string;
  projectRoot: string;
}

export function fileFor(location: RuleLocation): string {
  if (location.scope === 'user') return configFile(location.seekHome);
  return location.scope === 'project' ? projectConfigFile(location.projectRoot) : localConfigFile(location.projectRoot);
}

function readObject(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file}: the top level is not an object`);
  return value as Record<string, unknown>;
}

async function rewrite(location: RuleLocation, change: (lists: Record<RuleDecision, string[]>) => boolean): Promise<boolean> {
  const file = fileFor(location);
  // Trusted before the change? Then the user's own edit keeps it trusted.
  const wasTrusted =
    location.scope !== 'user' &&
    (currentProjectPermissionsHash(location.projectRoot) === undefined ||
      (await trustRecord(location.seekHome, location.projectRoot))?.permissions_sha256 === currentProjectPermissionsHash(location.projectRoot));
  const config = readObject(file);
  const permissions = (config.permissions ?? {}) as Record<string, unknown>;
  const lists = {
    allow: [...((permissions.allow as string[] | undefined) ?? [])],
    ask: [...((permissions.ask as string[] | undefined) ?? [])],
    deny: [...((permissions.deny as string[] | undefined) ?? [])],
  };
  if (!change(lists)) return false;
  const next = { ...permissions };
  for (const decision of ['allow', 'ask', 'deny'] as const) {
    if (lists[decision].length > 0) next[decision] = lists[decision];
    else delete next[decision];
  }
  config.permissions = next;
  await writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, { mode: location.scope === 'user' ? 0o600 : 0o644, durable: true });
  if (location.scope === 'local') excludeFromGit(location.projectRoot, file);
  if (location.scope !== 'user' && wasTrusted) {
    const hash = currentProjectPermissionsHash(location.projectRoot);
    if (hash !== undefined) await updateTrustRecord(location.seekHome, location.projectRoot, { permissions_sha256: hash });
  }
  return true;
}

/** Adds `text` (validated first) to the file's `decision` list; false when it is already there. */
export async function addConfigRule(location: RuleLocation, decision: RuleDecision, text: string): Promise<boolean> {
  parseRuleText(text, decision, location.scope, seekToolNames()); // throws RuleSyntaxError
  return rewrite(location, (lists) => {
    if (lists[decision].includes(text.trim())) return false;
    lists[decision].push(text.trim());
    return true;
  });
}

/** Removes `text` from the file's `decision` list; false when it was not there. */
export async function removeConfigRule(location: RuleLocation, decision: RuleDecision, text: string): Promise<boolean> {
  return rewrite(location, (lists) => {
    const index = lists[decision].indexOf(text.trim());
    if (index < 0) return false;
    lists[decision].splice(index, 1);
    return true;
  });
}

