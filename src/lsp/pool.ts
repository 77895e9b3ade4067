/**
 * The language servers of a session (and its subagents): started on demand, one per server and
 * tree (the project, or a worktree), under the same rules as commands: in the OS sandbox with the
 * profile of the session's mode (read-only in plan mode), its environment filtered the same way;
 * unsandboxed only where commands are (yolo). A server that cannot start, crashes or never answers
 * is remembered with why, and costs a note, once.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { CommandSpawn } from '../agent/types.js';
import type { SandboxLauncher } from '../sandbox/index.js';
import { findProgram, sandboxEnvironment } from '../sandbox/index.js';
import type { LspSettings, ServerSpec } from './config.js';
import { pullsDiagnostics } from './pull.js';
import type { LanguageServer } from './server.js';

/** How long a server may take to answer `initialize` before it counts as hung. */
export const INIT_TIMEOUT_MS = 60_000;
/** A server that crashed after running is started again this many times per tree. */
const RESTARTS = 2;

export interface PoolOptions {
  settings: LspSettings;
  env: NodeJS.ProcessEnv;
  /** The session's mode, read at each start (plan: read-only sandbox; yolo: unsandboxed). */
  policy: { readonly mode: string; readonly preference: string };
  sandbox?: Pick<SandboxLauncher, 'available' | 'forCall'>;
  sandboxReady?: () => Promise<void>;
  initTimeoutMs?: number;
}

export interface ServerStatus {
  name: string;
  root?: string;
  state: string;
  pid?: number;
  sandbox?: string;
  problem?: string;
  documents?: number;
}

interface Entry {
  spec: ServerSpec;
  root: string;
  profile: string;
  server: LanguageServer;
  restarts: number;
}

export class ServerPool {
  readonly #entries = new Map<string, Entry>();
  /** Servers that could not be started here at all (program not found), by name. */
  readonly #missing = new Map<string, string>();
  #stopped = false;

  constructor(private readonly options: PoolOptions) {}

  /** The configured server for a file, by extension. */
  specFor(file: string): ServerSpec | undefined {
    const ext = path.extname(file).slice(1).toLowerCase();
    return ext === '' ? undefined : this.options.settings.servers.find((spec) => spec.extensions.includes(ext));
  }

  /** The server for `spec` in `root`, started when needed; a string saying why there is none. */
  async serverFor(spec: ServerSpec, root: string): Promise<LanguageServer | string> {
    if (this.#stopped) return 'language servers are stopped';
    const missing = this.#missing.get(spec.name);
    if (missing) return missing;
    await this.options.sandboxReady?.();
    const profile = this.#profile();
    const key = `${spec.name}\0${root}`;
    const entry = this.#entries.get(key);
    if (entry && entry.profile === profile && (entry.server.state === 'starting' || entry.server.state === 'running')) return entry.server;
    if (entry && entry.profile === profile && entry.server.state === 'failed' && entry.restarts >= RESTARTS) {
      return `the ${spec.name} language server ${entry.server.problem ?? 'failed'}`;
    }
    if (entry) void entry.server.stop();
    const started = await this.#start(spec, root, profile);
    if (typeof started === 'string') return started;
    // A restart after a crash counts; a restart for another mode (plan) does not.
    const restarts = entry && entry.profile === profile ? entry.restarts + 1 : 0;
    this.#entries.set(key, { spec, root, profile, server: started, restarts });
    return started;
  }

  async #start(spec: ServerSpec, root: string, profile: string): Promise<LanguageServer | string> {
    const [program, ...args] = spec.command as [string, ...string[]];
    const file = program.includes('/') ? path.resolve(root, program) : findProgram(program, this.options.env);
    if (!file || !existsSync(file)) {
      const why = `${program} not found${program.includes('/') ? '' : ' on PATH'}: no diagnostics for .${spec.extensions.join(', .')} files (set "lsp" in config.json to name another server, or false to turn it off)`;
      this.#missing.set(spec.name, why);
      return why;
    }
    const inProject = !program.includes('/') && profile !== 'none' ? projectProgram(path.resolve(file), root) : undefined;
    if (inProject !== undefined) {
      const why = `${program} was found on PATH inside the project (${inProject}): seek does not start a repository's own program as a language server outside yolo mode; name it in config.json's "lsp" to use it`;
      this.#missing.set(spec.name, why);
      return why;
    }
    const base: CommandSpawn = { file, args, cwd: root, env: { ...this.options.env, SEEK_AGENT: '1' } };
    const { LanguageServer } = await import('./server.js');
    const spawnSpec = this.#wrap(base, profile, root);
    const pulls = pullsDiagnostics([file, ...args]);
    return new LanguageServer(spec.name, root, spawnSpec, initializationOptions(spec, file, root, profile), this.options.initTimeoutMs ?? INIT_TIMEOUT_MS, pulls);
  }

