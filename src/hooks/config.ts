import { projectHooksFile, userHooksFile } from '../config/paths.js';
import { checkSyntax } from './exec.js';
import { parseHooksToml } from './parse.js';
import { formatProblem } from './problems.js';
import { checkCommandFiles, sha256Hex } from './scripts.js';
import { trustRecord } from './trust.js';
import { readConfigFile } from '../util/trusted-read.js';
import type { HookEntry, HookProblem, LoadedHooks, ProjectHooksFileInfo } from './types.js';

export { parseHooksToml } from './parse.js';

/** A hooks file read under the read policy (util/trusted-read.ts): it must lie inside `within`
 * (the project, or SEEK_HOME for the user's); a link elsewhere is a problem, its target unquoted. */
async function readOptional(file: string, within: string, label: string): Promise<{ bytes?: Buffer; problem?: HookProblem }> {
  const read = await readConfigFile(file, [within], label);
  if ('missing' in read) return {};
  if ('refused' in read) return { problem: { file, message: `cannot be used: ${read.refused}` } };
  return { bytes: read.bytes };
}

export interface LoadHooksOptions {
  seekHome: string;
  projectRoot: string;
  /** Run `bash -n` on every hook that would run, skipping failures (default true). */
  checkSyntax?: boolean;
}

/**
 * Loads project then user hooks. A project hook runs only when hooks.toml is trusted for its current
 * hash and the project files its command names still have their trusted content (scripts.ts);
 * hooks that fail `bash -n` are listed as skipped. Never throws for bad files: they come back as
 * problems, which callers that run hooks must treat as fatal (`hooksStartupError`).
 */
export async function loadHooks(options: LoadHooksOptions): Promise<LoadedHooks> {
  const problems: HookProblem[] = [];
  const notices: string[] = [];
  const entries: HookEntry[] = [];
  let projectFile: ProjectHooksFileInfo | undefined;

  const projectPath = projectHooksFile(options.projectRoot);
  const project = await readOptional(projectPath, options.projectRoot, `the project (${options.projectRoot})`);
  if (project.problem) problems.push(project.problem);
  if (project.bytes) {
    const sha256 = sha256Hex(project.bytes);
    const record = await trustRecord(options.seekHome, options.projectRoot);
    projectFile = { path: projectPath, sha256, trusted: record?.sha256 === sha256, changed: record !== undefined && record.sha256 !== sha256 };
    const parsed = parseHooksToml(project.bytes.toString('utf8'), projectPath, 'project');
    problems.push(...parsed.problems);
    for (const hook of parsed.hooks) {
      if (!projectFile.trusted || !record) {
        entries.push({ hook, status: { state: 'untrusted', reason: projectFile.changed ? 'hooks.toml changed since trusted' : 'not trusted' } });
        continue;
      }
      const scripts = await checkCommandFiles(hook.command, options.projectRoot, record.files ?? {});
      if (!scripts.trusted) {
        entries.push({ hook, status: { state: 'untrusted', reason: scripts.reason } });
      } else {
        entries.push({ hook: scripts.pinned.length > 0 ? { ...hook, pinned: scripts.pinned } : hook, status: { state: 'active' } });
      }
    }
  }

  const userPath = userHooksFile(options.seekHome);
  const user = await readOptional(userPath, options.seekHome, `your seek folder (${options.seekHome})`);
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
  if (untrusted.length > 0 && projectFile && !projectFile.trusted) {
    notices.push(
      projectFile.changed
        ? `project hooks in ${projectFile.path} changed since you trusted them; ${untrusted.length} hook(s) skipped — review the file, then run \`seek hooks trust\``
        : `project hooks in ${projectFile.path} are not trusted; ${untrusted.length} hook(s) skipped — review the file, then run \`seek hooks trust\``,
    );
  }
  for (const entry of entries) {
    if (entry.status.state === 'untrusted' && projectFile?.trusted) {
      notices.push(`project hook "${entry.hook.name}" not run: ${entry.status.reason} — review it, then run \`seek hooks trust\``);
    }
    if (entry.status.state === 'skipped') {
      notices.push(`hook "${entry.hook.name}" (${entry.hook.event}, ${entry.hook.source}) [skipped: ${entry.status.reason}]`);
    }
  }
  for (const problem of problems) notices.push(formatProblem(problem));
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
