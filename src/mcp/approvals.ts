import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import type { ConfiguredServer } from './config.js';

/**
 * Approval of the MCP servers a repository defines (`.mcp.json`, `.seek/mcp.json`): a server runs
 * a command (or reaches a URL) the repository chose, so it starts only once the user approved that
 * exact definition, like project hooks. Stored in `<SEEK_HOME>/mcp-approvals.json`, mode 0600:
 * `{ "version": 1, "projects": { "<abs root>": { "<server>": { "sha256", "approved_at" } } } }`.
 * Changing a definition changes its hash, so it must be approved again. User-scope servers (the
 * user's own `~/.seek/mcp.json`) need no approval.
 */
const ApprovalSchema = lazySchema((z) => z.looseObject({ sha256: z.string(), approved_at: z.string() }));
const ApprovalsFileSchema = lazySchema((z) =>
  z.looseObject({
    version: z.literal(1),
    projects: z.record(z.string(), z.record(z.string(), ApprovalSchema())),
  }),
);
type ApprovalsFile = z.infer<ReturnType<typeof ApprovalsFileSchema>>;

export const approvalsFile = (seekHome: string): string => join(seekHome, 'mcp-approvals.json');

async function readApprovals(seekHome: string): Promise<ApprovalsFile> {
  try {
    // Read before the schema is built: a missing file needs no zod (src/util/zod.ts).
    const json: unknown = JSON.parse(await readFile(approvalsFile(seekHome), 'utf8'));
    const parsed = ApprovalsFileSchema().safeParse(json);
    if (parsed.success) return parsed.data;
  } catch {
    // Missing or corrupt: nothing is approved.
  }
  return { version: 1, projects: {} };
}

export type ApprovalState = 'not-needed' | 'approved' | 'changed' | 'not-approved';

/** Whether each server may start. */
export async function approvalStates(seekHome: string, projectRoot: string, servers: readonly ConfiguredServer[]): Promise<Map<string, ApprovalState>> {
  if (servers.length === 0) return new Map();
  const approvals = (await readApprovals(seekHome)).projects[resolve(projectRoot)] ?? {};
  const states = new Map<string, ApprovalState>();
  for (const server of servers) {
    if (server.scope === 'user' || server.scope === 'editor') states.set(server.name, 'not-needed');
    else if (approvals[server.name]?.sha256 === server.hash) states.set(server.name, 'approved');
    else states.set(server.name, approvals[server.name] ? 'changed' : 'not-approved');
  }
  return states;
}

/** Records approval of these servers' current definitions (or removes them with `revoke`). */
export async function setApprovals(seekHome: string, projectRoot: string, servers: readonly ConfiguredServer[], revoke = false): Promise<void> {
  const file = await readApprovals(seekHome);
  const root = resolve(projectRoot);
  const project = { ...(file.projects[root] ?? {}) };
  for (const server of servers) {
    if (revoke) delete project[server.name];
    else project[server.name] = { sha256: server.hash, approved_at: new Date().toISOString() };
  }
  file.projects[root] = project;
  await writeFileAtomic(approvalsFile(seekHome), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}
