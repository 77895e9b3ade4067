/**
 * Permission rules from config files (CONTRACT "permissions"): `"permissions": {"allow": [...],
 * "ask": [...], "deny": [...], "defaultMode": "..."}` in
 *   - `~/.seek/config.json` (user; SEEK_HOME),
 *   - `<root>/.seek/config.json` (project, committed),
 *   - `<root>/.seek/config.local.json` (personal; excluded from git when seek writes it).
 * Deny beats ask beats allow (the policy's order). A project can be hostile: its allow rules and its
 * default mode apply only once the user trusts the project's current rules (`seek permissions
 * trust`, or `seek hooks trust`, which trusts the project as a whole); deny and ask rules only
 * tighten and always apply. A file that does not parse, or a rule that does not, stops seek
 * (exit 2): a guard that silently falls away is no guard.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { lazySchema } from '../util/zod.js';
import { readConfigFileSync } from '../util/trusted-read.js';
import { trustRecord } from '../hooks/trust.js';
import { seekToolNames } from '../tools/tool-names.js';
import { parseRuleText, RuleSyntaxError } from './rule-syntax.js';
import type { PolicyRule, Preference, RuleDecision } from './types.js';

export type ConfigRuleSource = 'user' | 'project' | 'local';

export const projectConfigFile = (root: string): string => path.join(root, '.seek', 'config.json');
export const localConfigFile = (root: string): string => path.join(root, '.seek', 'config.local.json');

const permissionsSchema = lazySchema((z) =>
  z.looseObject({
    allow: z.array(z.string()).optional(),
    ask: z.array(z.string()).optional(),
    deny: z.array(z.string()).optional(),
    defaultMode: z.string().optional(),
  }),
);

/** Modes a config may start in; Claude Code's names accepted. `plan` is a workflow, not a preference. */
const DEFAULT_MODES: ReadonlyMap<string, Preference | 'plan'> = new Map(
  Object.entries({
    ask: 'ask',
    default: 'ask',
    auto: 'auto',
    acceptEdits: 'auto',
    yolo: 'yolo',
    bypassPermissions: 'yolo',
    deny: 'deny',
    dontAsk: 'deny',
    plan: 'plan',
  }),
);

export class PermissionsConfigError extends Error {
  override readonly name = 'PermissionsConfigError';
  /** Configuration errors exit 2, like bad usage (see cli/main.ts). */
  readonly exitStatus = 2;
}

export interface PermissionFileSummary {
  file: string;
  source: ConfigRuleSource;
  rules: number;
}

export interface LoadedPermissions {
  /** Rules in effect, in file order (user, project, local). */
  rules: PolicyRule[];
  /** Project/local allow rules held back until the project is trusted. */
  untrusted: PolicyRule[];
  /** The mode to start in when no flag says otherwise (`plan` = plan mode). */
  defaultMode?: Preference | 'plan';
  files: PermissionFileSummary[];
  /** Hash of the project's trust-gated settings (allow rules, default mode); undefined when none. */
  projectHash?: string;
  /** Things the user should hear at start (rules held back, inert rules). */
  notices: string[];
}

interface FileRules {
  file: string;
  source: ConfigRuleSource;
  rules: PolicyRule[];
  allowTexts: string[];
  defaultMode?: Preference | 'plan';
  inert: string[];
}

/** A project's rules file, read under the read policy (util/trusted-read.ts): a link out of the
 * project, to /proc or to a FIFO stops seek naming the file, and never quotes what it points at. */
function readJson(file: string, projectRoot: string): Record<string, unknown> | undefined {
  const read = readConfigFileSync(file, [projectRoot], `the project (${projectRoot})`);
  if ('missing' in read) return undefined;
  if ('refused' in read) throw new PermissionsConfigError(`${read.refused}; seek stops rather than run without its permission rules.`);
  const text = read.bytes.toString('utf8');
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('the top level is not an object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new PermissionsConfigError(`${file} is not valid JSON (${(error as Error).message}); seek stops rather than run without its permission rules.`);
  }
}

