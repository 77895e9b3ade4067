/**
 * Running a custom slash command (`/name args`) as a prompt: finds the command, expands its body
 * (extensions/command-text.ts) with `` !`cmd` `` and `@file` going through the session's tool gate
 * (permission policy, pre/post_tool hooks, approvals) exactly like the model's bash and read_file
 * calls, and says which model and tool limit the turn runs with.
 */
import { stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { Tool, ToolContext, ToolResult } from '../agent/types.js';
import type { ToolGate } from '../policy/tool-gate.js';
import { expandCommandText, type Outcome } from '../extensions/command-text.js';
import { readCommandBody, type CustomCommand, type UnloadedCommand } from '../extensions/commands.js';
import type { ToolLimit } from '../extensions/allowed-tools.js';
import { findInvocable } from '../extensions/invocable.js';
import { displayPath, resolvePath } from '../tools/paths.js';
import { monotonicMs } from '../util/clock.js';
import { readTrustedFile } from '../util/trusted-read.js';

/** Bytes of one `@file` included at most (the rest is cut, and said so). */
const MAX_INCLUDED_FILE_BYTES = 64 * 1024;

export interface CommandRun {
  command: CustomCommand;
  /** The prompt to send. */
  text: string;
  model?: string;
  /** The turn's tools narrow to this (its grants are already in force). */
  limit?: ToolLimit;
  /** For the user: grants held back, entries that grant nothing. */
  notices: string[];
}

export interface CommandDeps {
  tools: readonly Tool[];
  gate: ToolGate;
  workspace: () => { cwd: string; projectRoot: string };
  /** Puts the command's allowed-tools grants in force (before its `` !`cmd` `` run); notices back. */
  grant?: (limit: ToolLimit) => string[];
}

/** What a command's `@file` may name: a regular file inside the project, read through the
 * policy; a command the user installed (~/.seek, ~/.claude) may also name files outside it, which
 * the policy then judges (asked, allowed by a rule or --yolo, denied headless). Never /proc, /sys,
 * /dev, a FIFO or a device; links are resolved first and the policy judges the real file. */

/** What a prompt becomes: undefined for an ordinary prompt (or an unknown `/name`), else the
 * expanded command or why it could not be built. */
export async function commandTurn(
  text: string,
  session: {
    commands: readonly CustomCommand[];
    unloadedCommands?: readonly UnloadedCommand[];
    tools: readonly Tool[];
    gate: ToolGate;
    workspace: { readonly cwd: string; readonly root: string };
    scope: { grant(limit: ToolLimit): string[] };
  },
  signal: AbortSignal,
): Promise<CommandRun | { error: string } | undefined> {
  const invoked = text.startsWith('/') ? findCommand(text, session.commands) : undefined;
  if (!invoked) {
    // A command whose file was refused at start (a link out of the project, too large): its name
    // fails with the reason instead of going to the model as an ordinary prompt.
    const unloaded = text.startsWith('/') ? findUnloaded(text, session.unloadedCommands ?? []) : undefined;
    return unloaded ? { error: `/${unloaded.name} was not run: ${unloaded.reason}` } : undefined;
  }
  const { workspace } = session;
  const deps: CommandDeps = { tools: session.tools, gate: session.gate, workspace: () => ({ cwd: workspace.cwd, projectRoot: workspace.root }), grant: (limit) => session.scope.grant(limit) };
  return prepareCommandRun(invoked.command, invoked.args, deps, signal);
}

/** The custom command `text` invokes (`/name` or `/name args`), if any. */
export function findCommand(text: string, commands: readonly CustomCommand[]): { command: CustomCommand; args: string } | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const command = findInvocable(match[1]!, commands);
  return command ? { command, args: match[2] ?? '' } : undefined;
}

function findUnloaded(text: string, unloaded: readonly UnloadedCommand[]): UnloadedCommand | undefined {
  const name = /^\/(\S+)/.exec(text.trim())?.[1];
  return name === undefined ? undefined : unloaded.find((entry) => entry.name === name);
}

