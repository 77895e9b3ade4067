import type { AgentContext, AvailableCommand, ContentBlock, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { RunStopReason } from '../runtime/events.js';
import type { AgentSession } from '../runtime/session.js';
import { promptText } from './prompt-content.js';
import { replayUpdates } from './replay.js';
import type { SeekMode } from './session-config.js';
import { UpdateMapper } from './updates.js';

/** Slash commands an editor offers in its prompt box (`/name args` arrives as prompt text). The
 * modes and the model have pickers of their own (session modes, the model config option). */
const COMMANDS: AvailableCommand[] = [
  { name: 'compact', description: 'summarise the conversation so far and continue from the summary', input: { hint: 'what the summary should keep (optional)' } },
  { name: 'cost', description: 'tokens and cost of this session so far' },
];

const STOP_REASONS: Record<RunStopReason, StopReason> = {
  completed: 'end_turn',
  max_turns: 'max_turn_requests',
  aborted: 'cancelled',
  error: 'end_turn',
  repeated_tool_call: 'end_turn',
  refusal: 'refusal',
  max_budget_usd: 'max_turn_requests',
};

/**
 * One ACP session: a seek session driven by `session/prompt`, its events sent to the editor as
 * `session/update` notifications under the ACP session id. One prompt at a time; `cancel` aborts it
 * (the prompt then answers `cancelled`).
 */
export class AcpSession {
  readonly mapper = new UpdateMapper();
  private running: AbortController | undefined;
  /** The prompt in progress, so closing waits for it to wind down after the abort. */
  private turn: Promise<unknown> = Promise.resolve();
  /** An error the model's turn reported, so a failed turn is not reported twice. */
  private errorShown = false;
  private readonly unsubscribe: () => void;

  /** `notices`: the client takes `notice` updates (it advertised `session.notices`); seek's notices
   * (a hook that failed, a repaired session file) go to it then, and nowhere otherwise. */
  constructor(
    readonly id: string,
    readonly session: AgentSession,
    private readonly client: AgentContext,
    notices: boolean,
  ) {
    this.unsubscribe = session.subscribe((event) => {
      if (event.type === 'error') this.errorShown = true;
      if (event.type === 'notice' && notices) this.send({ sessionUpdate: 'notice', severity: event.level === 'warn' ? 'warning' : 'info', title: event.text });
      for (const update of this.mapper.map(event)) this.send(update);
    });
  }

  /** Sends one update. Notifications go out in the order they are sent (the SDK queues writes),
   * so a permission request sent after a tool call's update reaches the editor after it. */
  send(update: SessionUpdate): void {
    this.client.notify('session/update', { sessionId: this.id, update }).catch(() => undefined); // a closed connection ends the session anyway
  }

  /** The saved history, replayed (session/load). */
  replayHistory(): void {
    for (const update of replayUpdates(this.session.history)) this.send(update);
  }

  /** seek's own commands, then the project's and user's custom commands (expanded by the session). */
  announceCommands(): void {
    const custom = this.session.customCommands
      .filter((command) => !COMMANDS.some((own) => own.name === command.name))
      .map((command): AvailableCommand => ({ name: command.name, description: command.description, ...(command.argumentHint ? { input: { hint: command.argumentHint } } : {}) }));
    this.send({ sessionUpdate: 'available_commands_update', availableCommands: [...COMMANDS, ...custom] });
  }

  prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.running) return Promise.reject(new Error('a prompt is already running in this session; cancel it first'));
    const controller = new AbortController();
    this.running = controller;
    const turn = this.runPrompt(blocks, controller);
    this.turn = turn.catch(() => undefined);
    return turn;
  }

  private async runPrompt(blocks: readonly ContentBlock[], controller: AbortController): Promise<StopReason> {
    this.errorShown = false;
    try {
      const text = promptText(blocks);
      const command = /^\/(compact|cost)(?:\s+([\s\S]*))?$/.exec(text.trim());
      if (command) return await this.runCommand(command[1]!, command[2] ?? '', controller.signal);
      const summary = await this.session.prompt(text, controller.signal);
      if ((summary.reason === 'error' || summary.reason === 'refusal') && summary.errorMessage && !this.errorShown) this.say(`\n\n[error] ${summary.errorMessage}\n`);
      return controller.signal.aborted ? 'cancelled' : STOP_REASONS[summary.reason];
    } finally {
      this.running = undefined;
    }
  }

  cancel(): void {
    this.running?.abort();
  }

  setMode(mode: SeekMode): void {
    this.session.setMode(mode);
  }

  async close(): Promise<void> {
    this.cancel();
    await this.turn; // the transcript gets its closing results before the file closes
    this.unsubscribe();
    await this.session.close();
    // What became of a worktree goes where a terminal user would see it: stdout is the protocol's.
    for (const note of this.session.closingNotes) process.stderr.write(`seek: ${note}\n`);
  }

  private async runCommand(name: string, args: string, signal: AbortSignal): Promise<StopReason> {
    if (name === 'cost') {
      this.say(this.session.costReport());
      return 'end_turn';
    }
    const event = await this.session.compact(args.trim() || undefined, signal);
    if (signal.aborted) return 'cancelled';
    this.say(event?.type === 'compaction' ? `Compacted ${event.replacedMessages} messages into a summary.` : 'Nothing to compact yet.');
    return 'end_turn';
  }

  private say(text: string): void {
    this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }
}
