import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ActionRequest } from '../agent/types.js';
import type { ToolImage } from '../providers/types.js';
import type { RunSummary, SessionEvent } from '../runtime/events.js';
import type { AskAnswer } from '../policy/tool-gate.js';
import { configFile } from '../config/paths.js';
import { localConfigFile, projectConfigFile } from '../policy/config-rules.js';
import { approvalView, formatApprovalLines, visible, type ApprovalRequest } from './approval.js';
import { describePlan, dropTask, setRole, specsOf, type PlanDecision, type PlanReviewRequest } from '../orchestrator/review.js';
import { customCommandLines, skillsListing } from './extensions-list.js';
import { findInvocable } from '../extensions/invocable.js';
import type { CustomCommand } from '../extensions/commands.js';
import type { Skill } from '../extensions/skills.js';

/** What the plain line mode needs from a session; the runtime's AgentSession satisfies it. */
export interface InteractiveSession {
  readonly id: string;
  readonly model: string;
  subscribe(listener: (event: SessionEvent) => void): () => void;
  prompt(text: string, signal?: AbortSignal, options?: { images?: ToolImage[] }): Promise<RunSummary>;
  /** Cycles or sets the permission mode; returns a label for the new mode. */
  setMode(mode: 'ask' | 'yolo' | 'plan'): string;
  costReport(): string;
  /** Where "always" answers can be saved: the config files named in the question. */
  readonly seekHome?: string;
  readonly projectRoot?: string;
  /** Custom slash commands (`prompt` runs them) and skills (listed by /skills). */
  readonly customCommands?: readonly CustomCommand[];
  readonly skills?: readonly Skill[];
}

export type Answer = AskAnswer;

/** The second question after `a`: where the rule goes (an empty line keeps it to this session). */
export const SAVE_QUESTION = 'save for: [s]ession / [l]ocal project file / [p]roject file / [u]ser config? ';

const SAVE_ANSWERS: Readonly<Record<string, AskAnswer>> = {
  '': 'always',
  s: 'always',
  session: 'always',
  l: 'always-local',
  local: 'always-local',
  p: 'always-project',
  project: 'always-project',
  u: 'always-user',
  user: 'always-user',
};

const END_OF_INPUT = '\u0004';

/**
 * The plain line-oriented interactive mode: used when stdin or stdout is not a terminal, and the
 * fallback when the full-screen UI cannot start. Streams the answer as it comes, one line per
 * tool call, asks y/n/a for actions that need approval. Ctrl+C cancels a running turn; at the
 * prompt, Ctrl+C twice (or /exit, or end of input) quits.
 */
export class PlainInteractive {
  private readonly rl: Interface;
  private running: AbortController | undefined;
  private lastInterrupt = 0;
  private midLine = false;
  /** Lines typed ahead (while a turn runs, or piped in) wait here in order. */
  private readonly lines: string[] = [];
  private waiter: ((line: string) => void) | undefined;
  private closed = false;

  constructor(
    private readonly session: InteractiveSession,
    private readonly input: Readable,
    private readonly out: Writable,
  ) {
    this.rl = createInterface({ input, output: out, terminal: false });
    this.rl.on('line', (line) => this.deliver(line));
    this.rl.on('close', () => {
      this.closed = true;
      this.deliver(END_OF_INPUT);
    });
    session.subscribe((event) => this.render(event));
  }

  /**
   * Permission prompt for the runtime's tool gate: the whole action first (every line of a
   * command, every path, the preview, the rule "always" saves; see approval.ts), then the question.
   * Takes the gate's whole prompt, or (older callers) just the action and the asking agent's name.
   */
  async ask(request: ApprovalRequest | ActionRequest, agent?: string): Promise<Answer> {
    this.endLine();
    const full: ApprovalRequest = 'action' in request ? request : { action: request, ...(agent ? { subagent: { description: agent } } : {}) };
    const terminal = this.out as { isTTY?: boolean; columns?: number };
    // On a terminal, reset text attributes first: streamed model text could have left it
    // concealed or coloured like the background, hiding the prompt.
    if (terminal.isTTY) this.out.write('\u001b[0m');
    this.out.write(`${formatApprovalLines(full, terminal.isTTY ? terminal.columns : undefined).join('\n')}\n`);
    const answer = await this.question('[y]es / [n]o / [a]lways this session: ');
    const normalised = answer.trim().toLowerCase();
    if (normalised === 'a' || normalised === 'always') return this.askWhereToSave(full);
    return normalised === 'y' || normalised === 'yes' ? 'yes' : 'no';
  }

