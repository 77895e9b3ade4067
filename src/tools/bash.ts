import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { z } from 'zod';
import { lazySchema } from '../util/zod.js';
import type { CommandSpawn, Tool, ToolContext, ToolResult } from '../agent/types.js';
import { adoptBackgroundJob, startBackgroundJob, type AdoptedJob } from './background-jobs.js';
import type { ForegroundCommands } from './foreground-commands.js';
import { openInheritedFiles } from '../util/inherited-files.js';
import { newCommandTag, trackCommand, withCommandTag } from './process-group.js';
import { errorMessage } from './text-files.js';
import { COMMAND_OUTPUT_MAX_CHARS, HeadTailBuffer } from './truncate.js';
import { firstLine, formatResult, withNotes } from './bash-result.js';
import { runThroughRunner, type CommandRunner } from './command-runner.js';
import { integerAtLeast } from './schema.js';
import { TOOL_PARAMETERS } from './tool-schemas.generated.js';

export { killBackgroundJobs, listBackgroundJobs, type BackgroundJob } from './background-jobs.js';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** After bash exits, how long to wait for its pipes to drain before giving up on them (a
 * backgrounded grandchild such as `server &` may hold them open indefinitely). */
const PIPE_DRAIN_MS = 250;

export const bashSchema = lazySchema((z) =>
  z
    .object({
      command: z.string(),
      timeout_ms: integerAtLeast(1).optional().describe(`Default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}`),
      run_in_background: z.boolean().optional().describe('Start detached, return at once'),
      unsandboxed: z
        .boolean()
        .optional()
        .describe('Skip the OS sandbox (asks the user): only after a sandboxed run failed for lack of network or writes outside the project'),
    })
    .strict(),
);

export type BashArgs = z.infer<ReturnType<typeof bashSchema>>;

/**
 * bash: runs `bash -c command` in ctx.cwd, in its own session and process group (so no controlling
 * terminal can prompt), stdin closed, environment = process.env + SEEK_AGENT=1 + a tag naming the
 * call. When a foreground command ends, times out or is cancelled, every process it started ends
 * too (`sleep 100 &`, `setsid …`, `nohup … &`; see process-group.ts for how, and what escapes);
 * jobs started with run_in_background run on until seek exits. When the gate chose a sandbox
 * (`ctx.sandbox`), the command runs inside it, with the sandbox's reduced environment (the tag is
 * not needed there: the sandbox's pid namespace ends with the command); a failing sandboxed command's
 * result says what the sandbox allowed, so the model can tell a denied write from a bug.
 * `ctx.onUpdate` receives each new piece of output (deltas, not the accumulated text).
 * With `runner` (an editor's terminal, over ACP), a foreground command runs there instead, the
 * same command line (sandbox included) after the same permission decision; background jobs stay
 * seek's own children.
 */
export function createBashTool(options: { runner?: CommandRunner; foreground?: ForegroundCommands } = {}): Tool<BashArgs> {
  return {
    name: 'bash',
    description:
      'Run a bash command in the project dir; returns output and exit code. ' +
      'Servers/watchers: run_in_background, then read_file its output file. ' +
      'Unapproved commands run in an OS sandbox (no network, writes only in the project).',
    parameters: TOOL_PARAMETERS.bash,
    get schema() {
      return bashSchema();
    },
    readOnly: false,
    async describe(args, ctx) {
      return {
        kind: 'bash',
        paths: [ctx.cwd],
        command: args.command,
        summary: `bash: ${firstLine(args.command)}`,
        ...(args.unsandboxed === true ? { unsandboxed: true } : {}),
      };
    },
    execute: (args, ctx) => bashTool(args, ctx, options),
  };
}

function commandEnv(): NodeJS.ProcessEnv {
  return { ...process.env, SEEK_AGENT: '1' };
}

/** `bash -c command` in cwd, tagged `tag` (see process-group.ts), wrapped in the call's sandbox when it has one. */
function bashSpawn(command: string, ctx: ToolContext, tag: string): CommandSpawn {
  const spec: CommandSpawn = { file: 'bash', args: ['-c', command], cwd: ctx.cwd, env: withCommandTag(commandEnv(), tag) };
  return ctx.sandbox ? ctx.sandbox.wrap(spec) : spec;
}

