/**
 * The conversation a session carries on: a resumed one (its header, messages and what it billed,
 * children included) or a new one, the provider and model it talks to, and its system prompt,
 * fixed for the session so the provider's prefix cache keeps hitting.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createProvider, DEFAULT_BASE_URLS } from '../../providers/index.js';
import { addUsage, type Message, type RequestGateFor, type StreamFn } from '../../providers/types.js';
import { resolveProviderSettings, type ProviderSettings } from '../../config/config.js';
import { CostTracker } from '../../cost/tracker.js';
import { continueChoice, findSession, newestUnreadable, oneLineTitle } from '../../session/list.js';
import { isInjectedContext } from '../../session/context.js';
import { openResumeTarget, type ResumeTarget } from '../../session/resume.js';
import { newSessionId, type SessionEntry } from '../../session/format.js';
import { childrenTotals } from '../../subagents/totals.js';
import { buildSystemPrompt, readProjectInstructions } from '../system-prompt.js';
import type { OpenSessionOptions, TranscriptEntry } from '../session-types.js';
import type { SessionBase } from './base.js';

export interface Conversation {
  resumed: ResumeTarget | undefined;
  settings: ProviderSettings;
  model: string;
  stream: StreamFn;
  systemPrompt: string;
  id: string;
  history: Message[];
  tracker: CostTracker;
}

export async function openConversation(base: SessionBase, options: OpenSessionOptions): Promise<Conversation> {
  const { home, pid, board } = base;
  const resumed = await loadResumeTarget(home, pid, options, (text) => board.add('warn', text));
  const settings = resolveProviderSettings({
    flags: {
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    },
    env: options.env,
    config: base.config,
    configPath: base.configFile,
  });
  // A resumed session keeps its model unless one is asked for explicitly: same model, same cache.
  const model = options.model ?? options.env.SEEK_MODEL ?? resumed?.header.model ?? settings.model;
  const stream = options.stream ?? providerStream(settings, options.requestGate);
  const systemPrompt = resumed?.header.system_prompt ?? newSystemPrompt(options.cwd, base.projectRoot, (text) => board.add('warn', text));
  const tracker = new CostTracker();
  if (resumed) {
    // What the session's earlier children billed is part of its cost; they are never adopted again.
    const children = await childrenTotals(home, pid, resumed.header.id);
    tracker.setBase(addUsage(resumed.totals.usage, children.usage), resumed.totals.costUsd + children.costUsd, resumed.totals.turns + children.turns);
  }
  const id = resumed?.header.id ?? newSessionId();
  return { resumed, settings, model, stream, systemPrompt, id, history: resumed ? [...resumed.messages] : [], tracker };
}

/**
 * The session to continue, if any. `--continue` takes the newest session holding a prompt or an
 * answer (session/list.ts `continueChoice`); when that newest file cannot be read (bad header,
 * newer format), it stops with a SessionError (exit 2) naming the file, why, and what to do: it
 * never takes an older session in its place. With no session, a new one starts. A session another
 * live seek process is writing is continued as a fork (session/resume.ts). A session whose last
 * prompt never got an answer (killed before it) is said so: the prompt goes with the next request.
 */
async function loadResumeTarget(home: string, pid: string, options: OpenSessionOptions, warn: (text: string) => void): Promise<ResumeTarget | undefined> {
  const save = options.save !== false;
  let target: ResumeTarget | undefined;
  if (options.resume) {
    const ref = await findSession(home, pid, options.resume);
    target = await openResumeTarget(home, pid, ref.path, { save });
  } else if (options.continueLatest) {
    const choice = await continueChoice(home, pid);
    if (choice.unreadable) throw newestUnreadable(choice.unreadable);
    if (choice.session) target = await openResumeTarget(home, pid, choice.session.path, { save });
  }
  const unanswered = target ? unansweredPrompt(target.messages) : undefined;
  if (target && unanswered !== undefined) {
    warn(`session ${target.header.id} ended before the model answered its last prompt ("${oneLineTitle(unanswered)}"); the prompt is kept and goes to the model with the next request.`);
  }
  return target;
}

/** The last prompt of a history when nothing answered it (a run killed before its first answer). */
function unansweredPrompt(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user') return undefined;
    if (!isInjectedContext(message)) return message.content;
  }
  return undefined;
}

function providerStream(settings: ProviderSettings, gateFor: RequestGateFor | undefined): StreamFn {
  const baseUrl = settings.baseUrl ?? DEFAULT_BASE_URLS[settings.provider];
  const gate = gateFor?.({ provider: settings.provider, baseUrl });
  const provider = createProvider({ provider: settings.provider, apiKey: settings.apiKey, baseUrl: settings.baseUrl, keySource: settings.keySource, ...(gate ? { gate } : {}) });
  return (request, signal) => provider.stream(request, signal);
}

function newSystemPrompt(cwd: string, projectRoot: string, onRefused: (notice: string) => void): string {
  return buildSystemPrompt({
    cwd,
    projectRoot,
    isGitRepo: existsSync(join(projectRoot, '.git')),
    date: new Date().toISOString().slice(0, 10),
    platform: `${process.platform} ${process.arch}`,
    instructions: readProjectInstructions(projectRoot, onRefused),
  });
}

/** The entries a front end replays for a resumed session: messages and compactions, in order. */
export function transcriptOf(entries: readonly { entry: SessionEntry }[]): TranscriptEntry[] {
  return entries.flatMap(({ entry }): TranscriptEntry[] => {
    if (entry.type === 'message') return [{ kind: 'message', message: entry.message }];
    if (entry.type !== 'compaction') return [];
    return [{ kind: 'compaction', summary: entry.summary, ...(entry.reason ? { reason: entry.reason } : {}), ...(entry.replaced_messages !== undefined ? { replacedMessages: entry.replaced_messages } : {}) }];
  });
}