/** The expanded prompt, or why it could not be built (nothing is sent then). */
export async function prepareCommandRun(command: CustomCommand, args: string, deps: CommandDeps, signal: AbortSignal): Promise<CommandRun | { error: string }> {
  const read = await readCommandBody(command);
  if ('error' in read) return { error: `/${command.name}: ${read.error}` };
  const by = command.skillDir ? `skill "${command.name}"` : `command /${command.name}`;
  const grant = command.allowedToolsText ? { file: command.file, source: command.source, entries: command.allowedToolsText } : undefined;
  const limit: ToolLimit | undefined = command.allowedTools ? { by, tools: command.allowedTools, ...(grant ? { grant } : {}) } : undefined;
  // What it allows runs without asking from its `!cmd` on, as in Claude Code.
  const notices = limit ? (deps.grant?.(limit) ?? []) : [];
  const expanded = await expandCommandText(command.name, read.body, args, {
    run: (shell) => runThroughGate(deps, 'bash', { command: shell }, signal),
    read: (path) => readThroughGate(deps, path, command, signal),
  });
  if ('error' in expanded) return { error: [expanded.error, ...notices].join('\n') };
  return {
    command,
    // A skill run as /name reads as the skill tool's result does: its folder named for its files.
    text: command.skillDir ? `<skill name="${command.name}" dir="${command.skillDir}">\n${expanded.text}\n</skill>` : expanded.text,
    ...(command.model ? { model: command.model } : {}),
    ...(limit ? { limit } : {}),
    notices,
  };
}

function contextFor(deps: CommandDeps, signal: AbortSignal): ToolContext {
  const { cwd, projectRoot } = deps.workspace();
  return { cwd, projectRoot, signal, callId: `command_${randomBytes(6).toString('hex')}` };
}

/** Runs one tool call the way the loop would: validated, gated, executed, post_tool hooks. */
async function runThroughGate(deps: CommandDeps, toolName: string, rawArgs: Record<string, unknown>, signal: AbortSignal): Promise<Outcome<string>> {
  const tool = deps.tools.find((candidate) => candidate.name === toolName);
  if (!tool) return { ok: false, reason: `this session has no ${toolName} tool` };
  const parsed = tool.schema.safeParse(rawArgs);
  if (!parsed.success) return { ok: false, reason: `invalid ${toolName} arguments` };
  const args: unknown = parsed.data;
  const ctx = contextFor(deps, signal);
  const toolCall = { id: ctx.callId, name: toolName, arguments: JSON.stringify(rawArgs) };
  const decision = await deps.gate.before({ toolCall, tool, args, ctx });
  if (!decision.allow) return { ok: false, reason: decision.reason };
  const started = monotonicMs();
  let result: ToolResult;
  try {
    result = await tool.execute(decision.args ?? args, decision.sandbox ? { ...ctx, sandbox: decision.sandbox } : ctx);
  } catch (error) {
    return { ok: false, reason: `it failed (${error instanceof Error ? error.message : String(error)})` };
  }
  await deps.gate.after({ toolCall, tool, args, result, durationMs: monotonicMs() - started });
  // A command's own output (the model-facing text adds an exit-code line and notes).
  return { ok: true, value: result.display?.kind === 'command' ? result.display.output : result.content };
}

/**
 * `@path`: undefined unless it names a file (a mention such as `me@example.com` stays as written);
 * else read once the gate allows it, under the rule above CommandDeps. The gate is asked about the
 * real path (links resolved), the read is the trusted reader's (util/trusted-read.ts): the
 * descriptor must be a regular file, and at most MAX_INCLUDED_FILE_BYTES are read.
 */
async function readThroughGate(deps: CommandDeps, path: string, command: CustomCommand, signal: AbortSignal): Promise<Outcome<{ path: string; text: string }> | undefined> {
  const ctx = contextFor(deps, signal);
  const absolute = resolvePath(ctx, path);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) return undefined;
  const projectCommand = command.source.startsWith('project');
  // Where the file may be: inside the project for a project's command; anywhere the policy allows
  // for the user's own (then the trusted reader only keeps out /proc, /sys, /dev and special files).
  const within = projectCommand ? [ctx.projectRoot] : ['/'];
  const probe = await readTrustedFile(absolute, { within, maxBytes: 0, oversize: 'truncate', withinLabel: `the project (${ctx.projectRoot}), where a project's command may read` });
  if (!probe.ok) {
    if (probe.code === 'missing' || probe.code === 'directory') return undefined;
    return { ok: false, reason: `it ${probe.reason}` };
  }
  const real = probe.realPath;
  const tool = deps.tools.find((candidate) => candidate.name === 'read_file');
  if (!tool) return { ok: false, reason: 'this session has no read_file tool' };
  const args = { path: real };
  const decision = await deps.gate.before({ toolCall: { id: ctx.callId, name: 'read_file', arguments: JSON.stringify(args) }, tool, args, ctx });
  if (!decision.allow) return { ok: false, reason: decision.reason };
  const read = await readTrustedFile(real, { within, maxBytes: MAX_INCLUDED_FILE_BYTES, oversize: 'truncate' });
  if (!read.ok) return { ok: false, reason: `it ${read.reason}` };
  if (read.bytes.subarray(0, 8192).includes(0)) return undefined; // binary: left as written
  const text = read.text + (read.truncated ? `\n[cut: the file has ${read.size} bytes; read_file shows the rest]` : '');
  return { ok: true, value: { path: displayPath(ctx, absolute), text } };
}
