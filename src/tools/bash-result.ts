import type { ToolResult } from '../agent/types.js';

/** The end of a command as the model reads it: its output (or "(no output)"), then how it ended
 * (exit code, signal, timeout, abort), and for a failing sandboxed command what the sandbox allowed.
 * Shared by the bash tool's own spawn and an injected runner (command-runner.ts), so both read alike. */
export function formatResult(
  command: string,
  cwd: string,
  output: string,
  status: { code: number | null; signal: NodeJS.Signals | null },
  stoppedBy: 'timeout' | 'abort' | null,
  timeoutMs: number,
  sandbox: string | undefined,
): ToolResult {
  const body = output.trimEnd() === '' ? '(no output)' : output.trimEnd();
  let ending: string;
  if (stoppedBy === 'timeout') {
    ending = `timed out after ${timeoutMs} ms: the command and its child processes were killed`;
  } else if (stoppedBy === 'abort') {
    ending = 'aborted by the user: the command and its child processes were killed';
  } else if (status.code !== null) {
    ending = `exit code ${status.code}`;
  } else {
    ending = `terminated by signal ${status.signal ?? 'unknown'}`;
  }
  const isError = stoppedBy !== null || status.code !== 0;
  if (isError && stoppedBy === null && sandbox !== undefined) {
    ending += `\n(ran in the ${sandbox}. If it failed because it needs more, call bash again with unsandboxed: true; the user is asked first.)`;
  }
  return {
    content: `${body}\n\n${ending}`,
    display: { kind: 'command', command, cwd, exitCode: status.code, output: body },
    ...(isError ? { isError: true } : {}),
  };
}

export function withNotes(result: ToolResult, notes: string[]): ToolResult {
  return { ...result, content: `${result.content}\n\n${notes.map((note) => `seek: ${note}`).join('\n')}` };
}

export function firstLine(command: string): string {
  const line = command.trim().split('\n')[0] ?? '';
  const short = line.length > 80 ? `${line.slice(0, 79)}…` : line;
  return command.trim().includes('\n') ? `${short} …` : short;
}
