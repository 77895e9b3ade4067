/**
 * Which language servers a session may start, from the built-in list and config.json's `lsp`:
 *
 *   "lsp": false                                   no language servers at all
 *   "lsp": {"gopls": false}                        one built-in turned off
 *   "lsp": {"ruff": {"command": ["ruff", "server"], "extensions": ["py"]}}   added (or replacing a built-in)
 *   "lsp": {"warnings": true, "wait_ms": 4000}     settings: warnings in edit results, the wait budget
 */

export interface ServerSpec {
  name: string;
  /** Program and arguments; the program is looked up on PATH (or taken as a path). */
  command: string[];
  /** File extensions without the dot, lower case. */
  extensions: string[];
  /** Sent as initializationOptions. */
  initializationOptions?: Record<string, unknown>;
  /** Built-in: skipped quietly when its program is not found. */
  builtin: boolean;
}

export interface LspSettings {
  enabled: boolean;
  servers: ServerSpec[];
  /** Warnings (severity 2) in edit results, not only errors. */
  warnings: boolean;
  /** How long an edit's result waits for diagnostics. */
  waitMs: number;
  /** At most this many diagnostics listed per result. */
  maxItems: number;
  /** Problems with the `lsp` setting, for the user. */
  problems: string[];
}

export const DEFAULT_WAIT_MS = 3000;
const SETTING_KEYS = new Set(['warnings', 'wait_ms', 'max_items']);

export const BUILTIN_SERVERS: readonly ServerSpec[] = [
  { name: 'typescript', command: ['typescript-language-server', '--stdio'], extensions: ['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'mts', 'cts'], builtin: true },
  { name: 'pyright', command: ['pyright-langserver', '--stdio'], extensions: ['py', 'pyi'], builtin: true },
  { name: 'gopls', command: ['gopls'], extensions: ['go'], builtin: true },
  { name: 'rust-analyzer', command: ['rust-analyzer'], extensions: ['rs'], builtin: true },
  { name: 'clangd', command: ['clangd'], extensions: ['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx'], builtin: true },
];

/** The LSP language id of a file extension (what didOpen sends). */
export function languageIdOf(extension: string): string {
  const ids: Record<string, string> = {
    ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescriptreact',
    js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascriptreact',
    py: 'python', pyi: 'python', go: 'go', rs: 'rust', c: 'c', h: 'c',
  };
  return ids[extension] ?? (['cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx'].includes(extension) ? 'cpp' : extension);
}

/** Settings from config.json's `lsp` value (absent: the built-ins, errors only). Never throws:
 * a bad entry is left out and said in `problems`. */
export function lspSettingsFrom(value: unknown): LspSettings {
  const settings: LspSettings = { enabled: true, servers: [...BUILTIN_SERVERS], warnings: false, waitMs: DEFAULT_WAIT_MS, maxItems: 20, problems: [] };
  if (value === undefined || value === true) return settings;
  if (value === false) return { ...settings, enabled: false, servers: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    settings.problems.push('config.json: "lsp" must be false or an object of servers; the built-in servers are used');
    return settings;
  }
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    if (SETTING_KEYS.has(name)) applySetting(settings, name, entry);
    else applyServer(settings, name, entry);
  }
  return settings;
}

function applySetting(settings: LspSettings, name: string, entry: unknown): void {
  if (name === 'warnings') {
    if (typeof entry === 'boolean') settings.warnings = entry;
    else settings.problems.push('config.json: lsp.warnings must be true or false');
    return;
  }
  if (typeof entry !== 'number' || !Number.isFinite(entry) || entry < 0) {
    settings.problems.push(`config.json: lsp.${name} must be a number of at least 0`);
    return;
  }
  if (name === 'wait_ms') settings.waitMs = entry;
  else settings.maxItems = Math.max(1, Math.floor(entry));
}

function applyServer(settings: LspSettings, name: string, entry: unknown): void {
  const others = settings.servers.filter((server) => server.name !== name);
  if (entry === false) {
    settings.servers = others;
    return;
  }
  const spec = entry as { command?: unknown; extensions?: unknown; initializationOptions?: unknown } | null;
  const command = spec?.command;
  const extensions = spec?.extensions;
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.length > 0 && list.every((item) => typeof item === 'string' && item !== '');
  if (typeof spec !== 'object' || spec === null || !strings(command) || !strings(extensions)) {
    settings.problems.push(`config.json: lsp.${name} must be false or {"command": ["program", "args"…], "extensions": ["ts", …]}; it is left out`);
    return;
  }
  const options = spec?.initializationOptions;
  settings.servers = [
    {
      name,
      command,
      extensions: extensions.map((ext) => ext.replace(/^\./, '').toLowerCase()),
      ...(typeof options === 'object' && options !== null ? { initializationOptions: options as Record<string, unknown> } : {}),
      builtin: false,
    },
    ...others,
  ];
}
