/**
 * Background children: `agent` with `run_in_background` starts a child and answers at once with
 * its id; a running foreground child can be moved there too (Ctrl+B). Either way the child is the
 * same as a foreground one (manager.ts: type, tools, policy, sandbox, worktree, budget,
 * transcript, cost adopted by the parent's tracker, the same concurrency limit). When it ends, its
 * result goes to the ResultsInbox; the session hands it to the model at its next request. When
 * the session ends, children still running are killed (recorded as killed).
 */
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import { createAgentTool, type AgentSpawnRequest } from '../tools/agent.js';
import { ForegroundCommands } from '../tools/foreground-commands.js';
import type { ChildReport } from './child-report.js';
import type { SpawnParent, SubagentManager } from './manager.js';
import { ResultsInbox } from './results-inbox.js';
import { capDescription, failedResult, shortSubSid } from './result-format.js';
import { loadEarlierChild, type ResumeLookup } from './child-resume.js';
import { matchChild, type ChildMatch } from './child-lookup.js';
import { abortOrDelay } from '../util/abort.js';
import type { ChildRunRequest } from './child-report.js';
import type { SubagentEvent } from './types.js';

/** What `agent_status` and front ends see of one background child. */
export interface BackgroundChild {
  subSid: string;
  description: string;
  startedAt: number;
  turns: number;
  tokens: number;
  lastAction?: string;
  /** Set once it ended. */
  report?: ChildReport;
}

interface Foreground {
  subSid: string;
  description: string;
  detach: () => void;
}

