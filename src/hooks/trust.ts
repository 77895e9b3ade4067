import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { readConfigFile } from '../util/trusted-read.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { projectHooksFile, trustedProjectsFile } from '../config/paths.js';
import { checkCommandFiles, commandFiles, sha256Hex } from './scripts.js';
import { formatProblem } from './problems.js';
import type { HookDef } from './types.js';

export { sha256Hex } from './scripts.js';

/** The hooks.toml parser (and its TOML library), loaded when a hooks file is read: the permission
 * rules read trust records on every start, and need no parser for that. */
async function hooksParser(): Promise<typeof import('./parse.js').parseHooksToml> {
  return (await import('./parse.js')).parseHooksToml;
}

/**
 * Trust for project hooks (seek-spec 2.4): a project's `.seek/hooks.toml` runs only when the sha256
 * of its exact bytes is recorded for that project path in `<SEEK_HOME>/trusted-projects.json`, and
 * each hook also only while the project files its command names (scripts.ts) have the content
 * recorded with it. Any edit changes a hash, so the user is asked again. File format (extensible):
 * `{ "version": 1, "projects": { "<abs project path>": { "sha256": "<hex>", "trusted_at": "<ISO>",
 *   "files": { "<path relative to the project, / separated>": "<hex>" } } } }`
 * `files` is absent in records written before scripts were covered: hooks naming project files are
 * then untrusted until trusted again. A missing or unreadable file means nothing is trusted; it is
 * rewritten atomically, mode 0600.
 */
const TrustRecordSchema = lazySchema((z) => z.looseObject({ sha256: z.string(), trusted_at: z.string(), files: z.record(z.string(), z.string()).optional() }));
const TrustFileSchema = lazySchema((z) =>
  z.looseObject({
    version: z.literal(1),
    projects: z.record(z.string(), TrustRecordSchema()),
  }),
);
type TrustFile = z.infer<ReturnType<typeof TrustFileSchema>>;
export type TrustRecord = z.infer<ReturnType<typeof TrustRecordSchema>>;

async function readTrustFile(seekHome: string): Promise<TrustFile> {
  try {
    // Read before the schema is built: a missing file needs no zod (src/util/zod.ts).
    const json: unknown = JSON.parse(await readFile(trustedProjectsFile(seekHome), 'utf8'));
    const parsed = TrustFileSchema().safeParse(json);
    if (parsed.success) return parsed.data;
  } catch {
    // Missing or corrupt: nothing is trusted.
  }
  return { version: 1, projects: {} };
}

async function writeTrustFile(seekHome: string, file: TrustFile): Promise<void> {
  await writeFileAtomic(trustedProjectsFile(seekHome), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}

/** The project's trust record, if any. */
export async function trustRecord(seekHome: string, projectRoot: string): Promise<TrustRecord | undefined> {
  return (await readTrustFile(seekHome)).projects[path.resolve(projectRoot)];
}

/** The project's hooks.toml bytes, read under the read policy (util/trusted-read.ts); undefined
 * when it is missing or refused (a link out of the project is never trusted). */
async function projectHooksBytes(projectRoot: string): Promise<Buffer | undefined> {
  const read = await readConfigFile(projectHooksFile(projectRoot), [projectRoot], `the project (${projectRoot})`);
  return 'bytes' in read ? read.bytes : undefined;
}

/** The recorded hooks.toml hash for a project, if any. */
export async function trustedHash(seekHome: string, projectRoot: string): Promise<string | undefined> {
  return (await trustRecord(seekHome, projectRoot))?.sha256;
}

/** sha256 of the project's hooks.toml, or undefined when the project has none. */
export async function projectHooksHash(projectRoot: string): Promise<string | undefined> {
  const bytes = await projectHooksBytes(projectRoot);
  return bytes ? sha256Hex(bytes) : undefined;
}

/** True when the project's hooks.toml and every project file its hooks name are trusted as they are now. */
export async function isTrusted(seekHome: string, projectRoot: string): Promise<boolean> {
  const bytes = await projectHooksBytes(projectRoot);
  if (!bytes) return false;
  const record = await trustRecord(seekHome, projectRoot);
  if (record?.sha256 !== sha256Hex(bytes)) return false;
  const parsed = (await hooksParser())(bytes.toString('utf8'), projectHooksFile(projectRoot), 'project');
  for (const hook of parsed.hooks) {
    if (!(await checkCommandFiles(hook.command, projectRoot, record.files ?? {})).trusted) return false;
  }
  return parsed.problems.length === 0;
}

export interface TrustedProject {
  sha256: string;
  /** The hooks of the bytes that were trusted (what to show the user). */
  hooks: HookDef[];
  /** The project files the hooks name, as trusted: relative path → sha256. */
  files: Record<string, string>;
}

/**
 * Records the current hash of the project's hooks.toml and of every project file its hooks name.
 * Throws when there is no file, or when it does not parse or validate (nothing is recorded: a
 * broken file is never trusted).
 */
export async function trustProject(seekHome: string, projectRoot: string, now: Date = new Date()): Promise<TrustedProject> {
  const hooksFile = projectHooksFile(projectRoot);
  const read = await readConfigFile(hooksFile, [projectRoot], `the project (${projectRoot})`);
  if ('missing' in read) throw new Error(`no project hooks file at ${hooksFile}`);
  if ('refused' in read) throw new Error(`not trusted: ${read.refused}`);
  const bytes = read.bytes;
  const parsed = (await hooksParser())(bytes.toString('utf8'), hooksFile, 'project');
  if (parsed.problems.length > 0) {
    throw new Error(`not trusted: ${hooksFile} has errors\n${parsed.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  }
  const files: Record<string, string> = {};
  for (const hook of parsed.hooks) Object.assign(files, await commandFiles(hook.command, projectRoot));
  const sha256 = sha256Hex(bytes);
  const file = await readTrustFile(seekHome);
  file.projects[path.resolve(projectRoot)] = { ...file.projects[path.resolve(projectRoot)], sha256, trusted_at: now.toISOString(), files };
  await writeTrustFile(seekHome, file);
  return { sha256, hooks: parsed.hooks, files };
}

/**
 * Merges `fields` into the project's trust record (creating one without a hooks hash if needed), so
 * other project files guarded by the same trust (permission rules) record what was trusted.
 */
export async function updateTrustRecord(seekHome: string, projectRoot: string, fields: Record<string, string>, now: Date = new Date()): Promise<void> {
  const file = await readTrustFile(seekHome);
  const key = path.resolve(projectRoot);
  file.projects[key] = { sha256: '', ...file.projects[key], ...fields, trusted_at: now.toISOString() };
  await writeTrustFile(seekHome, file);
}

/** Forgets the project's trust; returns whether anything was recorded. */
export async function resetTrust(seekHome: string, projectRoot: string): Promise<boolean> {
  const file = await readTrustFile(seekHome);
  const key = path.resolve(projectRoot);
  if (!(key in file.projects)) return false;
  delete file.projects[key];
  await writeTrustFile(seekHome, file);
  return true;
}
