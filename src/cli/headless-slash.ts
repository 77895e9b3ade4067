/**
 * Slash commands in a headless prompt (`seek -p "/name args"`). The rule for what is a command:
 * the prompt starts with `/` followed by a word with no other `/` in it (`/review 42`, `/help`),
 * that is not, as a whole, an existing path (`/tmp is full` stays a prompt, as does
 * `/usr/bin/foo is broken`). `//text` sends `/text` to the model as it is. Such a word is, in order:
 *  1. a built-in: `/help`, `/cost`, `/compact [FOCUS]` and `/skills` run here, without the model;
 *     the terminal UI's others (`/model`, `/resume`…) exit 2 naming the flag or subcommand to use;
 *  2. a custom command or skill (the session expands and runs it, runtime/custom-commands.ts);
 *  3. an MCP prompt, `/mcp__<server>__<prompt> ARGS`: its text is sent as the prompt;
 *  4. otherwise an error, exit 2, with the nearest known name (edit distance) when there is one:
 *     nothing goes to the model.
 */
import { existsSync } from 'node:fs';
import { distance } from 'fastest-levenshtein';
import { customCommandLines, skillsListing } from '../frontends/extensions-list.js';
import type { AgentSession } from '../runtime/session.js';
import { findInvocable } from '../extensions/invocable.js';

/** What the prompt's slash word is. */
export type SlashPrompt = { kind: 'prompt'; text: string } | { kind: 'command'; word: string; args: string };

export function readSlashPrompt(prompt: string): SlashPrompt {
  if (prompt.startsWith('//')) return { kind: 'prompt', text: prompt.slice(1) };
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(prompt);
  if (!match) return { kind: 'prompt', text: prompt };
  return { kind: 'command', word: match[1]!, args: (match[2] ?? '').trim() };
}

/** The built-ins that run headless, with their usage and description (for /help). */
const HEADLESS_BUILTINS: ReadonlyArray<readonly [string, string, string]> = [
  ['help', '', 'the slash commands of this project'],
  ['cost', '', 'tokens and cost of this session (of the continued one with --continue or --resume)'],
  ['compact', '[FOCUS]', 'summarise the history of the continued session (--continue or --resume)'],
  ['skills', '', 'the installed skills'],
];

/** The terminal UI's other built-ins, and what to use instead in a headless run. */
const INTERACTIVE_ONLY: ReadonlyMap<string, string> = new Map(Object.entries({
  model: 'use --model NAME',
  ask: 'headless runs ask nobody; use --auto, --yolo or --plan',
  auto: 'use --auto',
  yolo: 'use --yolo',
  plan: 'use --plan',
  resume: 'use --resume SID or --continue',
  rewind: 'use seek rewind',
  clear: 'a headless run starts a new session unless --continue or --resume',
  agents: 'use seek subagent list',
  worktrees: 'use seek worktree list',
  memory: 'use seek memory list',
  distill: 'use seek distill',
  hooks: 'use seek hooks list',
  permissions: 'use seek permissions list',
  mcp: 'use seek mcp list',
  lsp: 'language servers start when an edit needs them; see docs/lsp.md',
  exit: 'a headless run ends by itself',
  quit: 'a headless run ends by itself',
}));

/** Claude Code built-ins seek does not have: named as such rather than guessed at. */
const CLAUDE_ONLY = new Set(['init', 'config', 'doctor', 'login', 'logout', 'status', 'bug', 'add-dir', 'review', 'pr_comments', 'vim', 'terminal-setup', 'export', 'context', 'statusline', 'upgrade']);

/** Every built-in name this module knows (the terminal UI's table must match, a unit test checks). */
export function builtinNames(): string[] {
  return [...HEADLESS_BUILTINS.map(([name]) => name), ...INTERACTIVE_ONLY.keys()];
}

export type SlashOutcome =
  /** Send this to the model (the session expands a custom command or skill itself). */
  | { kind: 'prompt'; text: string }
  /** Ran here: print `text` as the run's result. */
  | { kind: 'local'; text: string }
  /** Bad usage: print `message`, exit 2, nothing sent. */
  | { kind: 'usage'; message: string };