export class BackgroundChildren {
  readonly inbox = new ResultsInbox();
  /** The session's own foreground bash commands, which Ctrl+B can move to the background too. */
  readonly commands = new ForegroundCommands();
  private readonly children = new Map<string, BackgroundChild>();
  private readonly ends = new Map<string, Promise<ChildReport>>();
  private readonly foreground: Foreground[] = [];
  /** Children started but not yet announced (admission still running) end with the session too. */
  private readonly sessionEnd = new AbortController();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: { manager: SubagentManager; notify?: (text: string) => void; resume?: Omit<ResumeLookup, 'runningHere'> }) {}

  /** The session's `agent` tool: foreground calls can be moved to the background; background ones
   * return at once; either can continue an earlier child (`resume`). */
  agentTool(parent: () => SpawnParent): Tool {
    const manager = this.options.manager;
    return createAgentTool({
      types: manager.types,
      maxConcurrent: manager.maxConcurrent,
      background: true,
      spawn: async (asked, ctx) => {
        const resumed = await this.resumed(asked);
        if (typeof resumed === 'string') return { content: failedResult('spawn_error', resumed), isError: true };
        const { request, extra } = resumed;
        return request.runInBackground ? this.start(request, parent(), ctx, extra) : this.runForeground(request, parent(), ctx, extra);
      },
    });
  }

  /** A request to continue an earlier child: its type, and the history it starts with. */
  private async resumed(request: AgentSpawnRequest): Promise<{ request: AgentSpawnRequest; extra: Pick<ChildRunRequest, 'earlier'> } | string> {
    if (!request.resume) return { request, extra: {} };
    if (!this.options.resume) return 'this session cannot continue subagents (it is not saved)';
    const manager = this.options.manager;
    const earlier = await loadEarlierChild(request.resume, { ...this.options.resume, runningHere: (subSid) => manager.activeIds().includes(subSid) });
    if (typeof earlier === 'string') return earlier;
    return { request: { ...request, subagentType: earlier.record.type }, extra: { earlier: earlier.messages } };
  }

  /** Background children, running or ended, in start order. */
  list(): BackgroundChild[] {
    return [...this.children.values()];
  }

  running(): BackgroundChild[] {
    return this.list().filter((child) => !child.report);
  }

  /** Children running or results not yet delivered: a headless run waits for these. */
  get pending(): boolean {
    return this.running().length > 0 || this.inbox.size > 0;
  }

  /** Called when a child starts or ends in the background, or a result waits. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Feeds progress (turns, tokens, last action) from the manager's events. */
  observe(event: SubagentEvent): void {
    if (event.type !== 'subagent_event') return;
    const child = this.children.get(event.subSid);
    if (!child) return;
    const inner = event.event;
    if (inner.type === 'turn_end') child.turns++;
    if (inner.type === 'usage') child.tokens += inner.usage.inputTokens + inner.usage.outputTokens;
    if (inner.type === 'tool_start') child.lastAction = inner.toolCall.name;
  }

  /** Finds a child by its sub-sid, the short form the results show, or a prefix only it has
   * (child-lookup.ts); undefined when no child or more than one matches. */
  find(id: string): BackgroundChild | undefined {
    const match = this.lookup(id);
    return match.kind === 'found' ? match.item : undefined;
  }

  /** The child `id` names, or that none does, or the children it could mean. */
  lookup(id: string): ChildMatch<BackgroundChild> {
    return matchChild(this.list(), id, (child) => child.subSid);
  }

  /** Resolves when `subSid` ended (at once when it has), or when `signal` aborts. */
  async ended(subSid: string, signal: AbortSignal): Promise<void> {
    const end = this.ends.get(subSid);
    if (!end || signal.aborted) return;
    // The listener goes when the child ends too: agent_status may wait on one signal many times.
    const wait = abortOrDelay(signal);
    await Promise.race([wait.done, end]);
    wait.cancel();
  }

  /** Ctrl+B: moves the newest running foreground child to the background. Its description, or undefined. */
  detachForeground(): string | undefined {
    const child = this.foreground.pop();
    if (!child) return undefined;
    child.detach();
    return child.description;
  }

  get hasForeground(): boolean {
    return this.foreground.length > 0;
  }

  /** The session ends: every child still running is killed and recorded so; resolves once they ended. */
  async stopAll(): Promise<ChildReport[]> {
    const running = this.running();
    for (const child of running) this.options.manager.kill(child.subSid);
    this.sessionEnd.abort('killed');
    return Promise.all(running.map((child) => this.ends.get(child.subSid)!));
  }

  /** Starts the child; answers with its id once it exists, or with the admission failure. */
  private start(request: AgentSpawnRequest, parent: SpawnParent, ctx: ToolContext, extra: Pick<ChildRunRequest, 'earlier'>): Promise<ToolResult> {
    return new Promise((resolve) => {
      let started = false;
      // onStarted may run before spawn returns (nothing to await before the child starts).
      const holder: { end?: Promise<ChildReport> } = {};
      const onStarted = (subSid: string): void => {
        started = true;
        this.track(subSid, request.description, Promise.resolve().then(() => holder.end!));
        resolve({ content: startedResult(subSid, request.description) });
      };
      const end = this.options.manager.spawn(request, parent, { ...ctx, signal: this.sessionEnd.signal }, { ...extra, onStarted });
      holder.end = end;
      void end.then((report) => (started ? this.settle(report) : resolve(report.result)));
    });
  }

  /** A foreground child the user may move to the background while it runs (Ctrl+B). */
  private async runForeground(request: AgentSpawnRequest, parent: SpawnParent, ctx: ToolContext, extra: Pick<ChildRunRequest, 'earlier'>): Promise<ToolResult> {
    // The turn's cancellation reaches the child only while it is in the foreground.
    const link = new AbortController();
    let moved = false;
    const onAbort = (): void => {
      if (!moved) link.abort(ctx.signal.reason);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    if (ctx.signal.aborted) onAbort();
    let detach: () => void = () => {};
    const detached = new Promise<undefined>((resolve) => (detach = () => resolve(undefined)));
    let entry: Foreground | undefined;
    const onStarted = (subSid: string): void => {
      entry = { subSid, description: capDescription(request.description), detach: () => ((moved = true), detach()) };
      this.foreground.push(entry);
    };
    const signal = AbortSignal.any([link.signal, this.sessionEnd.signal]);
    const end = this.options.manager.spawn(request, parent, { ...ctx, signal }, { ...extra, onStarted });
    const first = await Promise.race([end, detached]);
    ctx.signal.removeEventListener('abort', onAbort);
    const at = entry ? this.foreground.indexOf(entry) : -1;
    if (at >= 0) this.foreground.splice(at, 1);
    if (first || !entry) return (first ?? (await end)).result;
    this.track(entry.subSid, request.description, end);
    void end.then((report) => this.settle(report));
    return { content: movedResult(entry.subSid, request.description) };
  }

  private track(subSid: string, description: string, end: Promise<ChildReport>): void {
    this.ends.set(subSid, end);
    this.children.set(subSid, { subSid, description: capDescription(description), startedAt: Date.now(), turns: 0, tokens: 0 });
    this.changed();
  }

  private settle(report: ChildReport): void {
    const child = report.subSid ? this.children.get(report.subSid) : undefined;
    if (!child) return;
    child.report = report;
    this.inbox.push({ subSid: child.subSid, description: child.description, content: report.result.content });
    this.options.notify?.(`background subagent ${shortSubSid(child.subSid)} ("${child.description}") ${report.status}${report.reason ? ` (${report.reason})` : ''}: its result goes to the model with the next request`);
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A broken front end must not break a child.
      }
    }
  }
}

export function startedResult(subSid: string, description: string): string {
  return `[agent: started in background] ${capDescription(description)}\n\nIt works on its own; its result comes to you by itself as a message once it ends. Go on with other work meanwhile (agent_status, via tool_search, shows its progress or waits for it).\n\n— sub-sid: ${shortSubSid(subSid)}`;
}

export function movedResult(subSid: string, description: string): string {
  return `[agent: moved to background] ${capDescription(description)}\n\nThe user moved this subagent to the background; it goes on working and its result comes to you by itself as a message once it ends.\n\n— sub-sid: ${shortSubSid(subSid)}`;
}