/** The rules one config object declares; throws PermissionsConfigError naming the file and rule. */
export function rulesFromConfig(config: Record<string, unknown>, file: string, source: ConfigRuleSource): FileRules {
  const out: FileRules = { file, source, rules: [], allowTexts: [], inert: [] };
  if (config.permissions === undefined) return out;
  const parsed = permissionsSchema().safeParse(config.permissions);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `permissions.${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new PermissionsConfigError(`${file}: ${problems}`);
  }
  const known = seekToolNames();
  for (const decision of ['deny', 'ask', 'allow'] as RuleDecision[]) {
    for (const text of parsed.data[decision] ?? []) {
      try {
        const { rules, inert } = parseRuleText(text, decision, source, known);
        out.rules.push(...rules.map((rule) => ({ ...rule, origin: { text: text.trim(), file } })));
        if (inert) out.inert.push(`${text} (${inert})`);
        if (decision === 'allow') out.allowTexts.push(text.trim());
      } catch (error) {
        if (error instanceof RuleSyntaxError) throw new PermissionsConfigError(`${file}: permissions.${decision}: ${error.message}`);
        throw error;
      }
    }
  }
  if (parsed.data.defaultMode !== undefined) {
    const mode = DEFAULT_MODES.get(parsed.data.defaultMode);
    if (!mode) throw new PermissionsConfigError(`${file}: permissions.defaultMode: "${parsed.data.defaultMode}" is not one of ${[...DEFAULT_MODES.keys()].join(', ')}`);
    out.defaultMode = mode;
  }
  return out;
}

/** The hash that trust records for a project's rules: only what loosens (allow rules, default mode). */
export function projectPermissionsHash(files: readonly FileRules[]): string | undefined {
  const gated = files.filter((f) => f.source !== 'user' && (f.allowTexts.length > 0 || f.defaultMode !== undefined));
  if (gated.length === 0) return undefined;
  const canonical = JSON.stringify(gated.map((f) => ({ source: f.source, allow: f.allowTexts, defaultMode: f.defaultMode ?? null })));
  return createHash('sha256').update(canonical).digest('hex');
}

function readProjectFiles(projectRoot: string): FileRules[] {
  const files: FileRules[] = [];
  for (const [file, source] of [
    [projectConfigFile(projectRoot), 'project'],
    [localConfigFile(projectRoot), 'local'],
  ] as const) {
    const config = readJson(file, projectRoot);
    if (config !== undefined) files.push(rulesFromConfig(config, file, source));
  }
  return files;
}

/** The project's current trust-gated hash, to record when the user trusts it. */
export function currentProjectPermissionsHash(projectRoot: string): string | undefined {
  return projectPermissionsHash(readProjectFiles(projectRoot));
}

/**
 * Loads every config file's rules. `userConfig` is the already-parsed `~/.seek/config.json`.
 * Throws PermissionsConfigError for a file or rule that does not parse.
 */
export async function loadPermissionRules(options: {
  seekHome: string;
  projectRoot: string;
  userConfig: Record<string, unknown>;
  userConfigFile: string;
}): Promise<LoadedPermissions> {
  const files = [rulesFromConfig(options.userConfig, options.userConfigFile, 'user'), ...readProjectFiles(options.projectRoot)];
  const projectHash = projectPermissionsHash(files);
  const trusted = projectHash !== undefined && (await trustRecord(options.seekHome, options.projectRoot))?.permissions_sha256 === projectHash;
  const loaded: LoadedPermissions = { rules: [], untrusted: [], files: [], notices: [], ...(projectHash ? { projectHash } : {}) };
  for (const f of files) {
    if (f.rules.length > 0 || f.defaultMode) loaded.files.push({ file: f.file, source: f.source, rules: f.rules.length });
    const gated = f.source !== 'user' && !trusted;
    for (const rule of f.rules) (gated && rule.decision === 'allow' ? loaded.untrusted : loaded.rules).push(rule);
    if (f.defaultMode === 'yolo' && f.source !== 'user') {
      loaded.notices.push(`${f.file} asks for defaultMode yolo; a project file can never start seek unsandboxed and unasked, so it is ignored.`);
    } else if (f.defaultMode !== undefined) {
      if (f.source === 'user' || trusted) loaded.defaultMode = f.defaultMode;
      else loaded.notices.push(`${f.file} sets defaultMode "${f.defaultMode}"; it applies once you trust this project (seek permissions trust).`);
    }
    for (const inert of f.inert) loaded.notices.push(`${f.file}: rule ${inert} never matches.`);
  }
  if (loaded.untrusted.length > 0) {
    const texts = [...new Set(loaded.untrusted.map((r) => r.origin?.text ?? ''))];
    loaded.notices.push(
      `${texts.length} allow rule${texts.length === 1 ? '' : 's'} from this project's .seek config (${texts.join(', ')}) not applied: the project is not trusted. Review them, then run \`seek permissions trust\`.`,
    );
  }
  return loaded;
}
