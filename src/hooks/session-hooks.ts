/**
 * The hooks of a session, for the composition root. Hooks are rare, and their machinery (the TOML
 * parser, validation, trust, the runner, the audit log) is not small: it is loaded only when a
 * hooks file exists, so a run without one imports none of it.
 */
import { statSync } from 'node:fs';
import { projectHooksFile, userHooksFile } from '../config/paths.js';
import type { LoadHooksOptions } from './config.js';
import type { HookRunner, HookRunnerOptions } from './runner.js';
import type { LoadedHooks } from './types.js';

/** Whether `file` may hold hooks: it exists, or it cannot be checked (then the loader reads it and
 * reports why it cannot, which stops seek: hooks fail closed). */
function mayExist(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/** `loadHooks` (hooks/config.ts), without loading it when neither hooks file exists. */
export async function loadSessionHooks(options: LoadHooksOptions): Promise<LoadedHooks> {
  if (!mayExist(projectHooksFile(options.projectRoot)) && !mayExist(userHooksFile(options.seekHome))) {
    return { hooks: [], entries: [], problems: [], notices: [], untrustedProjectHooks: false };
  }
  const { loadHooks } = await import('./config.js');
  return loadHooks(options);
}

/** `createHookRunner` (hooks/runner.ts), loaded on demand: only sessions that have hooks make one. */
export async function startHookRunner(options: HookRunnerOptions): Promise<HookRunner> {
  const { createHookRunner } = await import('./runner.js');
  return createHookRunner(options);
}
