import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import { resolveProject, seekHome, subagentIndexFile } from '../../config/paths.js';
import { formatTokens } from '../../cost/format.js';
import { findSession } from '../../session/list.js';
import { appendSubagentEvent, isProcessAlive, readSubagentIndex, recoverOrphans } from '../../subagents/index-log.js';
import { requestKill } from '../../subagents/kill-requests.js';
import { promoteSubagent } from '../../subagents/promote.js';
import type { SubagentRecord } from '../../subagents/types.js';
import { processIO, type CommandIO } from '../command-io.js';
import { formatAge } from '../../util/age.js';

/** Where the command reads and writes; tests replace it. */
export interface SubagentCommandIO extends CommandIO {
  /** Runs the root command (`seek --resume …`) and returns its exit status. */
  runRoot(argv: string[]): Promise<number>;
}

const defaultIO: SubagentCommandIO = {
  ...processIO,
  runRoot: async (argv) => (await import('../root.js')).runRootCommand(argv),
};

/** How long `kill` waits for the child's process to record the kill. `SEEK_SUBAGENT_KILL_WAIT_MS`
 * overrides it (documented in the README; tests shorten it). */
const DEFAULT_KILL_WAIT_MS = 10_000;
const KILL_POLL_MS = 100;
const LIST_WIDTH = 100;
const MIN_DESCRIPTION_WIDTH = 12;

const STATUS_FILTERS = ['active', 'completed', 'failed', 'killed', 'orphaned', 'promoted', 'all'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

/** `--status failed` means "did not complete": failed, killed and orphaned. */
function matchesStatus(record: SubagentRecord, filter: StatusFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'failed') return record.status === 'failed' || record.status === 'killed' || record.status === 'orphaned';
  return record.status === filter;
}

/**
 * `seek subagent list [--parent SID] [--status S] [--json] | kill SUB-SID | resume SUB-SID [seek flags]`
 * for the project of the working directory. Exit 0 on success, 1 on problems, 2 on bad usage.
 */
export function createSubagentCommand(io: SubagentCommandIO = defaultIO): Command {
  const project = (): { home: string; pid: string } => {
    const home = seekHome(io.env);
    return { home, pid: resolveProject(io.cwd(), home).pid };
  };
  const fail = (message: string): void => {
    io.err(`seek: ${message}\n`);
    io.setExitCode(1);
  };

  const command = new Command('subagent')
    .description('subagents of this project: list, kill a running one, promote one to a session')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  command
    .command('list')
    .description('this project\'s subagents, newest first (dead ones are marked orphaned first)')
    .option('--parent <sid>', 'only children of this session (or parent subagent)')
    .addOption(new Option('--status <status>', 'only these (failed = failed, killed or orphaned)').choices([...STATUS_FILTERS]).default('all'))
    .option('--json', 'print the records as JSON')
    .action(async (opts: { parent?: string; status: StatusFilter; json?: boolean }) => {
      const { home, pid } = project();
      await recoverOrphans(home, pid);
      const { records, skippedLines } = await readSubagentIndex(home, pid);
      if (skippedLines > 0) io.err(`seek: skipped ${skippedLines} unreadable line(s) in ${subagentIndexFile(home, pid)}\n`);
      const parent = opts.parent;
      const shown = records.filter(
        (r) => matchesStatus(r, opts.status) && (parent === undefined || r.parent_sid.startsWith(parent) || (r.parent_sub_sid ?? '').startsWith(parent)),
      );
      if (opts.json) {
        io.out(`${JSON.stringify(shown, null, 2)}\n`);
      } else if (records.length === 0) {
        io.out('no subagents in this project\n');
      } else if (shown.length === 0) {
        io.out(`no subagents match the filter (${records.length} in this project)\n`);
      } else {
        io.out(`${listTable(shown, new Date())}\n`);
      }
    });

  command
    .command('kill')
    .description('stop a running subagent (its seek process may run in another terminal)')
    .argument('<sub-sid>', 'a sub-sid, or a unique start or end of one')
    .action(async (query: string) => {
      const { home, pid } = project();
      const { records } = await readSubagentIndex(home, pid);
      const resolved = resolve(records, query);
      if ('error' in resolved) return fail(resolved.error);
      const found = resolved.record;
      if (found.status !== 'active') return fail(`subagent ${found.sub_sid} is not running (${statusText(found)})`);
      const local = found.host === hostname() && found.pid > 0;
      const current = async (): Promise<SubagentRecord | undefined> =>
        (await readSubagentIndex(home, pid)).records.find((r) => r.sub_sid === found.sub_sid);
      /** Reports an end recorded meanwhile, or orphans a child whose process died without one.
       * The index is read after the process check, so an end written just before exit is seen. */
      const settled = async (): Promise<boolean> => {
        const gone = local && !isProcessAlive(found.pid);
        const now = await current();
        if (now && now.status !== 'active') {
          io.out(now.status === 'killed' ? `killed ${found.sub_sid}\n` : `subagent ${found.sub_sid} ended before the kill took effect (${statusText(now)})\n`);
          return true;
        }
        if (gone) markOrphaned(home, pid, found);
        return gone;
      };
      if (local && !isProcessAlive(found.pid) && (await settled())) return;
      try {
        requestKill(home, pid, found.parent_sid, found.sub_sid);
      } catch (error) {
        return fail(`could not write the kill request for ${found.sub_sid}: ${(error as Error).message}`);
      }
      const waitMs = killWaitMs(io.env);
      const deadline = Date.now() + waitMs;
      while (!(await settled())) {
        if (Date.now() >= deadline) {
          const who = local ? `its seek process ${found.pid}` : `its seek process (pid ${found.pid || '?'} on ${found.host || 'an unknown host'})`;
          return fail(`kill requested, but subagent ${found.sub_sid} is still running after ${waitMs} ms; ${who} has not acted on it yet (the request stays in place)`);
        }
        await new Promise((done) => setTimeout(done, KILL_POLL_MS));
      }
    });

  command
    .command('resume')
    .description('promote a subagent\'s transcript to a new top-level session and continue it (seek flags such as -p PROMPT pass through)')
    .argument('<sub-sid>', 'a sub-sid, or a unique start or end of one')
    .argument('[seek-args...]', 'flags for the resumed session, as for `seek --resume`')
    .allowUnknownOption()
    .action(async (query: string, rest: string[]) => {
      const { home, pid } = project();
      let subSid: string;
      let sessionId: string;
      try {
        await recoverOrphans(home, pid);
        const { records } = await readSubagentIndex(home, pid);
        const resolved = resolve(records, query);
        if ('record' in resolved) subSid = resolved.record.sub_sid;
        else if (resolved.missing) subSid = await subagentFromSessions(home, pid, query, resolved.error);
        else return fail(resolved.error);
        const record = records.find((r) => r.sub_sid === subSid);
        if (record?.status === 'promoted' && record.promoted_to !== undefined) {
          sessionId = record.promoted_to;
          io.err(`subagent ${subSid} was already promoted to session ${sessionId}; resuming that session\n`);
        } else {
          sessionId = (await promoteSubagent(home, pid, subSid, { onProblem: (m) => io.err(`seek: ${m}\n`) })).sessionId;
          io.err(`promoted ${subSid} to session ${sessionId}\n`);
        }
      } catch (error) {
        return fail((error as Error).message);
      }
      io.setExitCode(await io.runRoot(['--resume', sessionId, ...rest]));
    });

  /** A gone process cannot act on a request: record the end for it. */
  const markOrphaned = (home: string, pid: string, record: SubagentRecord): void => {
    appendSubagentEvent(home, pid, { event: 'orphaned', sub_sid: record.sub_sid, ts: new Date().toISOString() }, (m) => io.err(`seek: ${m}\n`));
    fail(`subagent ${record.sub_sid} was no longer running (its seek process ${record.pid} is gone); marked orphaned`);
  };

  return command;
}

