import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { findProjectRoot, projectHooksFile, seekHome, userHooksFile } from '../../config/paths.js';
import { parseDuration, readAudit } from '../../hooks/audit.js';
import { loadHooks } from '../../hooks/config.js';
import { checkSyntax } from '../../hooks/exec.js';
import { describeMatcher, parseMatcher } from '../../hooks/matcher.js';
import { fatalProblems, formatProblem, HOOKS_CONFIG_EXIT_STATUS } from '../../hooks/problems.js';
import { canonicalToolName } from '../../tools/tool-names.js';
import { resetTrust, trustProject } from '../../hooks/trust.js';
import { HOOK_EVENTS, matchesTool, type HookEntry, type LoadedHooks } from '../../hooks/types.js';
import { processIO, type CommandIO } from '../command-io.js';

/** Where the command reads and writes; tests replace it. */
export type HooksCommandIO = CommandIO;

const defaultIO = processIO;

/** Pads columns of a small table; the last column is left unpadded. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  return rows
    .map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  ').trimEnd())
    .join('\n');
}

function statusText(entry: HookEntry): string {
  if (entry.status.state === 'skipped') return `[skipped: ${entry.status.reason}]`;
  if (entry.status.state === 'untrusted') return `untrusted (${entry.status.reason})`;
  return entry.status.state;
}

function trustLine(loaded: LoadedHooks): string {
  const file = loaded.projectFile;
  if (!file) return '';
  if (file.trusted) {
    const scripts = loaded.entries.filter((e) => e.hook.source === 'project' && e.status.state === 'untrusted').length;
    return scripts === 0 ? 'trusted' : `trusted, but ${scripts} hook(s) name files changed since — run \`seek hooks trust\``;
  }
  return file.changed ? 'changed since trusted — run `seek hooks trust`' : 'NOT trusted — run `seek hooks trust`';
}

/**
 * `seek hooks list | check [--event E] [--tool T] | trust [--reset] | audit [--since D] [--tool T] [--denied]`.
 * Project root: the git top level of the cwd, else the cwd; SEEK_HOME else ~/.seek.
 * Exit 0 on success, 1 on problems (failing syntax, nothing to trust), 2 on bad usage and on a
 * hooks file that cannot be read, parsed or validated (the status seek itself stops with then).
 */
