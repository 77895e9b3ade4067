import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { readConfigFile } from '../util/trusted-read.js';

/**
 * MCP server definitions, in Claude Code's `.mcp.json` format:
 * `{ "mcpServers": { "<name>": { "command", "args"?, "env"?, "cwd"? } | { "type": "http" | "sse", "url", "headers"? } } }`.
 * seek adds per-server `timeout_ms` (one call), `startup_timeout_ms` and `disabled`, and for remote
 * servers `oauth: { client_id, client_secret? }` (a pre-registered OAuth client). Strings may use
 * `${VAR}` and `${VAR:-default}`, expanded from seek's environment when the server starts (so keys
 * stay out of the file). Three files, the first holding a name wins:
 * `<root>/.seek/mcp.json` (local), `<root>/.mcp.json` (project, shared) and `~/.seek/mcp.json` (user).
 * The two in the project come with the repository, so their servers start only once approved.
 */

const common = lazySchema((z) => ({
  timeout_ms: z.number().int().positive().optional(),
  startup_timeout_ms: z.number().int().positive().optional(),
  disabled: z.boolean().optional(),
}));

const StdioServerSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    ...common(),
  }),
);

/** A client registered with the server's authorization server beforehand, for servers that do not
 * offer dynamic client registration. Without a secret it is a public client (PKCE only).
 * `callback_port`: the port of the redirect URI it was registered with,
 * `http://127.0.0.1:<port>/callback` (else the login listens on any free port). */
const PreRegisteredClientSchema = lazySchema((z) =>
  z.object({
    client_id: z.string().min(1),
    client_secret: z.string().min(1).optional(),
    callback_port: z.number().int().min(1).max(65535).optional(),
  }),
);

const RemoteServerSchema = lazySchema((z) =>
  z.looseObject({
    type: z.enum(['http', 'sse', 'streamable-http']),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).optional(),
    oauth: PreRegisteredClientSchema().optional(),
    ...common(),
  }),
);

export const ServerDefinitionSchema = lazySchema((z) => z.union([StdioServerSchema(), RemoteServerSchema()]));
export type ServerDefinition = z.infer<ReturnType<typeof ServerDefinitionSchema>>;
export type StdioDefinition = z.infer<ReturnType<typeof StdioServerSchema>>;
export type RemoteDefinition = z.infer<ReturnType<typeof RemoteServerSchema>>;

const McpFileSchema = lazySchema((z) => z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).default({}) }));

/** `editor`: a server the editor passed to `seek acp` for its session (the user's own, like `user`). */
export type McpScope = 'local' | 'project' | 'user' | 'editor';

export interface ConfiguredServer {
  name: string;
  scope: McpScope;
  /** The file it came from. */
  file: string;
  definition: ServerDefinition;
  /** sha256 of the definition as written (approval is for exactly this). */
  hash: string;
}

/** A server whose transport seek does not speak (`"type": "websocket"`): listed, never started. */
export interface UnsupportedServer {
  name: string;
  scope: McpScope;
  file: string;
  /** Why, in one phrase: `"type": "websocket" is not supported (seek connects over stdio, http and sse)`. */
  reason: string;
}

export interface McpConfig {
  servers: ConfiguredServer[];
  unsupported: UnsupportedServer[];
  /** Files or entries that could not be used, for notices. */
  problems: string[];
}

/** A server name as it appears in tool names (`mcp__<name>__<tool>`): letters, digits, `_`, `-`. */
export const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

export function mcpFiles(projectRoot: string, seekHome: string): Array<{ scope: McpScope; file: string }> {
  return [
    { scope: 'local', file: join(projectRoot, '.seek', 'mcp.json') },
    { scope: 'project', file: join(projectRoot, '.mcp.json') },
    { scope: 'user', file: join(seekHome, 'mcp.json') },
  ];
}

export function definitionHash(definition: unknown): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Reads the three files. A missing file is fine; a broken one or a bad entry is a problem, not a failure. */
export async function loadMcpConfig(projectRoot: string, seekHome: string): Promise<McpConfig> {
  const servers: ConfiguredServer[] = [];
  const unsupported: UnsupportedServer[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { scope, file } of mcpFiles(projectRoot, seekHome)) {
    // Read under the read policy (util/trusted-read.ts): a project's file must lie inside the
    // project, the user's inside SEEK_HOME; a link elsewhere is refused without quoting its target.
    const within = scope === 'user' ? seekHome : projectRoot;
    const read = await readConfigFile(file, [within], scope === 'user' ? `your seek folder (${seekHome})` : `the project (${projectRoot})`);
    if ('missing' in read) continue;
    if ('refused' in read) {
      problems.push(`${read.refused}; its MCP servers are ignored`);
      continue;
    }
    const text = read.bytes.toString('utf8');
    let parsed;
    try {
      parsed = McpFileSchema().safeParse(JSON.parse(text));
    } catch (error) {
      problems.push(`${file} is not valid JSON (${(error as Error).message}); its MCP servers are ignored`);
      continue;
    }
    if (!parsed.success) {
      problems.push(`${file}: "mcpServers" must be an object of servers; the file is ignored`);
      continue;
    }
    for (const [name, raw] of Object.entries(parsed.data.mcpServers)) {
      if (!SERVER_NAME.test(name)) {
        problems.push(`${file}: server name "${name}" may use only letters, digits, _ and -; it is ignored`);
        continue;
      }
      const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && !KNOWN_TYPES.includes(type)) {
        // Claude Code's other transports (websocket): listed with why, so it is not silently missing.
        if (seen.has(name)) continue;
        seen.add(name);
        const reason = `"type": "${type}" is not supported (seek connects over stdio, http and sse)`;
        unsupported.push({ name, scope, file, reason });
        problems.push(`${file}: server "${name}": ${reason}; it is not started`);
        continue;
      }
      const definition = ServerDefinitionSchema().safeParse(raw);
      if (!definition.success) {
        problems.push(`${file}: server "${name}" needs "command" (stdio) or "type": "http"/"sse" with "url"; it is ignored`);
        continue;
      }
      if (seen.has(name)) continue; // a more specific file already defines it
      seen.add(name);
      servers.push({ name, scope, file, definition: definition.data, hash: definitionHash(raw) });
    }
  }
  return { servers, unsupported, problems };
}

/** The `type` values a definition may carry. */
const KNOWN_TYPES: readonly string[] = ['stdio', 'http', 'sse', 'streamable-http'];

/** `${VAR}` and `${VAR:-default}` from `env`; an unset variable without a default is reported. */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

export function isRemote(definition: ServerDefinition): definition is RemoteDefinition {
  return 'url' in definition && typeof definition.url === 'string' && !('command' in definition && typeof definition.command === 'string');
}