/** A sub-sid from the session files when the index does not know it (an index lost or written
 * elsewhere); a top-level session id is refused with a pointer to `seek --resume`. */
async function subagentFromSessions(home: string, pid: string, query: string, notFound: string): Promise<string> {
  const ref = await findSession(home, pid, query).catch(() => undefined);
  if (!ref) throw new Error(notFound);
  if (ref.kind === 'session') throw new Error(`${ref.id} is a top-level session, not a subagent; continue it with: seek --resume ${ref.id}`);
  return ref.id;
}

type Resolved = { record: SubagentRecord } | { error: string; missing: boolean };

/** The record a user means: an exact sub-sid, else the one sub-sid that starts or ends with the
 * query (the short id is the end). `error` is the message for the user. */
function resolve(records: readonly SubagentRecord[], query: string): Resolved {
  const q = query.trim();
  if (q === '') return { error: 'no sub-sid given; run seek subagent list to see this project\'s subagents', missing: true };
  const exact = records.find((r) => r.sub_sid === q);
  if (exact) return { record: exact };
  const matches = records.filter((r) => r.sub_sid.startsWith(q) || r.sub_sid.endsWith(q));
  const [only] = matches;
  if (only && matches.length === 1) return { record: only };
  if (matches.length === 0) return { error: `no subagent "${q}" in this project; run seek subagent list to see them`, missing: true };
  const shown = matches.slice(0, 5).map((r) => r.sub_sid).join(', ');
  return { error: `sub-sid "${q}" is ambiguous: it matches ${shown}${matches.length > 5 ? ', …' : ''}; type more of it`, missing: false };
}

function killWaitMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.SEEK_SUBAGENT_KILL_WAIT_MS);
  return env.SEEK_SUBAGENT_KILL_WAIT_MS !== undefined && Number.isFinite(value) && value >= 0 ? value : DEFAULT_KILL_WAIT_MS;
}

/** `failed (timeout)`; the reason is left out where it repeats the status (`killed`). */
function statusText(record: SubagentRecord): string {
  return record.reason !== undefined && record.reason !== record.status ? `${record.status} (${record.reason})` : record.status;
}

/** Rows padded into columns; the description gets what is left of 100 columns (at least 12). */
function listTable(records: readonly SubagentRecord[], now: Date): string {
  const rows = [['ID', 'SUB-SID', 'TYPE', 'STATUS', 'TURNS', 'TOKENS', 'AGE']];
  for (const r of records) {
    rows.push([
      r.sub_sid.slice(r.sub_sid.lastIndexOf('-') + 1),
      r.sub_sid,
      r.type,
      statusText(r),
      r.turns === undefined ? '-' : String(r.turns),
      r.tokens === undefined ? '-' : formatTokens(r.tokens.prompt + r.tokens.completion),
      formatAge(r.started_at, now),
    ]);
  }
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length)));
  const used = widths.reduce((sum, w) => sum + w + 2, 0);
  const room = Math.max(MIN_DESCRIPTION_WIDTH, LIST_WIDTH - used);
  const descriptions = ['DESCRIPTION', ...records.map((r) => cut(r.description.replace(/\s+/g, ' ').trim(), room))];
  return rows.map((row, i) => [...row.map((cell, col) => cell.padEnd(widths[col]!)), descriptions[i]].join('  ').trimEnd()).join('\n');
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1).trimEnd()}…`;
}
