import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { checkCovered, coveredHashes, type CommandLine, type CoverageChange, type CoveredPin } from '../util/covered-files.js';
import { isRemote, type ConfiguredServer } from './config.js';

/**
 * Approval of the MCP servers a repository defines (`.mcp.json`, `.seek/mcp.json`): a server runs
 * a command (or reaches a URL) the repository chose, so it starts only once the user approved that
 * exact definition, like project hooks. Stored in `<SEEK_HOME>/mcp-approvals.json`, mode 0600:
 * `{ "version": 1, "projects": { "<abs root>": { "<server>": { "sha256", "approved_at", "files" } } } }`.
 * `sha256` covers the definition (command, args, env, cwd, URL, headers…); `files` the content of
 * what a stdio server's command line runs inside the project (src/util/covered-files.ts: the
 * script in its args, the package.json scripts entry of `npm run X`, a Makefile…): record key →
 * sha256. Changing the definition or any of those files asks again. An approval recorded before
 * files were covered has no `files`: a server whose command names project files then needs
 * approving again. User-scope servers (the user's own `~/.seek/mcp.json`) need no approval.
 */
const ApprovalSchema = lazySchema((z) => z.looseObject({ sha256: z.string(), approved_at: z.string(), files: z.record(z.string(), z.string()).optional() }));
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

/** Whether a server may start, and for an approved server the files to check again before each
 * start; for a `changed` one, why (`file changed since approved: tools/mcp-server.js`). */
export interface ApprovalDetail {
  state: ApprovalState;
  reason?: string;
  pinned?: CoveredPin[];
}

/** The command line of a stdio server and where it runs (its `cwd`, else the project root), or
 * undefined for a remote server. `${VAR}` words are left as they are (covered-files skips them). */
export function serverCommand(server: ConfiguredServer, projectRoot: string): { command: CommandLine; cwd: string } | undefined {
  const definition = server.definition;
  if (isRemote(definition) || !('command' in definition)) return undefined;
  const cwd = definition.cwd && !definition.cwd.includes('$') ? resolve(projectRoot, definition.cwd) : resolve(projectRoot);
  return { command: { argv: [definition.command, ...(definition.args ?? [])] }, cwd };
}

const CHANGES: Record<CoverageChange, string> = {
  uncovered: 'file not covered by the approval',
  removed: 'file removed since approved',
  changed: 'file changed since approved',
};

/** The sentence for a covered item that no longer matches its approval. */
export function coverageReason(change: CoverageChange, key: string): string {
  return `${CHANGES[change]}: ${key}`;
}

/** Whether each server may start, with the reason when its approval no longer holds. */
export async function approvalDetails(seekHome: string, projectRoot: string, servers: readonly ConfiguredServer[]): Promise<Map<string, ApprovalDetail>> {
  if (servers.length === 0) return new Map();
  const approvals = (await readApprovals(seekHome)).projects[resolve(projectRoot)] ?? {};
  const details = new Map<string, ApprovalDetail>();
  for (const server of servers) {
    const approval = approvals[server.name];
    if (server.scope === 'user' || server.scope === 'editor') details.set(server.name, { state: 'not-needed' });
    else if (!approval) details.set(server.name, { state: 'not-approved' });
    else if (approval.sha256 !== server.hash) details.set(server.name, { state: 'changed', reason: 'definition changed since approved' });
    else {
      const run = serverCommand(server, projectRoot);
      const check = run ? await checkCovered(run.command, projectRoot, approval.files ?? {}, { cwd: run.cwd }) : { ok: true as const, pinned: [] };
      details.set(server.name, check.ok ? { state: 'approved', pinned: check.pinned } : { state: 'changed', reason: coverageReason(check.change, check.key) });
    }
  }
  return details;
}

/** Whether each server may start. */
export async function approvalStates(seekHome: string, projectRoot: string, servers: readonly ConfiguredServer[]): Promise<Map<string, ApprovalState>> {
  return new Map([...(await approvalDetails(seekHome, projectRoot, servers))].map(([name, detail]) => [name, detail.state]));
}

/** What an approval of this server covers besides its definition, as it is now: record key → sha256. */
export async function approvedFiles(server: ConfiguredServer, projectRoot: string): Promise<Record<string, string>> {
  const run = serverCommand(server, projectRoot);
  return run ? coveredHashes(run.command, projectRoot, { cwd: run.cwd }) : {};
}

/** Records approval of these servers' current definitions and of the files they run (or removes
 * them with `revoke`). */
export async function setApprovals(seekHome: string, projectRoot: string, servers: readonly ConfiguredServer[], revoke = false): Promise<void> {
  const file = await readApprovals(seekHome);
  const root = resolve(projectRoot);
  const project = { ...(file.projects[root] ?? {}) };
  for (const server of servers) {
    if (revoke) delete project[server.name];
    else project[server.name] = { sha256: server.hash, approved_at: new Date().toISOString(), files: await approvedFiles(server, projectRoot) };
  }
  file.projects[root] = project;
  await writeFileAtomic(approvalsFile(seekHome), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}
