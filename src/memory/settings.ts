/**
 * Memory settings: the `memory` object of `~/.seek/config.json`, overridden by environment
 * variables. Bad values are reported and replaced by the default, never fatal.
 *
 * ```json
 * { "memory": { "enabled": true, "half_life_days": 30, "max_observations": 10, "auto_dream_after_sessions": 0 } }
 * ```
 */
import { DEFAULT_HALF_LIFE_DAYS } from './decay.js';

export interface MemorySettings {
  /** false: no injection, no memory tools (`SEEK_MEMORY=0`). */
  enabled: boolean;
  halfLifeDays: number;
  /** memory_observe calls accepted per session. */
  maxObservations: number;
  /** How long one background observation check may take. */
  observeTimeoutMs: number;
  /** Dream automatically after this many sessions; 0 = never (the default). */
  autoDreamAfterSessions: number;
}

export const DEFAULT_MEMORY_SETTINGS: Readonly<MemorySettings> = Object.freeze({
  enabled: true,
  halfLifeDays: DEFAULT_HALF_LIFE_DAYS,
  maxObservations: 10,
  observeTimeoutMs: 30_000,
  autoDreamAfterSessions: 0,
});

type Env = Readonly<Record<string, string | undefined>>;

export function memorySettings(config: Readonly<Record<string, unknown>>, env: Env): { settings: MemorySettings; notices: string[] } {
  const notices: string[] = [];
  const section = typeof config.memory === 'object' && config.memory !== null ? (config.memory as Record<string, unknown>) : {};
  const number = (envName: string, key: string, fallback: number, valid: (n: number) => boolean, rule: string): number => {
    const raw = env[envName];
    if (raw !== undefined && raw.trim() !== '') {
      const value = Number(raw);
      if (Number.isFinite(value) && valid(value)) return value;
      notices.push(`${envName}=${raw} is not ${rule}; using ${fallback}`);
      return fallback;
    }
    const value = section[key];
    if (value === undefined) return fallback;
    if (typeof value === 'number' && valid(value)) return value;
    notices.push(`config.json memory.${key} is not ${rule}; using ${fallback}`);
    return fallback;
  };
  const enabledRaw = env.SEEK_MEMORY;
  const enabled = enabledRaw !== undefined && enabledRaw.trim() !== '' ? !/^(0|false|off|no)$/i.test(enabledRaw.trim()) : section.enabled !== false;
  return {
    settings: {
      enabled,
      halfLifeDays: number('SEEK_MEMORY_HALFLIFE_DAYS', 'half_life_days', DEFAULT_MEMORY_SETTINGS.halfLifeDays, (n) => n > 0, 'a number above 0'),
      maxObservations: number('SEEK_OBSERVE_MAX', 'max_observations', DEFAULT_MEMORY_SETTINGS.maxObservations, (n) => Number.isInteger(n) && n >= 0, 'a whole number'),
      observeTimeoutMs: number('SEEK_OBSERVE_TIMEOUT_MS', 'observe_timeout_ms', DEFAULT_MEMORY_SETTINGS.observeTimeoutMs, (n) => n > 0, 'a number above 0'),
      autoDreamAfterSessions: number(
        'SEEK_AUTO_DREAM_SESSIONS',
        'auto_dream_after_sessions',
        DEFAULT_MEMORY_SETTINGS.autoDreamAfterSessions,
        (n) => Number.isInteger(n) && n >= 0,
        'a whole number (0 = off)',
      ),
    },
    notices,
  };
}
