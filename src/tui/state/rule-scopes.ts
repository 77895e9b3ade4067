import { homedir } from 'node:os';
import path from 'node:path';
import { configFile } from '../../config/paths.js';
import { localConfigFile, projectConfigFile } from '../../policy/config-rules.js';
import type { AskAnswer } from '../../policy/tool-gate.js';

/**
 * Where a permission rule can go: this session only, or one of the three config files
 * (`.seek/config.local.json` personal to this project, `.seek/config.json` shared with the
 * project, `~/.seek/config.json` for every project). The approval prompt's "always" step and the
 * `/permissions` panel offer the same choices, with the same keys and words.
 */
export type RuleScope = 'session' | 'local' | 'project' | 'user';

/** The config files as shown to the user: project files relative to the project, the user's
 * file with `~` for the home directory. */
export interface SaveFiles {
  local: string;
  project: string;
  user: string;
}

export const DEFAULT_SAVE_FILES: SaveFiles = { local: '.seek/config.local.json', project: '.seek/config.json', user: '~/.seek/config.json' };

export function saveFilesOf(seekHome: string, projectRoot: string, home: string = homedir()): SaveFiles {
  return {
    local: displayPath(localConfigFile(projectRoot), projectRoot, home),
    project: displayPath(projectConfigFile(projectRoot), projectRoot, home),
    user: displayPath(configFile(seekHome), projectRoot, home),
  };
}

/** A file inside the project relative to it, one under the home directory as `~/…`, else whole. */
export function displayPath(file: string, projectRoot: string, home: string = homedir()): string {
  const inside = (base: string) => {
    const relative = path.relative(base, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : undefined;
  };
  const inProject = inside(projectRoot);
  if (inProject !== undefined) return inProject;
  const inHome = home ? inside(home) : undefined;
  return inHome !== undefined ? `~/${inHome}` : file;
}

export interface ScopeChoice {
  scope: RuleScope;
  /** The letter that picks it (the session choice also takes `s`, see `scopeByKey`). */
  key: string;
  label: string;
  /** The file it saves to (display form); absent for the session. */
  file?: string;
  /** Said after the file: who sees the rule. */
  note?: string;
}

export function scopeChoices(files: SaveFiles, sessionKey = 's'): ScopeChoice[] {
  return [
    { scope: 'session', key: sessionKey, label: 'this session only' },
    { scope: 'local', key: 'l', label: 'this project, only me', file: files.local, note: 'kept out of git' },
    { scope: 'project', key: 'p', label: 'this project, everyone', file: files.project, note: 'commit it to share' },
    { scope: 'user', key: 'u', label: 'me, in every project', file: files.user },
  ];
}

/** The choice a plain letter picks (`s` always means the session). */
export function scopeByKey(choices: readonly ScopeChoice[], letter: string): ScopeChoice | undefined {
  const lower = letter.toLowerCase();
  return choices.find((choice) => choice.key === lower) ?? (lower === 's' ? choices.find((choice) => choice.scope === 'session') : undefined);
}

/** The permission prompt's answer for an "always" saved to `scope`. */
export function alwaysAnswer(scope: RuleScope): AskAnswer {
  return scope === 'session' ? 'always' : `always-${scope}`;
}

/** One row of a scope list: `l) this project, only me — .seek/config.local.json (kept out of git)`. */
export function scopeRowText(choice: ScopeChoice, labelWidth = 0): string {
  const where = choice.file ? ` — ${choice.file}${choice.note ? ` (${choice.note})` : ''}` : '';
  return `${choice.key}) ${where ? choice.label.padEnd(labelWidth) : choice.label}${where}`;
}
