import path from 'node:path';
import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type { TextFileOverlay } from '../tools/index.js';

/**
 * The file tools' overlay over ACP: read_file, write_file and edit_file read and write through the
 * client's `fs/read_text_file` and `fs/write_text_file`, so they see the editor's unsaved buffers
 * and the editor sees their edits as it applies them. Each direction only when the client
 * advertised it, and only inside the session's directory: a subagent's worktree (under SEEK_HOME)
 * and files outside the project stay on the disk. A read the client refuses (a file it cannot
 * open) falls back to the disk; a write it refuses is the tool's failure.
 */
export class ClientFiles implements TextFileOverlay {
  /** Set once the session exists (the tools run only after that). */
  sessionId: string | undefined;

  constructor(
    private readonly client: AgentContext,
    private readonly capabilities: ClientCapabilities['fs'],
    private readonly root: string,
  ) {}

  /** Whether the client offers either direction at all. */
  get active(): boolean {
    return this.capabilities?.readTextFile === true || this.capabilities?.writeTextFile === true;
  }

  async readText(absPath: string): Promise<string | undefined> {
    if (this.capabilities?.readTextFile !== true || !this.takes(absPath)) return undefined;
    try {
      const { content } = await this.client.request('fs/read_text_file', { sessionId: this.sessionId!, path: absPath });
      return content;
    } catch {
      return undefined;
    }
  }

  async writeText(absPath: string, text: string): Promise<boolean> {
    if (this.capabilities?.writeTextFile !== true || !this.takes(absPath)) return false;
    await this.client.request('fs/write_text_file', { sessionId: this.sessionId!, path: absPath, content: text });
    return true;
  }

  private takes(absPath: string): boolean {
    if (this.sessionId === undefined) return false;
    const relative = path.relative(this.root, absPath);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  }
}