/** Decides (and for built-ins, runs) what a headless prompt starting with `/` does. */
export async function runSlashPrompt(prompt: string, session: AgentSession, signal: AbortSignal): Promise<SlashOutcome> {
  const slash = readSlashPrompt(prompt);
  if (slash.kind === 'prompt') return slash;
  const { word, args } = slash;
  const builtin = HEADLESS_BUILTINS.find(([name]) => name === word);
  if (builtin) return { kind: 'local', text: await runBuiltin(word, args, session, signal) };
  const instead = INTERACTIVE_ONLY.get(word);
  if (instead) return { kind: 'usage', message: `/${word} works in the interactive terminal UI only; in a headless run ${instead}.` };
  if (findInvocable(word, session.customCommands) || session.unloadedCommands.some((entry) => entry.name === word)) return { kind: 'prompt', text: prompt };
  if (word.startsWith('mcp__')) {
    try {
      return { kind: 'prompt', text: await session.mcp.promptText(word, args, signal) };
    } catch (error) {
      return { kind: 'usage', message: (error as Error).message };
    }
  }
  // A whole absolute path (`/tmp is full`) is a prompt about it; so is a refused command's name,
  // which the session reports (runtime/custom-commands.ts).
  if (existsSync(`/${word}`)) return { kind: 'prompt', text: prompt };
  if (CLAUDE_ONLY.has(word)) return { kind: 'usage', message: `/${word} is a Claude Code command seek does not have. ${closing(word)}` };
  await settleMcp(session);
  const near = nearest(word, knownNames(session));
  return { kind: 'usage', message: `unknown command /${word}.${near ? ` Did you mean /${near}?` : ''} ${closing(word)}` };
}

function closing(word: string): string {
  return `seek -p "/help" lists the commands; to send a prompt that starts with a slash, double it: seek -p "//${word} …".`;
}

async function settleMcp(session: AgentSession): Promise<void> {
  if (session.mcp.active) await session.mcp.settle(5000);
}

function knownNames(session: AgentSession): string[] {
  return [
    ...builtinNames(),
    ...session.customCommands.flatMap((command) => [command.name, ...(command.namespaced ? [command.namespaced] : [])]),
    ...session.mcp.promptCommands().map((prompt) => prompt.name),
  ];
}

/** The nearest name: at most a third of the longer word's letters apart (at least 1, at most 3). */
export function nearest(word: string, names: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  const lower = word.toLowerCase();
  for (const name of names) {
    const d = distance(lower, name.toLowerCase());
    const allowed = Math.min(3, Math.max(1, Math.floor(Math.max(lower.length, name.length) / 3)));
    if (d <= allowed && (best === undefined || d < best.d)) best = { name, d };
  }
  return best?.name;
}

async function runBuiltin(word: string, args: string, session: AgentSession, signal: AbortSignal): Promise<string> {
  switch (word) {
    case 'cost':
      return session.costReport();
    case 'compact': {
      const event = await session.compact(args || undefined, signal);
      return event?.type === 'compaction' ? `compacted: ${event.replacedMessages} messages replaced by a summary` : 'nothing to compact yet (use --continue or --resume to compact a saved session)';
    }
    case 'skills':
      return skillsListing(session.skills);
    default:
      return helpText(session);
  }
}

async function helpText(session: AgentSession): Promise<string> {
  await settleMcp(session);
  const pad = (name: string, usage: string) => `/${`${name}${usage ? ` ${usage}` : ''}`.padEnd(22)}`;
  const lines = ['Slash commands (seek -p "/NAME args"):', ...HEADLESS_BUILTINS.map(([name, usage, what]) => `  ${pad(name, usage)} ${what}`)];
  const custom = session.customCommands.filter((command) => !HEADLESS_BUILTINS.some(([name]) => name === command.name) && !INTERACTIVE_ONLY.has(command.name));
  if (custom.length > 0) lines.push('', 'Custom commands and skills', ...customCommandLines(custom));
  const prompts = session.mcp.promptCommands();
  if (prompts.length > 0) lines.push('', 'MCP prompts', ...prompts.map((prompt) => `  ${pad(prompt.name, prompt.arguments.join(' '))} ${prompt.description}`));
  lines.push('', `Interactive only: ${[...INTERACTIVE_ONLY.keys()].map((name) => `/${name}`).join(' ')}`, 'A prompt that starts with a slash: //text sends /text.');
  return lines.join('\n');
}
