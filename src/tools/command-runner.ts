import type { CommandSpawn, ToolContext, ToolResult } from '../agent/types.js';
import { formatResult, withNotes } from './bash-result.js';
import { errorMessage } from './text-files.js';
import { COMMAND_OUTPUT_MAX_CHARS, truncateHeadTail } from './truncate.js';

/**
 * Where a foreground bash command runs when not as seek's own child: an editor's terminal (ACP's
 * `terminal/*`, injected by src/acp). The bash tool hands over the command line it would have
 * spawned itself, sandbox wrapper included, after the permission gate decided; the runner starts
 * exactly that, and stops it on `timeoutMs` or `signal`. Absent (every front end but ACP with a
 * client that offers terminals): the bash tool spawns the command itself.
 */
export interface CommandRunner {
  run(request: CommandRunRequest): Promise<CommandRunResult>;
}

export interface CommandRunRequest {
  /** The program and arguments to start, exactly (the sandbox's wrapper when the call has one);
   * `inheritFiles` must be honoured or the command not started. */
  spec: CommandSpawn;
  /** The tool call this command belongs to (the editor shows the terminal in it). */
  callId: string;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface CommandRunResult {
  /** stdout and stderr as the terminal captured them (interleaved). */
  output: string;
  /** The runner kept only the end of a long output (the head is lost). */
  truncated: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the runner ended the command, when it did. */
  stoppedBy: 'timeout' | 'abort' | null;
}

/**
 * One foreground command through `runner`, read back as the bash tool's own result: the output cut
 * to the same head and tail, the same endings, the sandbox's audit notes. A runner that cannot
 * start the command (the editor refused) is the call's failure; nothing then runs anywhere else.
 */
export async function runThroughRunner(runner: CommandRunner, spec: CommandSpawn, command: string, timeoutMs: number, ctx: ToolContext): Promise<ToolResult> {
  let run: CommandRunResult;
  try {
    run = await runner.run({ spec, callId: ctx.callId, timeoutMs, signal: ctx.signal });
  } catch (error) {
    const notes = (await spec.afterExit?.()) ?? [];
    const result: ToolResult = { content: `Could not run the command in the editor's terminal: ${errorMessage(error)}`, isError: true };
    return notes.length === 0 ? result : withNotes(result, notes);
  }
  const output = `${run.truncated ? '[earlier output dropped by the terminal]\n' : ''}${truncateHeadTail(run.output, COMMAND_OUTPUT_MAX_CHARS)}`;
  const result = formatResult(command, ctx.cwd, output, { code: run.code, signal: run.signal }, run.stoppedBy, timeoutMs, ctx.sandbox?.summary);
  const notes = (await spec.afterExit?.()) ?? [];
  return notes.length === 0 ? result : withNotes(result, notes);
}
