import type { AgentContext, TerminalHandle, WaitForTerminalExitResponse } from '@agentclientprotocol/sdk';
import type { CommandRunner, CommandRunRequest, CommandRunResult } from '../tools/index.js';
import { terminalCommand } from './terminal-command.js';

/** How much output the editor keeps for seek (its tail): enough for the model's head-and-tail cut
 * of 30,000 characters in all but very noisy commands; the editor's own view shows everything. */
export const TERMINAL_OUTPUT_BYTES = 1024 * 1024;

/**
 * The bash tool's runner over ACP (clientCapabilities.terminal): each foreground command runs in a
 * terminal the editor creates (`terminal/create` with the command line seek would spawn, sandbox
 * wrapper included; terminal-command.ts), shown in its tool call as it runs; seek waits for
 * `terminal/wait_for_exit`, or on a timeout or cancel sends `terminal/kill`, then reads
 * `terminal/output` and always ends with `terminal/release`. The permission gate decided before
 * any of this: a refused command never reaches the editor.
 */
export class ClientTerminal implements CommandRunner {
  /** Set once the session exists (the tools run only after that). */
  sessionId: string | undefined;

  /** `shown(callId, terminalId)`: the terminal exists; the session puts it in the call's content. */
  constructor(
    private readonly client: AgentContext,
    private readonly shown: (callId: string, terminalId: string) => void,
  ) {}

  async run(request: CommandRunRequest): Promise<CommandRunResult> {
    const sessionId = this.sessionId;
    if (sessionId === undefined) throw new Error('the session is not open yet');
    const line = terminalCommand(request.spec);
    const terminal = await this.client.createTerminal({
      sessionId,
      command: line.command,
      args: line.args,
      ...(line.env.length > 0 ? { env: line.env } : {}),
      cwd: request.spec.cwd,
      outputByteLimit: TERMINAL_OUTPUT_BYTES,
    });
    try {
      this.shown(request.callId, terminal.id);
      const ended = await waitOrStop(terminal, request);
      const output = await terminal.currentOutput();
      const status = ended.status ?? output.exitStatus ?? {};
      return {
        output: output.output,
        truncated: output.truncated,
        code: ended.stoppedBy === null ? (status.exitCode ?? null) : null,
        signal: (status.signal ?? null) as NodeJS.Signals | null,
        stoppedBy: ended.stoppedBy,
      };
    } finally {
      await terminal.release().catch(() => undefined); // a closed connection released it anyway
    }
  }
}

/** How long seek waits for the editor to report the exit of a terminal it was told to kill. */
const KILL_GRACE_MS = 5000;

/** The promise's value, or undefined when it fails or has not settled within `ms`. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The exit, or the timeout or cancel that came first (then the terminal is killed). */
async function waitOrStop(terminal: TerminalHandle, request: CommandRunRequest): Promise<{ status: WaitForTerminalExitResponse | undefined; stoppedBy: 'timeout' | 'abort' | null }> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<'timeout' | 'abort'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), request.timeoutMs);
    onAbort = () => resolve('abort');
    if (request.signal.aborted) resolve('abort');
    else request.signal.addEventListener('abort', onAbort, { once: true });
  });
  const exit = terminal.waitForExit();
  try {
    const first = await Promise.race([exit.then((status) => ({ status })), stop.then((reason) => ({ reason }))]);
    if ('status' in first) return { status: first.status, stoppedBy: null };
    await terminal.kill().catch(() => undefined);
    // Settles once the kill took; an editor that never answers does not hold the turn past the grace.
    const status = await settledWithin(exit, KILL_GRACE_MS);
    return { status, stoppedBy: first.reason };
  } finally {
    clearTimeout(timer);
    if (onAbort) request.signal.removeEventListener('abort', onAbort);
  }
}
