import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '../agent/types.js';
import { configureModels, createProvider, DEFAULT_BASE_URLS, lookupModel } from '../providers/index.js';
import type { Message, RequestGateFor, StreamFn, ToolCall } from '../providers/types.js';
import { readConfig, resolveProviderSettings } from '../config/config.js';
import { configFile, ensureProjectManifest, manifestFile, resolveProject, seekHome, sessionFile } from '../config/paths.js';
import { CostTracker } from '../cost/tracker.js';
import { hooksStartupError } from '../hooks/problems.js';
import { loadSessionHooks, startHookRunner } from '../hooks/session-hooks.js';
import { SessionWriter } from '../session/writer.js';
import { continueChoice, findSession, newestUnreadable, oneLineTitle } from '../session/list.js';
import { isInjectedContext } from '../session/context.js';
import { interruptedToolResults } from '../session/reader.js';
import { openResumeTarget, resumeWriter, type ResumeTarget } from '../session/resume.js';
import { newSessionId, toolsHash, type SessionEntry } from '../session/format.js';
import { checkpointsOf } from '../checkpoints/record.js';
import { checkpointSettingsFrom } from '../checkpoints/settings.js';
import { createCoreTools, createTodoStore } from '../tools/index.js';
import { buildSystemPrompt, readProjectInstructions } from './system-prompt.js';
import { createSampler } from './mcp-sampling.js';
import { createToolGate, serializeAsk } from './tool-gate.js';
import { createWorktreeTools, recordMove, recordMoves, restoreWorkspace, savedWorktree, Workspace } from './workspace.js';
import { continueInWorktree, startInWorktree } from './session-worktree.js';
import { WorktreeManager } from '../worktree/manager.js';
import { symlinksFromConfig } from '../worktree/include.js';
import { createCompactor, type Compactor } from './compaction.js';
import { SEEK_VERSION } from '../util/version.js';
import { addUsage } from '../providers/types.js';
import { loadSubagentTypes } from '../subagents/definitions.js';
import { recoverOrphans } from '../subagents/index-log.js';
import { SubagentManager, type SpawnParent } from '../subagents/manager.js';
import { subagentSettings } from '../subagents/settings.js';
import { childrenTotals } from '../subagents/totals.js';
import { SessionJournal, type JournalSink } from '../orchestrator/journal.js';
import { Orchestration } from './orchestration.js';
import { wireMemory } from './memory.js';
import { savedRuleWriter, setUpPermissions, startSandboxDetection } from './permissions.js';
import { McpManager } from '../mcp/index.js';
import { declaresAll, declareTools, type ToolSet } from '../tools/on-demand.js';
import { CALL_TOOL, TOOL_SEARCH, unwrapProxyCall } from '../agent/tool-proxy.js';
import { ToolScope } from '../extensions/allowed-tools.js';
import { loadCommands } from '../extensions/commands.js';
import { grantingFiles, projectGrantsTrusted } from '../extensions/grants.js';
import { slashInvocable } from '../extensions/invocable.js';
import { loadSkills } from '../extensions/skills.js';
import { createSkillTool } from '../tools/skill.js';
import { createLspService } from '../lsp/index.js';

export type { Notice, OpenSessionOptions, PreparedSession } from './session-types.js';
import type { Notice, OpenSessionOptions, PreparedSession, TranscriptEntry } from './session-types.js';

/**
 * Resolves configuration, project, tools, policy and hooks, and opens (or resumes) the session
 * file. Throws ConfigError (no key, corrupt config) and SessionError (unknown session id) with
 * messages meant for the user.
 */