  /** 'none' (yolo: like commands, unsandboxed), else the sandbox profile of the mode. */
  #profile(): string {
    const { policy, sandbox } = this.options;
    if (policy.mode === 'plan') return sandbox?.available ? 'read-only' : 'env-only';
    if (policy.preference === 'yolo') return 'none';
    return sandbox?.available ? 'workspace-write' : 'env-only';
  }

  #wrap(base: CommandSpawn, profile: string, root: string): CommandSpawn {
    if (profile === 'none') return base;
    if (profile === 'env-only' || !this.options.sandbox) return { ...base, env: sandboxEnvironment(base.env, [], { SEEK_AGENT: '1' }) };
    return this.options.sandbox.forCall(profile as 'read-only' | 'workspace-write', root).wrap(base);
  }

  status(): ServerStatus[] {
    const out: ServerStatus[] = [];
    for (const { spec, root, profile, server } of this.#entries.values()) {
      out.push({
        name: spec.name,
        root,
        state: server.state,
        ...(server.pid !== undefined ? { pid: server.pid } : {}),
        sandbox: profile === 'none' ? 'unsandboxed (yolo)' : profile === 'env-only' ? 'no OS sandbox (environment filtered)' : profile,
        ...(server.problem ? { problem: server.problem } : {}),
        documents: server.openDocuments().length,
      });
    }
    for (const spec of this.options.settings.servers) {
      if (out.some((status) => status.name === spec.name)) continue;
      const missing = this.#missing.get(spec.name);
      out.push({ name: spec.name, state: missing ? 'not found' : 'not started', ...(missing ? { problem: missing } : {}) });
    }
    return out;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const servers = [...this.#entries.values()].map((entry) => entry.server);
    this.#entries.clear();
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Where `file` lies inside the tree `root` (relative, for the note), or undefined when outside it. */
function projectProgram(file: string, root: string): string | undefined {
  const real = (target: string): string => {
    try {
      return realpathSync(target);
    } catch {
      return target;
    }
  };
  const relative = path.relative(real(root), real(file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : undefined;
}

/** typescript-language-server needs tsserver: the project's own when it has one (the server finds
 * it) and may run it (in the OS sandbox, or in yolo mode), else the one installed next to the
 * server: without a sandbox, a repository's node_modules/typescript is code seek does not run
 * unasked. */
export function initializationOptions(spec: ServerSpec, program: string, root: string, profile: string): Record<string, unknown> | undefined {
  if (spec.initializationOptions || !spec.builtin || spec.name !== 'typescript') return spec.initializationOptions;
  // Never the syntax-only server: it answers early questions (definition) before the project loaded.
  const never = { useSyntaxServer: 'never' };
  const projectOwn = existsSync(path.join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js'));
  if (projectOwn && profile !== 'env-only') return { tsserver: never };
  const beside = path.join(path.dirname(path.dirname(program)), 'typescript', 'lib', 'tsserver.js');
  return { tsserver: existsSync(beside) ? { ...never, path: beside } : never };
}
