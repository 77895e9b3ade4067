/**
 * An editor's terminals for `seek acp` tests: `terminal/create` really spawns the command it is
 * handed (argv, cwd, env added to the test's own environment, as editors do), captures stdout and
 * stderr together up to `outputByteLimit` (keeping the tail, as the protocol says), and serves
 * `terminal/output`, `terminal/wait_for_exit`, `terminal/kill` and `terminal/release`. Every
 * request is recorded, so a test can tell what seek asked for and in which order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type * as acp from '@agentclientprotocol/sdk';

export interface EditorTerminal {
  id: string;
  request: acp.CreateTerminalRequest;
  child: ChildProcess;
  output: string;
  truncated: boolean;
  exit: acp.TerminalExitStatus | undefined;
  exited: Promise<acp.TerminalExitStatus>;
  killed: boolean;
  released: boolean;
}

export class EditorTerminals {
  readonly terminals: EditorTerminal[] = [];
  /** Method names in the order seek sent them (`terminal/create`, …). */
  readonly calls: string[] = [];
  /** Called after each request is handled (the harness re-checks what tests wait for). */
  onChange: () => void = () => undefined;

  create(request: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    this.calls.push('terminal/create');
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    for (const variable of request.env ?? []) env[variable.name] = variable.value;
    const child = spawn(request.command, request.args ?? [], { cwd: request.cwd ?? undefined, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const terminal: EditorTerminal = { id: `term-${this.terminals.length + 1}`, request, child, output: '', truncated: false, exit: undefined, exited: undefined!, killed: false, released: false };
    const limit = request.outputByteLimit ?? Number.POSITIVE_INFINITY;
    const take = (chunk: Buffer): void => {
      terminal.output += chunk.toString('utf8');
      if (Buffer.byteLength(terminal.output) > limit) {
        terminal.output = Buffer.from(terminal.output).subarray(-limit).toString('utf8');
        terminal.truncated = true;
      }
      this.onChange();
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    terminal.exited = new Promise((resolve) => {
      child.on('error', (error) => {
        terminal.output += `spawn failed: ${error.message}`;
        terminal.exit = { exitCode: 127, signal: null };
        resolve(terminal.exit);
        this.onChange();
      });
      child.on('close', (code, signal) => {
        terminal.exit = { exitCode: code, signal };
        resolve(terminal.exit);
        this.onChange();
      });
    });
    this.terminals.push(terminal);
    this.onChange();
    return { terminalId: terminal.id };
  }

  output(request: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    this.calls.push('terminal/output');
    const terminal = this.find(request.terminalId);
    return { output: terminal.output, truncated: terminal.truncated, ...(terminal.exit ? { exitStatus: terminal.exit } : {}) };
  }

  async waitForExit(request: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    this.calls.push('terminal/wait_for_exit');
    return this.find(request.terminalId).exited;
  }

  kill(request: acp.KillTerminalRequest): acp.KillTerminalResponse {
    this.calls.push('terminal/kill');
    const terminal = this.find(request.terminalId);
    terminal.killed = true;
    if (terminal.exit === undefined && terminal.child.pid !== undefined) process.kill(-terminal.child.pid, 'SIGKILL');
    this.onChange();
    return {};
  }

  release(request: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    this.calls.push('terminal/release');
    const terminal = this.find(request.terminalId);
    terminal.released = true;
    if (terminal.exit === undefined && terminal.child.pid !== undefined) process.kill(-terminal.child.pid, 'SIGKILL');
    this.onChange();
    return {};
  }

  /** Ends whatever a test left running. */
  killAll(): void {
    for (const terminal of this.terminals) {
      if (terminal.exit === undefined && terminal.child.pid !== undefined) {
        try {
          process.kill(-terminal.child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }

  private find(id: string): EditorTerminal {
    const terminal = this.terminals.find((candidate) => candidate.id === id);
    if (!terminal) throw new Error(`no terminal ${id}`);
    return terminal;
  }
}