export async function prepareSession(options: OpenSessionOptions): Promise<PreparedSession> {
  const home = seekHome(options.env);
  const project = resolveProject(options.cwd, home);
  const { root: projectRoot, pid } = project;
  // Worktrees need git; elsewhere their tools are not registered and isolated children fail to
  // spawn, and --worktree is refused before anything is written (memory, manifest, session file).
  const inGit = existsSync(join(projectRoot, '.git'));
  const flagged = options.worktree !== undefined && options.worktree !== false;
  if (flagged && !inGit) throw new Error(`--worktree needs a git repository; ${projectRoot} is not one`);
  const config = await readConfig(home);
  configureModels(config.models); // prices and windows set in config win over the catalog
  // Interactive sessions detect the OS sandbox at start (overlapping the rest of start-up) and say
  // when there is none; headless ones on their first tool call (`sandboxReady`).
  if (options.interactive) startSandboxDetection(options.env, config, configFile(home));
  // Hooks fail closed: an unusable hooks file stops seek here (HooksConfigError, exit status 2),
  // before a session starts or a model is called.
  const loadedHooks = await loadSessionHooks({ seekHome: home, projectRoot });
  const hooksError = hooksStartupError(loadedHooks);
  if (hooksError) throw hooksError;
  const notices: Notice[] = [];
  const noticeSink: PreparedSession['noticeSink'] = {};
  const notify = (level: Notice['level'], text: string): void => {
    if (noticeSink.emit) noticeSink.emit({ level, text });
    else notices.push({ level, text });
  };
  const problem = (text: string): void => notify('warn', text);
  if (project.ignoredPointer) notices.push({ level: 'info', text: ignoredPointerNotice(home, projectRoot, pid, project.ignoredPointer) });
  const problemInfo = (text: string): void => notify('info', text);

  const resumed = await loadResumeTarget(home, pid, options, notices);
  const settings = resolveProviderSettings({
    flags: {
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    },
    env: options.env,
    config,
    configPath: configFile(home),
  });
  // A resumed session keeps its model unless one is asked for explicitly: same model, same cache.
  const model = options.model ?? options.env.SEEK_MODEL ?? resumed?.header.model ?? settings.model;
  const stream = options.stream ?? providerStream(settings, options.requestGate);
  const systemPrompt = resumed?.header.system_prompt ?? newSystemPrompt(options.cwd, projectRoot, (text) => notices.push({ level: 'warn', text }));
  const id = resumed?.header.id ?? newSessionId();
  const history: Message[] = resumed ? [...resumed.messages] : [];
  const tracker = new CostTracker();
  if (resumed) {
    // What the session's earlier children billed is part of its cost; they are never adopted again.
    const children = await childrenTotals(home, pid, resumed.header.id);
    tracker.setBase(addUsage(resumed.totals.usage, children.usage), resumed.totals.costUsd + children.costUsd, resumed.totals.turns + children.turns);
  }

  const permissions = await setUpPermissions({
    root: projectRoot,
    seekHome: home,
    configFile: configFile(home),
    config,
    env: options.env,
    interactive: options.interactive,
    deferSandbox: !options.interactive,
    ...(options.yolo ? { yolo: true } : {}),
    ...(options.auto ? { auto: true } : {}),
    ...(options.plan ? { plan: true } : {}),
  });
  const { policy, sandbox, sandboxReady } = permissions;
  // Language servers (src/lsp): started on demand under the commands' sandbox rules, shared with children.
  const lsp = createLspService({ config: (config as Record<string, unknown>).lsp, env: options.env, policy, sandbox, sandboxReady });
  for (const text of lsp.problems) notices.push({ level: 'warn', text });
  for (const text of permissions.notices) notices.push({ level: 'warn', text });
  // Memory: the decay pass and the context this session injects are settled before the first prompt.
  const memory = await wireMemory({
    seekHome: home,
    projectId: pid,
    projectRoot,
    sessionId: id,
    resumed: Boolean(resumed),
    interactive: options.interactive,
    save: options.save !== false,
    stream,
    flashModel: settings.flashModel,
    config,
    env: options.env,
    tracker,
    notify,
  });
  notices.push(...memory.notices);
  for (const text of loadedHooks.notices) notices.push({ level: 'warn', text });
  const hooks =
    loadedHooks.hooks.length > 0
      ? await startHookRunner({
          hooks: loadedHooks,
          seekHome: home,
          env: { sessionId: id, projectId: pid, projectPath: projectRoot, version: SEEK_VERSION },
          onProblem: problem,
        })
      : undefined;
  // The session's gate and every child's share one queue of questions to the user.
  const ask = options.ask ? serializeAsk(options.ask) : undefined;
  const workspace = new Workspace(projectRoot, options.cwd, policy);
  const saveRule = savedRuleWriter(home, projectRoot);
  const scope = new ToolScope(policy);
  const gate = createToolGate({ policy, workspace, sandbox, sandboxReady, saveRule, scope, onProblem: problem, ...(hooks ? { hooks } : {}), ...(ask ? { ask } : {}) });
  const worktrees = inGit
    ? new WorktreeManager({ projectRoot, seekHome: home, projectId: pid, symlinks: symlinksFromConfig(config) })
    : undefined;
  const compactorFor = (forModel: string): Compactor =>
    createCompactor({
      stream,
      model: forModel,
      contextWindow: lookupModel(forModel).contextWindow,
      env: options.env,
      ...(hooks ? { hooks } : {}),
      onProblem: problem,
    });

  // MCP servers connect in the background from here; the model reaches their tools through two
  // tools with fixed schemas (offered only when a server will run), so nothing waits for them.
  // Sessions declare elicitation; a question no front end answers (headless, line mode) is
  // declined and said, as a notice (stderr headless) and in the call's result.
  const mcp = await McpManager.open({
    projectRoot,
    seekHome: home,
    cwd: projectRoot,
    env: options.env,
    elicitation: true,
    onDeclined: problem,
    // A server's model call goes through this session's provider, asked first (mcp-sampling.ts).
    sample: createSampler({ stream, model: () => self.prepared?.model ?? model, ask, setting: (config as Record<string, unknown>).mcp_sampling, cwd: projectRoot, tracker, onNotice: problem }),
    ...(options.mcpServers ? { sessionServers: options.mcpServers } : {}),
  });
  for (const text of mcp.problems) notices.push({ level: 'warn', text });
  // The servers' root is where the session works: the project, or the worktree it entered.
  workspace.onRootChange((root) => mcp.setRoot(root));
  // The MCP tools (and their code) exist only when a server will run.
  const mcpTools = mcp.active ? await import('../mcp/tools.js') : undefined;
  // Tools on demand (tools/on-demand.ts), the same rule for the session and every child: the
  // common tools declared, the rest (and MCP's) behind tool_search and call_tool.
  const all = declaresAll(options.env);
  if (!all) mcp.via(TOOL_SEARCH, CALL_TOOL);
  const declare = (list: Tool[], readOnly: boolean): ToolSet =>
    declareTools(list, { all, sources: mcpTools && list.some((tool) => tool.name === 'mcp_call') ? [mcpTools.createMcpToolSource(mcp, { readOnlyOnly: readOnly })] : [] });

  // Tools: the nine core tools, then `agent`, whose children get fresh instances of their own.
  const todos = createTodoStore();
  const subagentConfig = subagentSettings(config);
  for (const text of subagentConfig.notices) notices.push({ level: 'warn', text });
  // Subagent types, skills and commands: one discovery rule (extensions/discovery.ts), read once.
  const roots = { projectRoot, seekHome: home, ...(options.env.HOME ? { home: options.env.HOME } : {}) };
  const [types, skills, commands] = await Promise.all([loadSubagentTypes(roots), loadSkills(roots), loadCommands(roots)]);
  // Skills are the user's own instructions, found where the user (or the project) put them: the
  // model reads their files without being asked about it, wherever they are (deny rules still apply).
  policy.allowReadsIn(skills.skills.map((skill) => skill.dir));
  for (const text of [...types.notices, ...skills.notices, ...commands.notices]) notices.push({ level: 'warn', text });
  // Skills run as /name too; the project's allowed-tools grant only once the user trusts them.
  const clashes: string[] = [];
  const invocable = slashInvocable(commands.commands, skills.skills, clashes);
  for (const text of clashes) notices.push({ level: 'warn', text });
  scope.projectGrantsTrusted = await projectGrantsTrusted(home, projectRoot, grantingFiles(invocable));
  const subagentSink: PreparedSession['subagentSink'] = {};
  const checkpointSettings = checkpointSettingsFrom(config, configFile(home));
  const subagents = new SubagentManager({
    seekHome: home,
    projectId: pid,
    projectRoot,
    sessionId: id,
    provider: settings.provider,
    stream,
    settings: subagentConfig.settings,
    types: types.types,
    ...(hooks ? { hooks } : {}),
    ...(ask ? { ask } : {}),
    sandbox,
    sandboxReady,
    saveRule,
    createTools: ({ readOnly }) => lsp.withLsp([...createCoreTools({ files: options.files }), ...memory.createTools(), ...(mcpTools ? mcpTools.createMcpTools(mcp, { readOnlyOnly: readOnly }) : [])]),
    declareTools: declare,
    contextMessages: () => memory.memory?.context.messages ?? [],
    ...(worktrees ? { worktrees } : {}),
    compactorFor: (forModel) => compactorFor(forModel).compactIfNeeded,
    save: options.save !== false,
    checkpoints: checkpointSettings,
    sink: subagentSink,
    onProblem: problem,
  });
  const self: { prepared?: PreparedSession } = {}; // the agent tool reads the current model at spawn time
  const tools = lsp.withLsp(createCoreTools({ todoStore: todos, files: options.files }));
  if (worktrees) tools.push(...createWorktreeTools(worktrees, workspace, problemInfo));
  tools.push(...memory.createTools());
  // The session as the parent of its children (agent and delegate_tasks), read at spawn time.
  const sessionParent = (): SpawnParent => ({
    depth: 0,
    model: () => self.prepared!.model,
    systemPrompt,
    policy,
    tracker,
    cwd: workspace.cwd,
    toolNames: tools.map((tool) => tool.name),
  });
  tools.push(subagents.agentTool(sessionParent));
  const journalSink: JournalSink = {};
  const journal = new SessionJournal(resumed ? resumed.entries.map(({ entry }) => entry) : [], journalSink);
  const orchestrationSink: PreparedSession['orchestrationSink'] = {};
  const orchestration = new Orchestration({
    subagents,
    ...(worktrees ? { worktrees } : {}),
    parent: sessionParent,
    journal,
    sink: orchestrationSink,
    ...(options.reviewPlan ? { reviewPlan: options.reviewPlan } : {}),
    shouldReview: () => policy.mode === 'ask',
    ...(options.dispatch ? { dispatch: options.dispatch } : {}),
  });
  tools.push(orchestration.tool());
  // Only with skills installed: a session without them pays nothing for the tool.
  if (skills.skills.length > 0) tools.push(createSkillTool({ skills: skills.skills, scope }));
  if (mcpTools) tools.push(...mcpTools.createMcpTools(mcp));
  const toolSet = declare(tools, false);
  const toolSchemas = toolSet.toolSchemas;
  if (resumed && resumed.header.tools_hash !== toolsHash(toolSchemas)) {
    notices.push({ level: 'info', text: 'tool definitions changed since this session was saved; the prompt cache will miss once' });
  }

  // Before the session file exists, so a failure leaves nothing behind. A resumed session that was
  // in a worktree goes back into that one instead.
  const inWorktree = resumed ? savedWorktree(resumed.entries) : undefined;
  if (flagged && inWorktree) notices.push({ level: 'info', text: '--worktree ignored: the resumed session goes back to its own worktree' });
  const continued = options.continueInWorktree && !inWorktree ? await continueInWorktree(workspace, worktrees, options.continueInWorktree) : undefined;
  if (continued === null) notices.push({ level: 'warn', text: `the worktree ${options.continueInWorktree} is gone${flagged ? '' : `; this session works in ${projectRoot}`}` });
  const started = continued ?? (flagged && !inWorktree ? await startInWorktree(workspace, worktrees!, typeof options.worktree === 'string' ? options.worktree : undefined) : undefined);

  const pendingCalls: ToolCall[] = [];
  let writer: SessionWriter | undefined;
  if (options.save !== false) {
    // Inside a seek worktree the manifest keeps naming the owner's main tree.
    if (project.worktreeId === undefined) await ensureProjectManifest(home, pid, projectRoot);
    if (worktrees) {
      const problems = await worktrees.startupHousekeeping({ maxMs: 2000 });
      for (const text of problems) notices.push({ level: 'warn', text });
    }
    const orphaned = await recoverOrphans(home, pid);
    if (orphaned.length > 0) {
      notices.push({ level: 'info', text: `${orphaned.length} subagent(s) of a seek process that ended abruptly marked orphaned (see seek subagent list)` });
    }
    // A new session's file is created with its first message (nothing is left by a session that
    // never started); a resumed one is locked, or forked when another process is writing it.
    writer = resumed
      ? resumeWriter(resumed)
      : SessionWriter.deferred(sessionFile(home, pid, id), {
          id,
          cwd: options.cwd,
          project_root: projectRoot,
          project_id: pid,
          provider: settings.provider,
          model,
          system_prompt: systemPrompt,
          tools_hash: toolsHash(toolSchemas),
          seek_version: SEEK_VERSION,
        });
  }
  /** A message seek adds before the first prompt: into history and the session file. */
  const add = (message: Message): void => {
    history.push(message);
    writer?.append({ type: 'message', message });
  };
  if (resumed) {
    for (const text of resumed.notices) notices.push({ level: 'warn', text }); // repairs, a fork
    // An interrupted run left calls without results: answer them so the history is valid again,
    // except delegate_tasks calls with completed tasks on record, which the session finishes.
    // A call made through call_tool is finished as the delegate_tasks call it stands for.
    const resumable = (call: ToolCall): boolean => unwrapProxyCall(call).name === 'delegate_tasks' && journal.plansOfCall(call.id).length > 0;
    pendingCalls.push(...resumed.danglingToolCalls.filter(resumable).map(unwrapProxyCall));
    for (const call of pendingCalls) {
      const done = journal.plansOfCall(call.id).reduce((sum, hash) => sum + journal.completed(hash).size, 0);
      notices.push({ level: 'info', text: `the interrupted delegate_tasks call continues before your next prompt (${done} completed task(s) are reused)` });
    }
    for (const result of interruptedToolResults(resumed.danglingToolCalls.filter((call) => !resumable(call)))) add(result);
  }
  if (writer) {
    if (started) recordMove(writer, started.info);
    recordMoves(workspace, writer);
    const sessionWriter = writer;
    journalSink.append = (entry) => sessionWriter.append(entry);
  }
  if (started) {
    notices.push({ level: 'info', text: started.notice });
    add(started.note);
  }
  if (inWorktree) {
    const restored = await restoreWorkspace(workspace, worktrees, inWorktree);
    notices.push(restored.notice);
    if (restored.note) add(restored.note);
  }
  await hooks?.sessionStart({ resumed: Boolean(resumed), model });

  const prepared: PreparedSession = {
    id,
    resumed: Boolean(resumed),
    provider: settings.provider,
    model,
    cwd: options.cwd,
    projectRoot,
    projectId: pid,
    seekHome: home,
    stream,
    systemPrompt,
    tools: toolSet.tools,
    toolSchemas,
    ...(toolSet.resolveTool ? { resolveTool: toolSet.resolveTool } : {}),
    history,
    transcript: resumed ? transcriptOf(resumed.entries) : [],
    maxTurns: options.maxTurns,
    tracker,
    policy,
    gate,
    sandboxReady,
    hooks,
    todos,
    writer,
    recordedCheckpoints: resumed ? checkpointsOf(resumed.entries) : [],
    checkpointSettings,
    compactor: compactorFor(model),
    compactorFor,
    notices,
    noticeSink,
    subagents,
    subagentSink,
    workspace,
    worktrees,
    orchestration,
    orchestrationSink,
    memory,
    interactive: options.interactive,
    flashModel: settings.flashModel,
    mcp,
    lsp,
    pendingCalls,
    skills: skills.skills,
    commands: invocable,
    unloadedCommands: commands.unloaded,
    scope,
  };
  self.prepared = prepared;
  return prepared;
}

