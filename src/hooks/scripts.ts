import { changedPin as changedCoveredPin, checkCovered, commandPaths as coveredPaths, coveredHashes, fileHash, relativeKey, sha256Hex } from '../util/covered-files.js';
import type { PinnedFile } from './types.js';

/**
 * Project files a hook command runs. Trusting a project's hooks covers what their commands run,
 * not just hooks.toml: the files they name (`./scripts/guard.sh`, `bash .seek/check.sh`,
 * `node tools/x.js`), the Makefile of a `make`, the package.json `scripts` entry of an
 * `npm run X` / `yarn X` / `pnpm X`, the file of a `source FILE`. The rules, and what they do not
 * follow, are those of src/util/covered-files.ts (shared with MCP server approvals), with the
 * project root as the working directory (where hooks run).
 */

export { fileHash, relativeKey, sha256Hex };

/** Candidate paths (absolute) named by the command's words; existence is not checked here. */
export function commandPaths(command: string, projectRoot: string): string[] {
  return coveredPaths(command, projectRoot);
}

/** What a command covers, as it is now: record key (a relative path, or
 * `package.json#scripts.X`) → sha256. */
export async function commandFiles(command: string, projectRoot: string): Promise<Record<string, string>> {
  return coveredHashes(command, projectRoot);
}

export type ScriptTrust = { trusted: true; pinned: PinnedFile[] } | { trusted: false; reason: string };

const REASONS = { uncovered: 'script not covered by the trust', removed: 'script removed', changed: 'script changed' } as const;

/**
 * Checks what a command covers against the hashes recorded when the project was trusted.
 * Untrusted when a covered file or scripts entry changed, disappeared, or exists now but was not
 * recorded (created since, or trusted before seek covered it).
 */
export async function checkCommandFiles(command: string, projectRoot: string, recorded: Readonly<Record<string, string>>): Promise<ScriptTrust> {
  const check = await checkCovered(command, projectRoot, recorded);
  return check.ok ? { trusted: true, pinned: check.pinned } : { trusted: false, reason: `${REASONS[check.change]}: ${check.key}` };
}

/** The first pinned file (or scripts entry) whose content is no longer what was trusted, if any. */
export async function changedPin(pinned: readonly PinnedFile[]): Promise<PinnedFile | undefined> {
  return changedCoveredPin(pinned);
}
