import { Box, Static, Text, useApp } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AgentSession } from '../runtime/session.js';
import type { ToolImage } from '../providers/types.js';
import { findInvocable } from '../extensions/invocable.js';
import { parseSlashCommand, type CommandContext, type PanelSpec, type PickerSpec } from './commands/index.js';
import { ConversationItemView } from './components/conversation/index.js';
import { PermissionPrompt } from './components/PermissionPrompt.js';
import { PlanReviewPrompt } from './components/PlanReviewPrompt.js';
import { ElicitationPrompt } from './components/ElicitationPrompt.js';
import { Picker } from './components/Picker.js';
import { StatusBar } from './components/StatusBar.js';
import { TodoPanel, todoPanelRows } from './components/TodoPanel.js';
import { LiveItems, liveRows } from './components/LiveItems.js';
import { OpenPanel, onAlternateScreen } from './components/OpenPanel.js';
import { DEFAULT_SAVE_FILES, saveFilesOf } from './state/rule-scopes.js';
import { InputEditor, MENU_ROWS } from './input/index.js';
import { useDraft } from './input/use-draft.js';
import { sessionSlashCompleter } from './commands/completions.js';
import { statusInfo } from './state/status-info.js';
import { useDoubleEscape, useExitArming, useGlobalKeys } from './input/use-global-keys.js';
import { useBackgroundAgents } from './state/use-background-agents.js';
import { openRewind } from './commands/rewind.js';
import { scrollbackWidth, shownItems } from './state/shown-items.js';
import { childrenOfCall } from './state/subagents.js';
import { useRecent } from './state/use-recent.js';
import { useSessionState } from './state/use-session-state.js';
import { useTerminalWidth } from './state/use-terminal-width.js';
import { useTerminalRows } from './state/use-terminal-rows.js';
import { screenLayout } from './state/live-layout.js';
import { useTodos } from './state/use-todos.js';
import { useScrollback } from './state/use-scrollback.js';
import { useAlternateView } from './state/use-alternate-view.js';
import { TranscriptView } from './components/TranscriptView.js';
import { useQuestions, type PermissionBridge } from './state/use-questions.js';
import { worktreePanelSource } from './state/worktrees.js';
import { Working } from './components/Working.js';
import { Welcome } from './components/Welcome.js';
import { welcomeOf } from './state/welcome.js';
import { useImageInput } from './image-source.js';
import type { Completer, ConversationItem, InputHistory } from './types.js';
export type { PermissionBridge } from './state/use-questions.js';

export interface AppProps {
  session: AgentSession;
  /** Opens another session (a fresh one, or a saved one) with the same settings and bridge; `worktreePath`: an existing seek worktree the new session works in. */
  openSession: (options: { resume?: string; worktreePath?: string }) => Promise<AgentSession>;
  bridge: PermissionBridge;
  history: InputHistory;
  fileSearch: (query: string) => ReturnType<Completer['files']>;
  firstPrompt?: string;
  firstImages?: ToolImage[]; // `-i` images of the first prompt, loaded and checked by run.tsx
  color: boolean;
  /** Told about every session the app switches to, so the launcher closes the right one. */
  onSessionChange: (session: AgentSession) => void;
}

const HEADER_ID = '__header__';
/** How long the status bar says "✓ agent done" after a child ends. */
const AGENT_DONE_MS = 2000;