/**
 * The session to continue, if any. `--continue` takes the newest session holding a prompt or an
 * answer (session/list.ts `continueChoice`); when that newest file cannot be read (bad header,
 * newer format), it stops with a SessionError (exit 2) naming the file, why, and what to do: it
 * never takes an older session in its place. With no session, a new one starts. A session another
 * live seek process is writing is continued as a fork (session/resume.ts). A session whose last
 * prompt never got an answer (killed before it) is said so: the prompt goes with the next request.
 */
async function loadResumeTarget(home: string, pid: string, options: OpenSessionOptions, notices: Notice[]): Promise<ResumeTarget | undefined> {
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
    notices.push({ level: 'warn', text: `session ${target.header.id} ended before the model answered its last prompt ("${oneLineTitle(unanswered)}"); the prompt is kept and goes to the model with the next request.` });
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

/** Why this directory is not the project its `.seek/project-id` names, and how to make it so when
 * it really is that project, moved. */
function ignoredPointerNotice(home: string, root: string, pid: string, ignored: { id: string; reason: string }): string {
  return (
    `${join(root, '.seek', 'project-id')} names project ${ignored.id}, but ${ignored.reason}: this directory is project ${pid}, ` +
    `with its own memory and sessions (a project's identity never comes from its files). If it really is ${ignored.id} moved here, ` +
    `set "abs_path" to ${root} in ${manifestFile(home, ignored.id)}.`
  );
}

function providerStream(settings: ReturnType<typeof resolveProviderSettings>, gateFor: RequestGateFor | undefined): StreamFn {
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
function transcriptOf(entries: readonly { entry: SessionEntry }[]): TranscriptEntry[] {
  return entries.flatMap(({ entry }): TranscriptEntry[] => {
    if (entry.type === 'message') return [{ kind: 'message', message: entry.message }];
    if (entry.type !== 'compaction') return [];
    return [{ kind: 'compaction', summary: entry.summary, ...(entry.reason ? { reason: entry.reason } : {}), ...(entry.replaced_messages !== undefined ? { replacedMessages: entry.replaced_messages } : {}) }];
  });
}
