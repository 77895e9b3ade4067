import { readFile } from 'node:fs/promises';
import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { projectHooksFile, userHooksFile } from '../config/paths.js';
import { checkSyntax } from './exec.js';
import { sha256Hex, trustedHash } from './trust.js';
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_EVENTS,
  type HookDef,
  type HookEntry,
  type HookEvent,
  type HookProblem,
  type HookSource,
  type LoadedHooks,
  type ProjectHooksFileInfo,
} from './types.js';

/**
 * hooks.toml (seek-spec 2.4), one array of tables per event:
 * ```toml
 * [[pre_tool]]
 * name = "no-force-push"
 * command = "echo \"$SEEK_TOOL_ARGS_JSON\" | grep -q 'push --force' && { echo 'no force pushes'; exit 1; } || exit 0"
 * match = { tool = "bash" }   # optional; "*" or absent = every tool; exact names otherwise
 * timeout_ms = 5000           # optional, default 5000
 * ```
 * Unknown tables or fields are errors (a typo must not silently disable a guard). A file with any
 * error contributes no hooks at all, and the problem names the file and the field.
 */
const HookSchema = z.strictObject({
  name: z.string().trim().min(1, 'must be a non-empty string'),
  command: z.string().trim().min(1, 'must be a non-empty string'),
  match: z.strictObject({ tool: z.string().min(1).optional() }).optional(),
  timeout_ms: z.number().int().positive().max(600_000).optional(),
});
const HookList = z.array(HookSchema).optional();
const HooksFileSchema = z.strictObject({
  pre_tool: HookList,
  post_tool: HookList,
  pre_prompt: HookList,
  session_start: HookList,
  session_end: HookList,
  pre_compact: HookList,
  post_compact: HookList,
});

function issuePath(pathParts: readonly PropertyKey[]): string {
  return pathParts
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}

/** Parses one hooks.toml text. Never throws: errors come back as problems and no hooks. */
export function parseHooksToml(text: string, file: string, source: HookSource): { hooks: HookDef[]; problems: HookProblem[] } {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    const message =
      error instanceof TomlError
        ? `invalid TOML at line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}`
        : `invalid TOML: ${error instanceof Error ? error.message : String(error)}`;
    return { hooks: [], problems: [{ file, message }] };
  }
  const parsed = HooksFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue): HookProblem => {
      const where = issuePath(issue.path);
      const event = issue.path[0];
      if (issue.path.length === 1 && issue.code === 'invalid_type' && HOOK_EVENTS.includes(event as HookEvent)) {
        return { file, message: `${where}: must be an array of tables, written [[${String(event)}]]` };
      }
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.join(', ');
        return {
          file,
          message:
            issue.path.length === 0
              ? `unknown table ${keys} (known: ${HOOK_EVENTS.join(', ')})`
              : `${where}: unknown field ${keys}`,
        };
      }
      return { file, message: `${where}: ${issue.message}` };
    });
    return { hooks: [], problems };
  }
  const hooks: HookDef[] = [];
  for (const event of HOOK_EVENTS) {
    for (const h of parsed.data[event] ?? []) {
      const tool = h.match?.tool;
      hooks.push({
        name: h.name,
        command: h.command,
        event,
        ...(tool !== undefined && tool !== '*' ? { tool } : {}),
        timeoutMs: h.timeout_ms ?? DEFAULT_HOOK_TIMEOUT_MS,
        source,
        file,
      });
    }
  }
  return { hooks, problems: [] };
}

async function readOptional(file: string): Promise<{ bytes?: Buffer; problem?: HookProblem }> {
  try {
    return { bytes: await readFile(file) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: { file, message: `cannot read: ${(error as Error).message}` } };
  }
}

export interface LoadHooksOptions {
  seekHome: string;
  projectRoot: string;
  /** Run `bash -n` on every hook that would run, skipping failures (default true). */
  checkSyntax?: boolean;
}

/**
 * Loads project then user hooks. Project hooks run only when trusted for the file's current hash;
 * hooks that fail `bash -n` are listed as skipped. Never throws for bad files.
 */
export async function loadHooks(options: LoadHooksOptions): Promise<LoadedHooks> {
  const problems: HookProblem[] = [];
  const notices: string[] = [];
  const entries: HookEntry[] = [];
  let projectFile: ProjectHooksFileInfo | undefined;

  const projectPath = projectHooksFile(options.projectRoot);
  const project = await readOptional(projectPath);
  if (project.problem) problems.push(project.problem);
  if (project.bytes) {
    const sha256 = sha256Hex(project.bytes);
    const recorded = await trustedHash(options.seekHome, options.projectRoot);
    projectFile = { path: projectPath, sha256, trusted: recorded === sha256, changed: recorded !== undefined && recorded !== sha256 };
    const parsed = parseHooksToml(project.bytes.toString('utf8'), projectPath, 'project');
    problems.push(...parsed.problems);
    for (const hook of parsed.hooks) {
      entries.push({ hook, status: projectFile.trusted ? { state: 'active' } : { state: 'untrusted' } });
    }
  }

  const userPath = userHooksFile(options.seekHome);
  const user = await readOptional(userPath);
  if (user.problem) problems.push(user.problem);
  if (user.bytes) {
    const parsed = parseHooksToml(user.bytes.toString('utf8'), userPath, 'user');
    problems.push(...parsed.problems);
    for (const hook of parsed.hooks) entries.push({ hook, status: { state: 'active' } });
  }

  if (options.checkSyntax !== false) {
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.status.state !== 'active') return;
        const result = await checkSyntax(entry.hook.command);
        if (result.ok === false) entry.status = { state: 'skipped', reason: result.reason };
        // ok === 'unknown' (bash missing): keep the hook; running it fails, and a pre_tool hook then denies.
        if (result.ok === 'unknown') {
          problems.push({ file: entry.hook.file, hook: entry.hook.name, message: `hook "${entry.hook.name}": ${result.reason}` });
        }
      }),
    );
  }

  const untrusted = entries.filter((e) => e.status.state === 'untrusted');
  if (untrusted.length > 0 && projectFile) {
    notices.push(
      projectFile.changed
        ? `project hooks in ${projectFile.path} changed since you trusted them; ${untrusted.length} hook(s) skipped — review the file, then run \`seek hooks trust\``
        : `project hooks in ${projectFile.path} are not trusted; ${untrusted.length} hook(s) skipped — review the file, then run \`seek hooks trust\``,
    );
  }
  for (const entry of entries) {
    if (entry.status.state === 'skipped') {
      notices.push(`hook "${entry.hook.name}" (${entry.hook.event}, ${entry.hook.source}) [skipped: ${entry.status.reason}]`);
    }
  }
  for (const problem of problems) notices.push(`${problem.file}: ${problem.message}`);
  const badFiles = new Set(problems.filter((p) => p.hook === undefined).map((p) => p.file));
  for (const file of badFiles) notices.push(`${file}: no hooks loaded from this file until it is fixed`);

  return {
    hooks: entries.filter((e) => e.status.state === 'active').map((e) => e.hook),
    entries,
    problems,
    notices,
    untrustedProjectHooks: untrusted.length > 0,
    ...(projectFile ? { projectFile } : {}),
  };
}