  /** After "always": the rule holds for this session; it can also be saved to a config file. Shows
   * the exact rule and each file, then asks until it gets one of the answers (end of input: the
   * session only, nothing written). */
  private async askWhereToSave(request: ApprovalRequest): Promise<AskAnswer> {
    const rule = approvalView(request).rule;
    const files = this.saveFiles();
    this.out.write(
      [
        `Always allow ${rule ?? 'this'}:`,
        '  [s]ession  this session only (the default)',
        `  [l]ocal    this project, only me: ${files.local} (kept out of git)`,
        `  [p]roject  this project, everyone: ${files.project} (commit it to share)`,
        `  [u]ser     me, in every project: ${files.user}`,
      ].join('\n') + '\n',
    );
    for (;;) {
      const line = await this.question(SAVE_QUESTION);
      if (line === END_OF_INPUT) return 'always';
      const answer = SAVE_ANSWERS[line.trim().toLowerCase()];
      if (answer) return answer;
      this.out.write('(answer s, l, p or u)\n');
    }
  }

  private saveFiles(): { local: string; project: string; user: string } {
    const { seekHome, projectRoot } = this.session;
    return {
      local: projectRoot ? localConfigFile(projectRoot) : '.seek/config.local.json',
      project: projectRoot ? projectConfigFile(projectRoot) : '.seek/config.json',
      user: seekHome ? configFile(seekHome) : '~/.seek/config.json',
    };
  }

  /** Plan review for delegate_tasks: shows the plan, then takes edits until run or reject. */
  async reviewPlan(request: PlanReviewRequest): Promise<PlanDecision> {
    this.endLine();
    let current = request;
    let specs = specsOf(current.plan);
    for (;;) {
      this.out.write(`The model wants to run this plan:\n${describePlan(current).join('\n')}\n`);
      const answer = (await this.question('[r]un / [x] reject [reason] / d ID (drop) / c ID ROLE (change role): ')).trim();
      if (answer === END_OF_INPUT) return { kind: 'reject', reason: 'no answer (end of input)' };
      const [word = '', id = '', ...rest] = answer.split(/\s+/);
      const verb = word.toLowerCase();
      if (verb === '' || verb === 'r' || verb === 'run' || verb === 'y') return { kind: 'run', tasks: specs };
      if (verb === 'x' || verb === 'n' || verb === 'reject') return { kind: 'reject', ...(answer.includes(' ') ? { reason: answer.slice(answer.indexOf(' ') + 1) } : {}) };
      let edited = specs;
      if (verb === 'd' && specs.some((spec) => spec.id === id)) edited = dropTask(specs, id);
      else if (verb === 'c' && specs.some((spec) => spec.id === id) && current.roles.includes(rest[0] ?? '')) edited = setRole(specs, id, rest[0]!);
      else {
        this.out.write(`(not understood: use d ID, or c ID ROLE with a role of: ${current.roles.join(', ')})\n`);
        continue;
      }
      if (edited.length === 0) return { kind: 'reject', reason: 'every task was dropped' };
      try {
        current = current.revise(edited);
        specs = edited;
      } catch (error) {
        this.out.write(`(that edit makes the plan invalid: ${(error as Error).message})\n`);
      }
    }
  }

  /** `firstImages`: `-i` images, attached to the first prompt only. */
  async run(firstPrompt: string, firstImages: ToolImage[] = []): Promise<number> {
    this.out.write(`seek · ${this.session.model} · session ${this.session.id}\nType /help for commands, /exit to quit.\n`);
    if (firstPrompt) await this.send(firstPrompt, firstImages);
    for (;;) {
      const line = await this.question('> ', false);
      if (line === END_OF_INPUT) return 0;
      const text = line.trim();
      if (!text) continue;
      if (text.startsWith('/')) {
        const outcome = this.command(text);
        if (outcome === 'exit') return 0;
        if (outcome === 'custom') await this.send(text);
        continue;
      }
      await this.send(text);
    }
  }

  /** Ctrl+C: cancel the running turn, or exit when pressed twice at the prompt. */
  interrupt(): 'cancelled' | 'exit' | 'armed' {
    if (this.running) {
      this.running.abort();
      return 'cancelled';
    }
    const now = Date.now();
    if (now - this.lastInterrupt < 2000) return 'exit';
    this.lastInterrupt = now;
    this.out.write('\n(press Ctrl+C again to exit)\n');
    return 'armed';
  }

  close(): void {
    this.rl.close();
  }

