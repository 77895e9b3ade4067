import { colorEnabled, hyperlinksEnabled, restoreEnvironment } from './terminal-env.js';
import { join } from 'node:path';
import { render, type Instance } from 'ink';
import { ConfigError, readConfig, writeConfig } from '../config/config.js';
import { configFile, findProjectRoot, projectDir, seekHome } from '../config/paths.js';
import { openSession, type AgentSession, type OpenSessionOptions } from '../runtime/session.js';
import { attachImageFiles } from '../images/attach-files.js';
import { App, type PermissionBridge } from './App.js';
import { Setup, type SetupResult } from './components/Setup.js';
import { createFileIndex, createInputHistory, DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE } from './input/index.js';
import { UI_MAX_FPS } from './render-options.js';
import { TerminalCursor, TerminalCursorContext } from './terminal-cursor.js';
import { withUnlimitedRows } from './state/use-terminal-rows.js';
import { layoutEngineReady } from './layout-engine.js';
import { setHyperlinks } from './markdown/ansi.js';
import { setFileLinkRoot } from './markdown/file-links.js';
import { sessionWorkingDirectory } from './state/working-directory.js';

restoreEnvironment();

export interface TuiOptions {
  firstPrompt: string;
  /** `-i` paths: images attached to the first prompt (a bad one ends the run before the UI, exit 2). */
  images?: readonly string[];
  session: OpenSessionOptions;
}

/**
 * Runs the inline terminal UI until the user exits. This module (and with it Ink, the heaviest
 * import) is loaded only for interactive terminals; terminal-env.ts prepares the environment first.
 */
export async function runTui(options: TuiOptions): Promise<number> {
  const color = colorEnabled;
  setHyperlinks(hyperlinksEnabled);
  await layoutEngineReady();

  const bridge: PermissionBridge = {};
  const sessionOptions: OpenSessionOptions = {
    ...options.session,
    ask: (request, signal) => (bridge.ask ? bridge.ask(request, signal) : Promise.resolve('no')),
    reviewPlan: (request) => (bridge.reviewPlan ? bridge.reviewPlan(request) : Promise.resolve({ kind: 'reject', reason: 'the terminal UI is not ready' })),
  };
  const first = await openWithSetup(sessionOptions);
  if (!first) return 1;
  const attached = await attachImageFiles(options.images ?? [], first.cwd, first.provider, first.model);
  if ('error' in attached) {
    process.stderr.write(`seek: ${attached.error}\n`);
    await first.close();
    return 2;
  }

  const home = seekHome(options.session.env);
  const root = findProjectRoot(options.session.cwd);
  // The session's project id (config/paths.ts): never one a repository's files name.
  const history = createInputHistory(join(projectDir(home, first.projectId), 'input-history.jsonl'));
  const files = createFileIndex(root);
  let current: AgentSession = first;
  // Paths in answers link to the files of the session's working directory as it is at each render
  // (inside its worktree after enter_worktree; only where links are on: file-links.ts).
  setFileLinkRoot(() => sessionWorkingDirectory(current));

  let app: Instance | undefined;
  // Everything written while Ink runs goes through `cursor.stream`, which keeps the terminal's
  // cursor at the input editor's insertion point between frames.
  const cursor = new TerminalCursor(process.stdout);
  const restoreOnCrash = (error: unknown) => {
    app?.unmount();
    process.stderr.write(`\nseek: ${error instanceof Error ? (process.env.SEEK_DEBUG ? error.stack : error.message) : String(error)}\n`);
    process.exitCode = 1;
  };
  process.once('uncaughtException', restoreOnCrash);
  process.once('unhandledRejection', restoreOnCrash);
  // The terminal went away (window closed, ssh dropped): stop drawing, save and exit quietly.
  const hangUp = () => app?.unmount();
  const ignoreGoneTerminal = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EIO' && error.code !== 'EPIPE') throw error;
    hangUp();
  };
  process.once('SIGHUP', hangUp);
  process.stdout.on('error', ignoreGoneTerminal);
  try {
    process.stdout.write(ENABLE_BRACKETED_PASTE);
    app = render(
      <TerminalCursorContext.Provider value={cursor}>
        <App
          session={first}
          openSession={(extra) =>
            openSession({ ...sessionOptions, resume: extra.resume, continueLatest: false, ...(extra.worktreePath ? { continueInWorktree: extra.worktreePath } : {}) })
          }
          bridge={bridge}
          history={history}
          fileSearch={(query) => files.search(query)}
          firstPrompt={options.firstPrompt || undefined}
          firstImages={attached.images}
          color={color}
          onSessionChange={(session) => {
            current = session;
          }}
        />
      </TerminalCursorContext.Provider>,
      // Ink sees no terminal height, so it never clears the terminal (see withUnlimitedRows).
      { stdout: withUnlimitedRows(cursor.stream), exitOnCtrlC: false, patchConsole: true, maxFps: UI_MAX_FPS },
    );
    await app.waitUntilExit();
  } finally {
    cursor.dispose();
    process.stdout.write(DISABLE_BRACKETED_PASTE);
    files.dispose();
    await history.flush();
    process.off('uncaughtException', restoreOnCrash);
    process.off('unhandledRejection', restoreOnCrash);
    process.off('SIGHUP', hangUp);
    await current.close();
  }
  if (process.stdout.writable) for (const note of current.closingNotes) process.stdout.write(`${note}\n`);
  // Offered only for a session that has a file: `seek --resume` of one never saved fails.
  if (process.stdout.writable && current.saved) process.stdout.write(`session ${current.id} saved · resume with: seek --resume ${current.id}\n`);
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

/** Opens the session; with no key anywhere, runs the first-run setup once and tries again. */
async function openWithSetup(options: OpenSessionOptions): Promise<AgentSession | undefined> {
  try {
    return await openSession(options);
  } catch (error) {
    if (!(error instanceof ConfigError) || error.code !== 'missing_key') throw error;
    const home = seekHome(options.env);
    const result = await runSetup(configFile(home));
    if (!result) {
      process.stderr.write(`seek: ${error.message}\n`);
      return undefined;
    }
    const config = await readConfig(home);
    const providers = { ...(config.providers ?? {}) };
    providers[result.provider] = { ...(providers[result.provider] ?? {}), ...(result.apiKey ? { api_key: result.apiKey } : {}), ...(result.baseUrl ? { base_url: result.baseUrl } : {}) };
    await writeConfig(home, { ...config, default_provider: result.provider, providers });
    return openSession(options);
  }
}

async function runSetup(configPath: string): Promise<SetupResult | undefined> {
  let result: SetupResult | undefined;
  const instance = render(
    <Setup
      configPath={configPath}
      onDone={(value) => {
        result = value;
        instance.unmount();
      }}
    />,
    { exitOnCtrlC: true },
  );
  await instance.waitUntilExit();
  return result;
}