async function bashTool(args: BashArgs, ctx: ToolContext, options: { runner?: CommandRunner; foreground?: ForegroundCommands }): Promise<ToolResult> {
  if (args.command.trim() === '') return { content: 'command is empty.', isError: true };
  if (args.run_in_background === true) {
    try {
      const tag = newCommandTag();
      const job = await startBackgroundJob({ command: args.command, spawn: bashSpawn(args.command, ctx, tag), tag });
      const content = `started background job ${job.id} (pid ${job.pid}); output is written to ${job.outputFile}`;
      return { content, display: { kind: 'command', command: args.command, cwd: ctx.cwd, exitCode: null, output: content } };
    } catch (error) {
      return { content: `Could not start the background job: ${errorMessage(error)}`, isError: true };
    }
  }
  const timeoutMs = Math.min(args.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
  if (options.runner && !ctx.signal.aborted) return runThroughRunner(options.runner, bashSpawn(args.command, ctx, newCommandTag()), args.command, timeoutMs, ctx);
  return runForeground(args.command, timeoutMs, ctx, options.foreground);
}

function runForeground(command: string, timeoutMs: number, ctx: ToolContext, foreground: ForegroundCommands | undefined): Promise<ToolResult> {
  if (ctx.signal.aborted) return Promise.resolve({ content: 'Aborted before the command started.', isError: true });
  return new Promise((resolve) => {
    const output = new HeadTailBuffer(COMMAND_OUTPUT_MAX_CHARS);
    let stoppedBy: 'timeout' | 'abort' | null = null;
    let finished = false;
    let exitStatus: { code: number | null; signal: NodeJS.Signals | null } | null = null;

    const tag = newCommandTag();
    const start = bashSpawn(command, ctx, tag);
    let inherited: ReturnType<typeof openInheritedFiles>;
    try {
      inherited = openInheritedFiles(start.inheritFiles);
    } catch (error) {
      resolve({ content: `Could not start the sandbox: ${errorMessage(error)}`, isError: true });
      return;
    }
    const child = spawn(start.file, start.args, {
      cwd: start.cwd,
      env: start.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...inherited.fds],
    }) as ChildProcessByStdio<null, Readable, Readable>;
    inherited.close();
    // Everything the command starts ends with it: on exit, timeout, abort, or seek's own exit.
    const processes = child.pid === undefined ? undefined : trackCommand(child.pid, tag);

    // Each stream has its own decoder so a multi-byte character split across chunks survives.
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
    // Set once the user moved the command to the background (Ctrl+B): its output goes to the job's log.
    let adopted: AdoptedJob | undefined;
    const take = (text: string): void => {
      if (text === '') return;
      if (adopted) return adopted.write(text);
      output.push(text);
      ctx.onUpdate?.(text);
    };
    child.stdout.on('data', (chunk: Buffer) => take(decoders[0].write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => take(decoders[1].write(chunk)));

    const stop = (reason: 'timeout' | 'abort'): void => {
      if (finished || stoppedBy) return;
      stoppedBy = reason;
      processes?.end();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = (): void => stop('abort');
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    const finish = (result: ToolResult): void => {
      if (finished) return;
      finished = true;
      unregister();
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const unregister = foreground?.register(command, () => {
      if (finished || stoppedBy || child.pid === undefined) return;
      try {
        adopted = adoptBackgroundJob({ command, pid: child.pid, cwd: ctx.cwd, tag, earlier: output.toString(), afterExit: start.afterExit, afterExitSync: start.afterExitSync });
      } catch (error) {
        ctx.onUpdate?.(`\nseek: could not move the command to the background: ${errorMessage(error)}\n`);
        return;
      }
      processes?.forget(); // the job's own bookkeeping ends it from now on (with the session)
      finish(movedResult(command, ctx.cwd, adopted.job));
    }) ?? ((): void => {});
    let finalizing = false;
    const finalize = (): void => {
      if (finalizing) return;
      if (adopted) {
        finalizing = true;
        take(decoders[0].end());
        take(decoders[1].end());
        const status = exitStatus ?? { code: child.exitCode, signal: child.signalCode };
        adopted.exited(status.code, status.signal);
        return;
      }
      if (finished) return;
      finalizing = true;
      take(decoders[0].end());
      take(decoders[1].end());
      const status = exitStatus ?? { code: child.exitCode, signal: child.signalCode };
      const result = formatResult(command, ctx.cwd, output.toString(), status, stoppedBy, timeoutMs, ctx.sandbox?.summary);
      // What the sandbox's audit moved aside is part of the result: the model learns why a
      // `.git` it made is gone, the user sees it in the transcript.
      void (start.afterExit?.() ?? Promise.resolve([])).then((notes) => finish(notes.length === 0 ? result : withNotes(result, notes)));
    };

    child.once('error', (error) => {
      processes?.end();
      finish({ content: `Could not run bash: ${errorMessage(error)}`, isError: true });
      void start.afterExit?.();
    });
    child.once('exit', (code, signal) => {
      exitStatus = { code, signal };
      // What it left running (`server &`, `setsid …`); also closes their hold on the pipes. (A
      // command moved to the background is no longer tracked here: like a started job, what it
      // left running runs on until the session ends it.)
      processes?.end();
      const drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finalize();
      }, PIPE_DRAIN_MS);
      drain.unref();
    });
    child.once('close', finalize);
  });
}
/** The pending call's result once the user moved the command to the background (like a started job's). */
function movedResult(command: string, cwd: string, job: { id: string; pid: number; outputFile: string }): ToolResult {
  const content = `moved to background job ${job.id} (pid ${job.pid}) by the user; it keeps running. Its output so far and from now on is written to ${job.outputFile}`;
  return { content, display: { kind: 'command', command, cwd, exitCode: null, output: content } };
}