export function createHooksCommand(io: HooksCommandIO = defaultIO): Command {
  const home = (): string => seekHome(io.env);
  const root = (): string => findProjectRoot(io.cwd());
  /** Prints every problem; exit 2 when a file is unusable (seek would not start), else 1 if any. */
  const reportProblems = (loaded: LoadedHooks, failed: boolean): void => {
    for (const p of loaded.problems) io.err(`${formatProblem(p)}\n`);
    if (fatalProblems(loaded).length > 0) {
      io.err('seek will not start until the hooks file is fixed\n');
      io.setExitCode(HOOKS_CONFIG_EXIT_STATUS);
    } else if (failed || loaded.problems.length > 0) {
      io.setExitCode(1);
    }
  };

  const command = new Command('hooks')
    .description('shell hooks: list, check, trust project hooks, read the audit log')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  command
    .command('list')
    .description('every hook with its source, event, match, timeout and status')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const projectRoot = root();
      const loaded = await loadHooks({ seekHome: home(), projectRoot });
      if (opts.json) {
        io.out(`${JSON.stringify({ project_root: projectRoot, project_file: loaded.projectFile ?? null, entries: loaded.entries, problems: loaded.problems }, null, 2)}\n`);
      } else {
        const projectFile = projectHooksFile(projectRoot);
        const userFile = userHooksFile(home());
        io.out(`project  ${projectFile}${existsSync(projectFile) ? `  (${trustLine(loaded)})` : '  (none)'}\n`);
        io.out(`user     ${userFile}${existsSync(userFile) ? '' : '  (none)'}\n\n`);
        if (loaded.entries.length === 0) {
          io.out('no hooks declared\n');
        } else {
          const rows = [['EVENT', 'NAME', 'SOURCE', 'MATCH', 'TIMEOUT', 'STATUS']];
          for (const e of loaded.entries) {
            rows.push([e.hook.event, e.hook.name, e.hook.source, describeMatcher(e.hook.tool), `${e.hook.timeoutMs}ms`, statusText(e)]);
          }
          io.out(`${table(rows)}\n`);
        }
      }
      reportProblems(loaded, loaded.entries.some((e) => e.status.state === 'skipped'));
    });

  command
    .command('check')
    .description('syntax-check hooks with bash -n (project hooks too, trusted or not)')
    .addOption(new Option('--event <event>', 'only this event').choices([...HOOK_EVENTS]))
    .option('--tool <tool>', 'only hooks that would run for this tool')
    .action(async (opts: { event?: string; tool?: string }, sub: Command) => {
      const projectRoot = root();
      const tool = opts.tool === undefined ? undefined : canonicalToolName(opts.tool);
      if (opts.tool !== undefined && tool === undefined) {
        const parsed = parseMatcher(opts.tool);
        sub.error(`error: --tool: ${parsed.ok ? `"${opts.tool}" is not one tool` : parsed.message}`, { exitCode: 2, code: 'seek.usage' });
      }
      const loaded = await loadHooks({ seekHome: home(), projectRoot, checkSyntax: false });
      const selected = loaded.entries.filter(
        (e) =>
          (opts.event === undefined || e.hook.event === opts.event) &&
          (tool === undefined || ((e.hook.event === 'pre_tool' || e.hook.event === 'post_tool') && matchesTool(e.hook, tool))),
      );
      let failed = 0;
      const rows = [['RESULT', 'EVENT', 'NAME', 'SOURCE', 'DETAIL']];
      for (const entry of selected) {
        const result = await checkSyntax(entry.hook.command, projectRoot);
        if (result.ok !== true) failed++;
        const detail = result.ok === true ? (entry.status.state === 'untrusted' ? `ok (will not run: ${entry.status.reason})` : 'ok') : result.reason;
        rows.push([result.ok === true ? 'ok' : 'FAIL', entry.hook.event, entry.hook.name, entry.hook.source, detail]);
      }
      io.out(selected.length === 0 ? 'no hooks match\n' : `${table(rows)}\n`);
      reportProblems(loaded, failed > 0);
    });

  command
    .command('trust')
    .description("trust this project's .seek/hooks.toml and the project files its hooks name, as they are now (re-asked when any changes)")
    .option('--reset', 'forget the trust instead')
    .action(async (opts: { reset?: boolean }) => {
      const projectRoot = root();
      if (opts.reset) {
        const removed = await resetTrust(home(), projectRoot);
        io.out(removed ? `project hooks of ${projectRoot} are no longer trusted\n` : `project hooks of ${projectRoot} were not trusted\n`);
        return;
      }
      const file = projectHooksFile(projectRoot);
      if (!existsSync(file)) {
        io.err(`no project hooks file at ${file}: nothing to trust\n`);
        io.setExitCode(1);
        return;
      }
      const loaded = await loadHooks({ seekHome: home(), projectRoot, checkSyntax: false });
      if (fatalProblems(loaded).some((p) => p.file === file)) {
        io.err(`not trusted: ${file} has errors\n`);
        reportProblems(loaded, false);
        return;
      }
      let trusted: Awaited<ReturnType<typeof trustProject>>;
      try {
        trusted = await trustProject(home(), projectRoot);
      } catch (error) {
        io.err(`${(error as Error).message}\n`); // the file changed into a broken one meanwhile
        io.setExitCode(HOOKS_CONFIG_EXIT_STATUS);
        return;
      }
      io.out(`trusted ${file} (sha256 ${trusted.sha256.slice(0, 12)}…), ${trusted.hooks.length} hook(s):\n`);
      for (const hook of trusted.hooks) io.out(`  ${hook.event}  ${hook.name}: ${hook.command}\n`);
      const files = Object.entries(trusted.files);
      if (files.length > 0) {
        io.out(`and the project files they name (a change to any of them is asked again):\n`);
        for (const [name, sha] of files) io.out(`  ${name} (sha256 ${sha.slice(0, 12)}…)\n`);
      }
      reportProblems(loaded, false);
    });

  command
    .command('audit')
    .description('recent hook runs from hooks-audit.jsonl')
    .option('--since <duration>', 'only runs within this duration (90s, 15m, 2h, 7d)')
    .option('--tool <tool>', 'only runs for this tool')
    .option('--denied', 'only runs that denied a tool call')
    .option('-n, --limit <n>', 'at most this many (newest)', '50')
    .action(async (opts: { since?: string; tool?: string; denied?: boolean; limit: string }, sub: Command) => {
      let since: Date | undefined;
      if (opts.since !== undefined) {
        const ms = parseDuration(opts.since);
        if (ms === undefined) sub.error(`error: --since expects a duration like 90s, 15m, 2h or 7d, got "${opts.since}"`, { exitCode: 2, code: 'seek.usage' });
        since = new Date(Date.now() - ms!);
      }
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit <= 0) sub.error(`error: --limit expects a positive integer, got "${opts.limit}"`, { exitCode: 2, code: 'seek.usage' });
      const records = await readAudit(home(), {
        ...(since ? { since } : {}),
        ...(opts.tool !== undefined ? { tool: opts.tool } : {}),
        deniedOnly: opts.denied === true,
      });
      if (records.length === 0) {
        io.out('no hook runs recorded\n');
        return;
      }
      const rows = [['TIME', 'EVENT', 'HOOK', 'TOOL', 'EXIT', 'MS', 'DENIED', 'REASON']];
      for (const r of records.slice(-limit)) {
        const reason = (r.reason ?? '').replace(/\s+/g, ' ');
        rows.push([
          r.ts.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
          r.event,
          r.hook,
          r.tool ?? '-',
          r.exit_code === null ? '-' : String(r.exit_code),
          String(r.duration_ms),
          r.denied ? 'yes' : 'no',
          reason.length > 80 ? `${reason.slice(0, 79)}…` : reason,
        ]);
      }
      io.out(`${table(rows)}\n`);
    });

  return command;
}
