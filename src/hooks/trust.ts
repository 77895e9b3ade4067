import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../config/atomic-file.js';
import { projectHooksFile, trustedProjectsFile } from '../config/paths.js';

/**
 * Trust for project hooks (seek-spec 2.4): a project's `.seek/hooks.toml` runs only when the sha256
 * of its exact bytes is recorded for that project path in `<SEEK_HOME>/trusted-projects.json`.
 * Any edit changes the hash, so the user is asked again. File format (extensible):
 * `{ "version": 1, "projects": { "<abs project path>": { "sha256": "<hex>", "trusted_at": "<ISO>" } } }`
 * A missing or unreadable file means nothing is trusted; it is rewritten atomically, mode 0600.
 */
const TrustFileSchema = z.looseObject({
  version: z.literal(1),
  projects: z.record(z.string(), z.looseObject({ sha256: z.string(), trusted_at: z.string() })),
});
type TrustFile = z.infer<typeof TrustFileSchema>;

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

async function readTrustFile(seekHome: string): Promise<TrustFile> {
  try {
    const parsed = TrustFileSchema.safeParse(JSON.parse(await readFile(trustedProjectsFile(seekHome), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // Missing or corrupt: nothing is trusted.
  }
  return { version: 1, projects: {} };
}

/** The recorded hash for a project, if any. */
export async function trustedHash(seekHome: string, projectRoot: string): Promise<string | undefined> {
  return (await readTrustFile(seekHome)).projects[path.resolve(projectRoot)]?.sha256;
}

/** sha256 of the project's hooks.toml, or undefined when the project has none. */
export async function projectHooksHash(projectRoot: string): Promise<string | undefined> {
  try {
    return sha256Hex(await readFile(projectHooksFile(projectRoot)));
  } catch {
    return undefined;
  }
}

/** True when the project's hooks.toml (or the given hash of it) is trusted as it is now. */
export async function isTrusted(seekHome: string, projectRoot: string, sha256?: string): Promise<boolean> {
  const current = sha256 ?? (await projectHooksHash(projectRoot));
  if (current === undefined) return false;
  return (await trustedHash(seekHome, projectRoot)) === current;
}

/** Records the current hash of the project's hooks.toml; returns it. Throws when there is no file. */
export async function trustProject(seekHome: string, projectRoot: string, now: Date = new Date()): Promise<string> {
  const hash = await projectHooksHash(projectRoot);
  if (hash === undefined) throw new Error(`no project hooks file at ${projectHooksFile(projectRoot)}`);
  const file = await readTrustFile(seekHome);
  file.projects[path.resolve(projectRoot)] = { sha256: hash, trusted_at: now.toISOString() };
  await writeFileAtomic(trustedProjectsFile(seekHome), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  return hash;
}

/** Forgets the project's trust; returns whether anything was recorded. */
export async function resetTrust(seekHome: string, projectRoot: string): Promise<boolean> {
  const file = await readTrustFile(seekHome);
  const key = path.resolve(projectRoot);
  if (!(key in file.projects)) return false;
  delete file.projects[key];
  await writeFileAtomic(trustedProjectsFile(seekHome), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  return true;
}
