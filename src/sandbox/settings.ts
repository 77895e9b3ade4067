import { lazySchema } from '../util/zod.js';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from './types.js';

/** `"sandbox": {...}` in ~/.seek/config.json. Only the user's own config may set it: a project
 * file cannot widen what its own commands may do. */
const sandboxSchema = lazySchema((z) =>
  z.strictObject({
    enabled: z.boolean().optional(),
    network: z.boolean().optional(),
    denyRead: z.array(z.string().min(1)).optional(),
    allowRead: z.array(z.string().min(1)).optional(),
    allowUnixSockets: z.boolean().optional(),
    allowWrite: z.array(z.string().min(1)).optional(),
    denyWrite: z.array(z.string().min(1)).optional(),
    env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')).optional(),
  }),
);

export class SandboxSettingsError extends Error {
  override readonly name = 'SandboxSettingsError';
  /** A configuration error: exit 2, like bad usage. */
  readonly exitStatus = 2;
}

/** The settings from a config object's `sandbox` field; throws SandboxSettingsError (with the
 * offending field) when it is malformed, since a guard that silently falls back is no guard. */
export function sandboxSettingsFrom(config: Readonly<Record<string, unknown>>, file: string): SandboxSettings {
  if (config.sandbox === undefined) return { ...DEFAULT_SANDBOX_SETTINGS };
  const parsed = sandboxSchema().safeParse(config.sandbox);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `sandbox.${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new SandboxSettingsError(`${file}: ${problems}`);
  }
  return { ...DEFAULT_SANDBOX_SETTINGS, ...parsed.data };
}
