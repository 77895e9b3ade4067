import { readFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { mcpFiles, ServerDefinitionSchema, SERVER_NAME, type McpScope, type ServerDefinition } from './config.js';

/**
 * Adds or removes one server in an MCP config file, keeping everything else in the file (other
 * keys, other servers) as it was. Atomic; a file that is not valid JSON is refused, never replaced.
 */
async function readObject(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it first, it was left unchanged`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file} does not hold a JSON object; it was left unchanged`);
  return parsed as Record<string, unknown>;
}

export function fileForScope(scope: McpScope, projectRoot: string, seekHome: string): string {
  return mcpFiles(projectRoot, seekHome).find((entry) => entry.scope === scope)!.file;
}

export async function addServer(file: string, name: string, definition: ServerDefinition): Promise<void> {
  if (!SERVER_NAME.test(name)) throw new Error(`server name "${name}" may use only letters, digits, _ and -`);
  ServerDefinitionSchema().parse(definition);
  const object = await readObject(file);
  const servers = { ...((object.mcpServers as Record<string, unknown> | undefined) ?? {}) };
  servers[name] = definition;
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify({ ...object, mcpServers: servers }, null, 2)}\n`, { mode: 0o600 });
}

/** True when the file held the server. */
export async function removeServer(file: string, name: string): Promise<boolean> {
  const object = await readObject(file);
  const servers = { ...((object.mcpServers as Record<string, unknown> | undefined) ?? {}) };
  if (!(name in servers)) return false;
  delete servers[name];
  await writeFileAtomic(file, `${JSON.stringify({ ...object, mcpServers: servers }, null, 2)}\n`, { preserve: true });
  return true;
}
