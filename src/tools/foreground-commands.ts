/**
 * Foreground `bash` commands of one session that the user may move to the background (Ctrl+B in
 * the terminal UI). Only the session's own bash tool registers here (children get fresh tools
 * without a registry), so Ctrl+B never reaches a command of a background child. Moving one is the
 * command's own business (bash.ts): it becomes a background job (background-jobs.ts) and its
 * pending call returns at once.
 */
interface ForegroundCommand {
  command: string;
  detach: () => void;
}

export class ForegroundCommands {
  private readonly running: ForegroundCommand[] = [];

  /** A running command that can be detached; returns its unregistration. */
  register(command: string, detach: () => void): () => void {
    const entry: ForegroundCommand = { command, detach };
    this.running.push(entry);
    return () => {
      const at = this.running.indexOf(entry);
      if (at >= 0) this.running.splice(at, 1);
    };
  }

  get size(): number {
    return this.running.length;
  }

  /** Moves the newest running command to the background; its command line, or undefined. */
  detachNewest(): string | undefined {
    const entry = this.running.pop();
    if (!entry) return undefined;
    entry.detach();
    return entry.command;
  }
}