  private async send(text: string, images: ToolImage[] = []): Promise<void> {
    this.running = new AbortController();
    try {
      const summary = await this.session.prompt(text, this.running.signal, images.length > 0 ? { images } : undefined);
      this.endLine();
      if (summary.commandFailed) this.out.write(`${summary.errorMessage ?? 'the command failed'}\n`);
      else if (summary.reason === 'aborted') this.out.write('(cancelled)\n');
      else if (summary.reason !== 'completed') this.out.write(`(stopped: ${summary.errorMessage ?? summary.reason})\n`);
    } finally {
      this.running = undefined;
    }
  }

  /** Runs a built-in command; 'custom' when `text` names a custom command (sent as a prompt). */
  private command(text: string): 'exit' | 'custom' | undefined {
    const [name] = text.slice(1).split(/\s+/);
    const custom = this.session.customCommands ?? [];
    switch (name) {
      case 'exit':
      case 'quit':
        return 'exit';
      case 'yolo':
      case 'plan':
      case 'ask':
        this.out.write(`mode: ${this.session.setMode(name)}\n`);
        return undefined;
      case 'cost':
        this.out.write(`${this.session.costReport()}\n`);
        return undefined;
      case 'help': {
        this.out.write('/ask /yolo /plan   set the permission mode\n/cost              tokens and cost so far\n/skills            the installed skills\n/exit              quit\n');
        if (custom.length > 0) this.out.write(`Custom commands\n${customCommandLines(custom, 17).join('\n')}\n`);
        return undefined;
      }
      case 'skills':
        this.out.write(`${skillsListing(this.session.skills ?? [])}\n`);
        return undefined;
      default:
        if (name !== undefined && findInvocable(name, custom)) return 'custom';
        this.out.write(`unknown command /${name}; try /help\n`);
        return undefined;
    }
  }

  private render(event: SessionEvent): void {
    switch (event.type) {
      case 'text_delta':
        this.out.write(event.text);
        this.midLine = !event.text.endsWith('\n');
        break;
      case 'retry':
        this.endLine();
        this.out.write(`(${event.error.message}; retrying)\n`);
        break;
      case 'tool_start':
        this.endLine();
        this.out.write(`· ${visible(event.action?.summary ?? event.toolCall.name)}\n`);
        break;
      case 'tool_end':
        if (event.message.isError) this.out.write(`  ✗ ${visible(firstLine(event.message.content))}\n`);
        break;
      case 'notice':
        this.endLine();
        this.out.write(`(${event.text})\n`);
        break;
      case 'subagent_start':
        this.endLine();
        this.out.write(`  ⤷ agent ${event.agentType} started: ${event.description}\n`);
        break;
      case 'subagent_event':
        if (event.event.type === 'tool_start') {
          this.endLine();
          this.out.write(`    · [${event.subSid.slice(-6)}] ${visible(event.event.action?.summary ?? event.event.toolCall.name)}\n`);
        }
        break;
      case 'subagent_end':
        this.endLine();
        this.out.write(`  ⤶ agent ${event.outcome.subSid.slice(-6)} ${event.outcome.status}${event.outcome.reason ? ` (${event.outcome.reason})` : ''} · ${event.outcome.turns} turns\n`);
        break;
      case 'orchestration_start':
        this.endLine();
        this.out.write(`  ◆ plan: ${event.tasks.length} tasks, ${event.mode}${event.isolatedWriters ? ', editors in worktrees' : ''}\n`);
        break;
      case 'orchestration_task':
        if (event.status !== 'running' && event.status !== 'pending') {
          this.endLine();
          const why = event.record?.reason ?? (event.status === 'skipped' ? event.record?.hint : undefined);
          this.out.write(`  ◆ ${event.taskId} ${event.status}${why ? ` (${why})` : ''}\n`);
        }
        break;
      default:
        break;
    }
  }

  private endLine(): void {
    if (this.midLine) this.out.write('\n');
    this.midLine = false;
  }

  private deliver(line: string): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(line);
    } else if (line !== END_OF_INPUT) {
      this.lines.push(line);
    }
  }

  /** Shows `prompt` and waits for a line. A line typed ahead answers at once; the input prompt is
   * then not shown (it would land in the middle of the output), a question always is. */
  private question(prompt: string, showWhenTypedAhead = true): Promise<string> {
    const next = this.lines.shift();
    if (next !== undefined) {
      if (showWhenTypedAhead) this.out.write(`${prompt}${next}\n`);
      return Promise.resolve(next);
    }
    this.out.write(prompt);
    if (this.closed) return Promise.resolve(END_OF_INPUT);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
