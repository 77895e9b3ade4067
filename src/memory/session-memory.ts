/**
 * Memory as one session sees it: the project's store, the context messages captured when the
 * session opened, and the observation checks it started. The runtime opens one per session; the
 * memory tools and front ends go through it.
 *
 * The context is captured once, after the decay pass: a session that runs for hours keeps the
 * same injected index (the prompt cache depends on it); entries added meanwhile are reachable
 * through memory_recall, and the next session lists them.
 */
import { soulFile } from '../config/paths.js';
import type { Message, StreamFn, UserMessage } from '../providers/types.js';
import { buildMemoryContext, isMemoryContext, type MemoryContext } from './context.js';
import { describeSkipped } from './jsonl.js';
import { runDecay } from './operations.js';
import { Observer } from './observer.js';
import type { MemorySettings } from './settings.js';
import type { SideCallResult } from './side-call.js';
import { readSoul } from './soul.js';
import { MemoryStore } from './store.js';

export interface SessionMemoryOptions {
  seekHome: string;
  projectId: string;
  projectRoot: string;
  sessionId: string;
  stream: StreamFn;
  /** The cheap model for the observation check. */
  flashModel: string;
  settings: MemorySettings;
  /** false for `--no-save` runs: nothing automatic is written (no decay rewrite, no recall
   * counts, no observations); explicit, approved writes (remember, amend, archive) still are. */
  save: boolean;
  now?: () => Date;
  bill(result: SideCallResult): void;
  notify(level: 'info' | 'warn', text: string): void;
}

export class SessionMemory {
  readonly store: MemoryStore;
  readonly observer: Observer | undefined;

  private constructor(
    private readonly options: SessionMemoryOptions,
    store: MemoryStore,
    /** What the session injects (or injected, when resumed) before its first prompt. */
    readonly context: MemoryContext,
  ) {
    this.store = store;
    this.observer = options.save
      ? new Observer({
          store,
          stream: options.stream,
          model: options.flashModel,
          sessionId: options.sessionId,
          maxObservations: options.settings.maxObservations,
          timeoutMs: options.settings.observeTimeoutMs,
          bill: options.bill,
          notify: options.notify,
        })
      : undefined;
  }

  /**
   * Opens memory at session start: the decay pass (rewriting the file only when something
   * changed, never in --no-save runs), then the soul and the index as context. Problems (damaged
   * lines, a held lock) become notices; memory never stops a session from starting.
   */
  static async open(options: SessionMemoryOptions): Promise<{ memory: SessionMemory; notices: Array<{ level: 'info' | 'warn'; text: string }> }> {
    const notices: Array<{ level: 'info' | 'warn'; text: string }> = [];
    const store = new MemoryStore({ seekHome: options.seekHome, projectId: options.projectId, projectRoot: options.projectRoot, ...(options.now ? { now: options.now } : {}) });
    let entries = [] as Awaited<ReturnType<typeof runDecay>>['entries'];
    try {
      const loaded = await store.load();
      const skipped = describeSkipped(store.file, loaded.skipped);
      if (skipped) notices.push({ level: 'warn', text: `memory: ${skipped}` });
      const decay = await runDecay(store, { halfLifeDays: options.settings.halfLifeDays, write: options.save });
      entries = decay.entries;
      if (decay.notice) notices.push({ level: 'info', text: decay.notice });
    } catch (error) {
      notices.push({ level: 'warn', text: `memory: could not run the decay pass (${(error as Error).message}); the index is built from the file as it is` });
      entries = await store.load().then(
        (loaded) => loaded.entries,
        () => [],
      );
    }
    const soul = await readSoul(soulFile(options.seekHome));
    return { memory: new SessionMemory(options, store, buildMemoryContext(soul, entries)), notices };
  }

  get save(): boolean {
    return this.options.save;
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  /**
   * The context messages to append before a prompt: none when the history already holds them (a
   * resumed session: injecting again would change nothing but cost tokens), else the session's
   * captured context. After a compaction replaced the history they are sent again.
   */
  contextToInject(history: readonly Message[]): UserMessage[] {
    if (history.some(isMemoryContext)) return [];
    return this.context.messages.map((message) => ({ ...message }));
  }

  /** Waits for observation checks still running (headless runs, before they report and exit). */
  async drain(): Promise<void> {
    await this.observer?.drain();
  }
}
