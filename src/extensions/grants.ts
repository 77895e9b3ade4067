/**
 * What a command's or skill's `allowed-tools` allows, as in Claude Code: the listed tools (and
 * command patterns, `Bash(git commit:*)`) run without asking while it is active, for that turn.
 * They become permission rules of their own source, `command` (policy/types.ts), added to the
 * session's policy for the turn and removed when it ends (allowed-tools.ts, ToolScope). So:
 *  - a deny rule from any config file still denies, and an ask rule from a config file still asks
 *    (headless: denies); `command` is the least specific source, below the user's config;
 *  - a command they allow runs in the workspace-write sandbox, as one a config file allows (no
 *    sandbox here: asked, or denied headless); under `--yolo` they change nothing;
 *  - file tools are allowed inside the project only (`Edit` is `Edit(**)` under the project root;
 *    a path pattern outside it, `Edit(//etc/**)` or `Read(~/.ssh/**)`, is dropped with a notice);
 *  - plan mode stays read-only, and subagents do not inherit them.
 * A project's command and skill files come from the repository: their grants apply only once the
 * user trusts them (`seek permissions trust` records `grants_sha256`, the hash of every project
 * command's and skill's allowed-tools with its file; any change asks again). The user's own
 * (`~/.seek`, `~/.claude`) always apply.
 */
import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { seekToolNames } from '../tools/tool-names.js';
import { trustRecord } from '../hooks/trust.js';
import { parseRuleText, RuleSyntaxError } from '../policy/rule-syntax.js';
import type { PolicyRule } from '../policy/types.js';
import type { ExtensionSource } from './discovery.js';

export interface GrantingFile {
  /** `/commit` or `skill "pdf"`, for notices. */
  by: string;
  file: string;
  source: ExtensionSource;
  /** allowed-tools as written. */
  entries: readonly string[];
}

export const isProjectSource = (source: ExtensionSource): boolean => source.startsWith('project');

/** The rules `entries` grant (source `command`), confined as the module comment says; entries that
 * cannot be a rule, or reach outside the project, are dropped with a notice. */
export function grantRules(entries: readonly string[], file: string, notify: (what: string) => void): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const known = seekToolNames();
  for (const entry of entries) {
    let parsed: PolicyRule[];
    try {
      parsed = parseRuleText(entry, 'allow', 'command', known).rules;
    } catch (error) {
      if (error instanceof RuleSyntaxError) {
        notify(`allowed-tools: ${entry} grants nothing (${error.message})`);
        continue;
      }
      throw error;
    }
    const confined = parsed.map(confine);
    for (const rule of confined) if (rule) rules.push({ ...rule, origin: { text: entry, file } });
    if (confined.includes(undefined)) notify(`allowed-tools: ${entry} grants nothing (a command's allowed-tools allow files inside the project only)`);
  }
  return rules;
}

/** File tools inside the project only; commands are held by the sandbox; MCP tools as named. */
const FILE_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'glob', 'grep', 'list_dir']);
const FILE_KINDS = new Set(['read', 'write', 'edit']);

function confine(rule: PolicyRule): PolicyRule | undefined {
  const onFiles = (rule.tool !== undefined && FILE_TOOLS.has(rule.tool)) || (rule.tool === undefined && rule.kind !== undefined && FILE_KINDS.has(rule.kind));
  if (!onFiles) return rule;
  if (rule.pattern === undefined) return { ...rule, pattern: '**' };
  if (rule.pattern.startsWith('/') || rule.pattern.startsWith('~')) return undefined;
  return rule;
}

/** The hash trust records for a project's grants (every project file with allowed-tools), or
 * undefined when no project file grants anything. */
export function projectGrantsHash(files: readonly GrantingFile[], projectRoot: string): string | undefined {
  const granting = files
    .filter((f) => isProjectSource(f.source) && f.entries.length > 0)
    .map((f) => ({ file: relative(projectRoot, f.file).split(sep).join('/'), entries: [...f.entries] }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  if (granting.length === 0) return undefined;
  return createHash('sha256').update(JSON.stringify(granting)).digest('hex');
}

/** The files that grant, of a session's commands and skills. */
export function grantingFiles(items: ReadonlyArray<{ name: string; file: string; source: ExtensionSource; allowedToolsText?: string[]; skillDir?: string }>): GrantingFile[] {
  const seen = new Set<string>();
  const out: GrantingFile[] = [];
  for (const item of items) {
    if (!item.allowedToolsText || seen.has(item.file)) continue;
    seen.add(item.file);
    out.push({ by: item.skillDir ? `skill "${item.name}"` : `/${item.name}`, file: item.file, source: item.source, entries: item.allowedToolsText });
  }
  return out;
}

/** Whether the project's grants are trusted as they are now (`grants_sha256` in the trust record
 * matches); a project that grants nothing has nothing to trust. */
export async function projectGrantsTrusted(seekHome: string, projectRoot: string, files: readonly GrantingFile[]): Promise<boolean> {
  const hash = projectGrantsHash(files, projectRoot);
  if (hash === undefined) return true;
  return (await trustRecord(seekHome, projectRoot))?.grants_sha256 === hash;
}