export function App(props: AppProps) {
  const { exit } = useApp();
  const width = useTerminalWidth();
  const rows = useTerminalRows();
  const [session, setSession] = useState(props.session);
  const { conversation, dispatch, subagents } = useSessionState(session);
  const { permission, setPermission, review, setReview, elicitation } = useQuestions(props.bridge, session.mcp);
  // Any question (an MCP server's form too) owns the keyboard until it is answered.
  const pending = permission ?? review ?? elicitation;
  // Pickers, Ctrl+T and /agents open on the alternate screen (as Ctrl+O's transcript does).
  const scrollback = useScrollback(conversation.committed);
  const [picker, setPicker] = useAlternateView<PickerSpec>(scrollback, 'picker');
  // The input's text while a picker or panel hides the editor, and a command's draft (a rewound prompt).
  const draft = useDraft();
  const { put: putDraft, clear: clearDraft } = draft;
  const [openedPanel, setPanel] = useAlternateView<PanelSpec>(scrollback, 'panel', onAlternateScreen);
  const [busy, setBusy] = useState<{ label: string; controller: AbortController }>();
  // The queue and "a prompt is in flight" are refs, read and written synchronously by submit, the
  // queue effect and Esc alike; the state copies only make React re-render (and re-run the queue
  // effect when a run ends, which changes no other state when the turn's events came first).
  const queueRef = useRef<string[]>([]);
  const [queue, setQueueState] = useState<string[]>([]);
  const setQueue = useCallback((items: string[]) => {
    queueRef.current = items;
    setQueueState(items);
  }, []);
  const [runsEnded, setRunsEnded] = useState(0);
  const exitArming = useExitArming(exit);
  const { hint: exitHint, armOrExit } = exitArming;
  const [, setModeVersion] = useState(0);
  const runRef = useRef<AbortController | undefined>(undefined);
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const subagentsRef = useRef(subagents);
  subagentsRef.current = subagents;
  const todos = useTodos(session);
  const worktrees = session.worktrees;
  const worktreeSource = useMemo(() => (worktrees ? worktreePanelSource(worktrees) : undefined), [worktrees]);
  const saveFiles = useMemo(() => (session.seekHome && session.projectRoot ? saveFilesOf(session.seekHome, session.projectRoot) : DEFAULT_SAVE_FILES), [session]);
  // A worktrees panel needs the session's manager (a switched-to session may have none).
  const panel = openedPanel?.kind === 'worktrees' && !worktreeSource ? undefined : openedPanel;
  const welcome = useMemo(() => welcomeOf(session), [session]);
  const agentDone = useRecent(subagents.lastEndedAt, AGENT_DONE_MS);
  useEffect(() => session.policy.subscribe(() => setModeVersion((v) => v + 1)), [session]);

  const notice = useCallback((text: string, level: 'info' | 'warn' | 'error' = 'info') => dispatch({ type: 'notice', level, text }), [dispatch]);
  const imageInput = useImageInput(sessionRef, notice);

  // A new conversation never clears the terminal: a marker line, then (resumed) its history.
  const startAfter = useCallback(
    (marker: string, items: ConversationItem[]) => {
      scrollback.startAfter({ kind: 'notice', id: `m${Date.now()}`, level: 'info', text: marker }, items);
      dispatch({ type: 'reset', items: [] });
    },
    [scrollback, dispatch],
  );

  const send = useCallback(async (text: string, shown?: string) => {
    if (shown !== undefined) dispatch({ type: 'show-next', text: shown });
    const controller = new AbortController(), images = imageInput.take(text);
    runRef.current = controller;
    try {
      const summary = await sessionRef.current.prompt(text, controller.signal, images ? { images } : {});
      if (summary.commandFailed) notice(summary.errorMessage ?? 'the command failed', 'error');
    } catch (error) {
      notice(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      runRef.current = undefined;
      setRunsEnded((count) => count + 1);
    }
  }, [notice, dispatch, imageInput]);

  // Messages typed while a turn runs wait, then go one after another.
  useEffect(() => {
    if (conversation.running || runRef.current || queueRef.current.length === 0 || pending) return;
    const [next, ...rest] = queueRef.current;
    setQueue(rest);
    // A queued custom command shows as typed too (the reducer keeps a text the model got as is).
    void send(next!, next!.startsWith('/') ? next : undefined);
  }, [conversation.running, queue, pending, send, setQueue, runsEnded]);

  const commandContext: CommandContext = useMemo(
    () => ({
      session,
      width,
      notice,
      async switchSession(options) {
        try {
          const previous = sessionRef.current;
          // /clear inside a worktree: the new session goes on working there.
          const stay = options.resume ? undefined : previous.worktree?.path;
          const next = await props.openSession({ ...options, ...(stay ? { worktreePath: stay } : {}) });
          await previous.close({ handOver: stay !== undefined && next.worktree?.path === stay });
          if (options.draft !== undefined) putDraft(options.draft);
          setSession(next);
          props.onSessionChange(next);
          const marker = options.fork ? `── conversation rewound · session ${next.id} ──` : options.resume ? `── resumed session ${next.id} ──` : `── new conversation · session ${next.id} ──`;
          // A rewound conversation is the start of the one above it, already on the screen.
          startAfter(marker, options.fork ? [] : shownItems(next));
          for (const line of previous.closingNotes) notice(line);
        } catch (error) {
          notice(error instanceof Error ? error.message : String(error), 'error');
        }
      },
      openPicker: setPicker,
      openPanel(next) {
        setPicker(undefined);
        setPanel(next);
      },
      subagents: () => subagentsRef.current,
      async runBusy(label, task) {
        const controller = new AbortController();
        setBusy({ label, controller });
        try {
          return await task(controller.signal);
        } finally {
          setBusy(undefined);
        }
      },
      exit: () => exit(),
    }),
    [session, width, notice, props, startAfter, exit, putDraft],
  );

  const doubleEscape = useDoubleEscape(session, runRef, useCallback(() => void openRewind(commandContext), [commandContext]));

  const submit = useCallback(
    (text: string, shown?: string) => {
      props.history.add(text);
      clearDraft();
      const parsed = parseSlashCommand(text);
      if (parsed && 'unknown' in parsed) {
        if (findInvocable(parsed.unknown, sessionRef.current.customCommands ?? [])) {
          // A custom command: the session expands it when the prompt runs (queued like any prompt);
          // the transcript shows it as typed, its expanded body only in Ctrl+O.
          if (conversation.running || runRef.current) setQueue([...queueRef.current, text]);
          else void send(text, text);
          return;
        }
        if (!parsed.unknown.startsWith('mcp__')) return notice(`unknown command /${parsed.unknown}; try /help`, 'warn');
        // A server prompt (/mcp__server__prompt ARGS): its text goes to the model as the prompt.
        const args = text.slice(parsed.unknown.length + 1);
        void sessionRef.current.mcp.promptText(parsed.unknown, args, new AbortController().signal).then(
          (prompt) => (conversation.running || runRef.current ? setQueue([...queueRef.current, prompt]) : void send(prompt)),
          (error: unknown) => notice(error instanceof Error ? error.message : String(error), 'error'),
        );
        return;
      }
      if (parsed) {
        if (conversation.running && !parsed.command.whileRunning) {
          return notice(`/${parsed.command.name} waits until the turn finishes (esc cancels it)`, 'warn');
        }
        void Promise.resolve(parsed.command.run(commandContext, parsed.args)).catch((error: unknown) =>
          notice(error instanceof Error ? error.message : String(error), 'error'),
        );
        return;
      }
      if (conversation.running || runRef.current) setQueue([...queueRef.current, text]);
      else void send(text, shown);
    },
    [props.history, clearDraft, notice, conversation.running, commandContext, send, setQueue],
  );

  const firstPromptSent = useRef(false);
  useEffect(() => {
    if (firstPromptSent.current) return;
    firstPromptSent.current = true;
    if (session.history.length > 0) dispatch({ type: 'reset', items: shownItems(session) });
    if (props.firstPrompt) imageInput.onSubmit(submit)(props.firstPrompt, undefined, props.firstImages?.length ? props.firstImages : undefined);
  }, [session, props.firstPrompt, props.firstImages, submit, dispatch, imageInput]);

  /** True when there was something running to cancel. A run already cancelled but still winding
   * down (its end-of-turn checkpoint, the session file) is not: Ctrl+C then arms the exit. */
  const cancelRun = useCallback((): boolean => {
    if (busy && !busy.controller.signal.aborted) {
      busy.controller.abort();
      return true;
    }
    if (runRef.current && !runRef.current.signal.aborted) {
      runRef.current.abort();
      return true;
    }
    return false;
  }, [busy]);

  /** Esc (or Ctrl+C on an empty prompt) while a turn runs: cancels it, and the prompts queued
   * behind it go back into the input instead of being sent. */
  const interruptRun = useCallback((): boolean | string => {
    if (!cancelRun()) return false;
    const queued = queueRef.current;
    if (queued.length === 0) return true;
    setQueue([]);
    return queued.join('\n');
  }, [cancelRun, setQueue]);

  useBackgroundAgents({ session, idle: !conversation.running && !runRef.current && !busy && queue.length === 0 && !pending, send, notice });
  useGlobalKeys({
    permission,
    closePermission: () => setPermission(undefined),
    questionOpen: Boolean(pending),
    // The input editor owns Ctrl+C while it is shown (it clears a draft first).
    editorShown: !pending && !panel && !picker,
    pickerOpen: Boolean(picker),
    closePicker: () => setPicker(undefined),
    cancelRun,
    exitArming,
    cycleMode: () => session.policy.cycleMode(),
    toggleToolOutput: () => {
      // The latest tool row's whole output, without reprinting the session; again closes it.
      setPicker(undefined);
      setPanel((current) => (current?.kind === 'tool-output' ? undefined : { kind: 'tool-output' }));
    },
    toggleDetail: () => scrollback.setFullScreen(!scrollback.fullScreen),
  });

  const slash = useMemo(() => sessionSlashCompleter(session), [session]);
  const completer: Completer = useMemo(() => ({ slash, files: props.fileSearch }), [slash, props.fileSearch]);

  const options = { width, detail: false, color: props.color };
  // An agent row shows what its child does (running) or its child's numbers (finished).
  const agentsOf = (item: ConversationItem) =>
    item.kind === 'tool' && (item.name === 'agent' || item.name === 'delegate_tasks') ? childrenOfCall(subagents, item.id) : undefined;
  // The live area never reaches the terminal's height (see state/live-layout.ts): the live items
  // are laid out here, so their rows are counted exactly and clipped to their share.
  const live = useMemo(
    () => liveRows(conversation.live, options, agentsOf),
    [conversation.live, width, props.color, subagents],
  );
  const working = conversation.running || Boolean(busy);
  const layout = screenLayout({
    ...{ rows, width, working, exitHint: exitHint || doubleEscape.hint, queued: queue, menuRows: MENU_ROWS, liveRows: live.length, todoRows: todoPanelRows(todos.length) },
    ...(conversation.retry ? { retryMessage: conversation.retry.message } : {}),
    dialog: pending || picker ? 'question' : panel ? 'panel' : false,
  });
  const header: ConversationItem = { kind: 'notice', id: HEADER_ID, level: 'info', text: '' };

  return (
    <Box flexDirection="column">
      <Static items={[header, ...scrollback.printed]}>
        {(item) =>
          item.id === HEADER_ID ? (
            <Welcome key={item.id} info={welcome} width={width} color={props.color} />
          ) : (
            // Wider than any terminal: Ink must not break the long lines kept whole for the scrollback.
            // One blank line between turns: above each prompt.
            <Box key={item.id} width={scrollbackWidth(item, width)} marginTop={item.kind === 'user' ? 1 : 0}>
              <ConversationItemView item={item} options={{ ...options, keepLongLines: true }} agents={agentsOf(item)} />
            </Box>
          )
        }
      </Static>
      {scrollback.fullScreen ? (
        <TranscriptView printed={scrollback.all} live={conversation.live} agentsOf={agentsOf} width={width} rows={rows} color={props.color} onClose={() => scrollback.setFullScreen(false)} />
      ) : null}
      {scrollback.fullScreen ? null : (
        <>
          <LiveItems rows={live} maxRows={layout.live} />
          {working ? <Working label={busy?.label} retry={conversation.retry} color={props.color} /> : null}
          <TodoPanel items={todos} width={width} color={props.color} maxRows={layout.todo} />
          {queue.map((text, index) => (
            <Text key={`q${index}`} dimColor>
              › {text} (queued)
            </Text>
          ))}
          <OpenPanel
            panel={panel}
            session={session}
            worktreeSource={worktreeSource}
            saveFiles={saveFiles}
            items={[...conversation.committed, ...conversation.live]}
            subagents={subagents}
            width={width}
            maxRows={layout.bottom}
            color={props.color}
            active={!pending}
            onClose={() => setPanel(undefined)}
            notice={notice}
          />
          {permission ? (
            <PermissionPrompt
              request={permission.request}
              width={width}
              color={props.color}
              files={saveFiles}
              maxRows={layout.bottom}
              onAnswer={(answer) => {
                permission.resolve(answer);
                setPermission(undefined);
              }}
            />
          ) : review ? (
            <PlanReviewPrompt
              request={review.request}
              width={width}
              maxRows={layout.bottom}
              color={props.color}
              onDecide={(decision) => {
                review.resolve(decision);
                setReview(undefined);
              }}
            />
          ) : elicitation ? (
            <ElicitationPrompt key={elicitation.id} request={elicitation.request} width={width} color={props.color} maxRows={layout.bottom} onAnswer={elicitation.answer} />
          ) : panel ? null : picker ? (
            <Picker spec={picker} width={width} color={props.color} maxRows={layout.bottom} onDone={() => setPicker(undefined)} />
          ) : (
            <InputEditor
              key={`editor${draft.key}`}
              {...(draft.initialText ? { initialText: draft.initialText } : {})}
              onChange={draft.onChange}
              onSubmit={imageInput.onSubmit(submit)} {...imageInput.editor}
              history={props.history}
              completer={completer}
              active={!pending && !picker && !panel}
              width={width}
              maxRows={layout.editor.textRows}
              menuRows={layout.editor.menuRows}
              prefix="› "
              placeholder={conversation.running ? 'type to queue a message' : 'ask seek, / for commands, @ for files'}
              onEscape={(empty) => doubleEscape.press(empty, interruptRun())}
              onInterrupt={() => {
                const outcome = interruptRun();
                if (outcome !== false) return outcome;
                armOrExit();
                return true;
              }}
            />
          )}
          {exitHint ? <Text dimColor>press ctrl+c again to exit</Text> : doubleEscape.hint ? <Text dimColor>press esc again to rewind</Text> : null}
          <StatusBar
            width={width}
            color={props.color}
            info={statusInfo(session, conversation, subagents, { running: working, agentDone, queued: queue.length })}
          />
        </>
      )}
    </Box>
  );
}
