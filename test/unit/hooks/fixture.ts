import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A temp SEEK_HOME and a temp project root (real directories, removed by `cleanup`). */
export interface HookFixture {
  base: string;
  home: string;
  project: string;
  writeUserHooks(toml: string): void;
  writeProjectHooks(toml: string): void;
  readAuditLines(): Record<string, unknown>[];
  cleanup(): void;
}

export function hookFixture(): HookFixture {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'seek-hooks-')));
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(project, '.seek'), { recursive: true });
  return {
    base,
    home,
    project,
    writeUserHooks: (toml) => writeFileSync(path.join(home, 'hooks.toml'), toml),
    writeProjectHooks: (toml) => writeFileSync(path.join(project, '.seek', 'hooks.toml'), toml),
    readAuditLines: () => {
      try {
        return readFileSync(path.join(home, 'hooks-audit.jsonl'), 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      } catch {
        return [];
      }
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export const RUNNER_ENV = { sessionId: 'sess-1', projectId: '0123456789abcdef', version: '9.9.9' };
