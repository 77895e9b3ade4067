import { execFile, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { diffSafetyArgs, GIT_CONFIG_LISTING_ARGS, GIT_SAFETY_ARGS, GIT_SAFETY_ENV, repositoryOverrides } from '../util/git-safety.js';
import { checkGitArgs, READ_ONLY_GIT_SUBCOMMANDS } from './git-args.js';
import { blobArguments, filterDeniedDiffs, gitReadRefusal } from './git-read-guard.js';
import { terminateProcessGroup } from './process-group.js';
import { errorMessage } from './text-files.js';
import { LineBudget, truncateLine } from './truncate.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export { checkGitArgs, READ_ONLY_GIT_SUBCOMMANDS, type GitSubcommand } from './git-args.js';

export const GIT_MAX_LINES = 500;
const GIT_MAX_CHARS = 64 * 1024;
const GIT_MAX_LINE_CHARS = 1000;
/** Past this much output git is stopped; the note then says "more than". */
const GIT_MAX_READ_CHARS = 20 * 1024 * 1024;
const GIT_TIMEOUT_MS = 60_000;

export const gitSchema = lazySchema((z) =>
  z
    .object({
      subcommand: z.enum(READ_ONLY_GIT_SUBCOMMANDS),
      args: z.array(z.string()).optional().describe('Arguments, e.g. ["-n","5"]'),
    })
    .strict(),
);

export type GitArgs = z.infer<ReturnType<typeof gitSchema>>;

/** git: read-only git commands in ctx.cwd, output capped at 500 lines, never running a program the
 * repository's config names (util/git-safety.ts) and never contacting a remote. */
export function createGitTool(): Tool<GitArgs> {
  return {
    name: 'git',
    description: 'Run a read-only git command (no config overrides; output capped at 500 lines).',
    parameters: TOOL_PARAMETERS.git,
    get schema() {
      return gitSchema();
    },
    readOnly: true,
    describe(args, ctx) {
      const command = gitCommandLine(args);
      return { kind: 'git', paths: [ctx.cwd], command, summary: command };
    },
    execute: gitTool,
  };
}

function gitCommandLine(args: GitArgs): string {
  const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
  return ['git', args.subcommand, ...(args.args ?? []).map(quote)].join(' ');
}

async function gitTool(args: GitArgs, ctx: ToolContext): Promise<ToolResult> {
  const userArgs = args.args ?? [];
  const refusal = checkGitArgs(args.subcommand, userArgs) ?? gitReadRefusal(args.subcommand, userArgs, ctx);
  if (refusal) return { content: refusal, isError: true };
  const blobs = await blobArguments(args.subcommand, userArgs, ctx, gitEnv());
  if (blobs.length > 0) return { content: `git show ${blobs[0]}: a file by object id, and Read deny rules are set; use git show <rev>:<path>.`, isError: true };

  // The repository's config can name programs (fsmonitor, filters, pagers, drivers): git runs
  // with seek's safety overrides, including ones for the drivers this repository defines.
  const listing = await readConfigListing(ctx);
  if ('error' in listing) return { content: `Could not read the git configuration: ${listing.error}`, isError: true };
  const safety = [...GIT_SAFETY_ARGS, ...repositoryOverrides(listing.stdout), '-c', 'color.ui=never'];
  const argv = [...safety, args.subcommand, ...diffSafetyArgs(args.subcommand), ...userArgs];
  const run = await runGit(argv, ctx);
  const command = gitCommandLine(args);
  if ('spawnError' in run) return { content: `Could not run git: ${run.spawnError}`, isError: true };

  // Diff sections of files a Read deny rule names are left out (git-read-guard.ts).
  const denied = ctx.readDenied;
  let body = (denied ? filterDeniedDiffs(run.budget.lines, [ctx.cwd, ctx.projectRoot], denied) : run.budget.lines).join('\n');
  if (run.budget.omitted > 0 || run.stoppedEarly) {
    const more = run.stoppedEarly ? `more than ${run.budget.omitted}` : String(run.budget.omitted);
    body += `\n[… ${more} more lines not shown; narrow it with args such as -n, a path or a range]`;
  }
  const stderr = run.stderr.trim();
  if (run.timedOut) {
    return { content: `${body}\n\ngit ${args.subcommand} timed out after ${GIT_TIMEOUT_MS / 1000} s and was stopped.`.trim(), isError: true };
  }
  if (ctx.signal.aborted) return { content: 'Interrupted: the git command was cancelled.', isError: true };
  if (run.exitCode !== 0) {
    const detail = [stderr, body].filter((part) => part !== '').join('\n');
    return {
      content: `git ${args.subcommand} failed (exit code ${run.exitCode ?? 'none'}):\n${detail || '(no output)'}`,
      display: { kind: 'command', command, cwd: ctx.cwd, exitCode: run.exitCode, output: detail },
      isError: true,
    };
  }
  const content = [body, stderr].filter((part) => part !== '').join('\n') || '(no output)';
  return { content, display: { kind: 'command', command, cwd: ctx.cwd, exitCode: 0, output: content } };
}

const gitEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', PAGER: 'cat', ...GIT_SAFETY_ENV });

/** `git config --list` with scopes, in ctx.cwd (outside a repository: user and system config). */
function readConfigListing(ctx: ToolContext): Promise<{ stdout: string } | { error: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...GIT_CONFIG_LISTING_ARGS],
      { cwd: ctx.cwd, env: gitEnv(), timeout: 10_000, signal: ctx.signal, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => resolve(error ? { error: stderr.trim() || errorMessage(error) } : { stdout }),
    );
  });
}

type GitRun =
  | { budget: LineBudget; stderr: string; exitCode: number | null; timedOut: boolean; stoppedEarly: boolean }
  | { spawnError: string };

/** Runs git with stdin closed and no prompts, keeping the first lines and counting the rest. */
function runGit(argv: string[], ctx: ToolContext): Promise<GitRun> {
  return new Promise((resolve) => {
    const child = spawn('git', argv, {
      cwd: ctx.cwd,
      env: gitEnv(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const budget = new LineBudget(GIT_MAX_LINES, GIT_MAX_CHARS);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let readChars = 0;
    let stderr = '';
    let timedOut = false;
    let stoppedEarly = false;
    let settled = false;

    const stop = (): void => terminateProcessGroup(child, 500);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, GIT_TIMEOUT_MS);
    ctx.signal.addEventListener('abort', stop, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (stoppedEarly) return;
      readChars += chunk.length;
      const parts = (pending + decoder.write(chunk)).split('\n');
      pending = parts.pop() ?? '';
      if (budget.full) budget.countRefused(parts.length);
      else for (const line of parts) budget.add(truncateLine(line, GIT_MAX_LINE_CHARS));
      if (readChars > GIT_MAX_READ_CHARS) {
        stoppedEarly = true;
        stop();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8000) stderr += chunk.toString('utf8');
    });
    const settle = (run: GitRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', stop);
      resolve(run);
    };
    child.once('error', (error) => settle({ spawnError: errorMessage(error) }));
    child.once('close', (code) => {
      const rest = pending + decoder.end();
      if (rest !== '' && !stoppedEarly) budget.add(truncateLine(rest, GIT_MAX_LINE_CHARS));
      settle({ budget, stderr, exitCode: stoppedEarly ? 0 : code, timedOut, stoppedEarly });
    });
  });
}
