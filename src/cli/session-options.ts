import { InvalidArgumentError, Option, type Command } from 'commander';
import type { OpenSessionOptions } from '../runtime/session.js';
import type { RootOptions } from './root-options.js';

/** Maps parsed root flags to the runtime's session options. */
export function sessionOptionsFrom(options: RootOptions & { auto?: boolean }, extra: Pick<OpenSessionOptions, 'interactive'> & Partial<OpenSessionOptions>): OpenSessionOptions {
  return {
    cwd: process.cwd(),
    env: process.env,
    maxTurns: options.maxTurns,
    ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
    save: options.save,
    yolo: options.yolo === true,
    ...(options.auto ? { auto: true } : {}),
    plan: options.plan === true,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    ...(options.continue ? { continueLatest: true } : {}),
    // --worktree-branch NAME alone implies --worktree: the branch of a worktree nobody asked for
    // could only be an error, and the intent is plain.
    ...(options.worktree || options.worktreeBranch ? { worktree: options.worktreeBranch ?? true } : {}),
    ...extra,
  };
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

/** The flags of anything that runs a session (`seek`, `seek run`): output, permissions, model, limits. */
export function addSessionFlags(command: Command): Command {
  return command
    .addOption(new Option('--output-format <format>', 'headless output').choices(['text', 'json', 'stream-json']).default('text'))
    .addOption(new Option('--yolo', 'allow every action without asking; commands run unsandboxed').conflicts('auto'))
    .option('--auto', 'edits and commands inside the project without asking, commands in the OS sandbox; anything more is asked (denied headless)')
    .option('--model <name>', "model name (default: the provider's default)")
    .addOption(new Option('--provider <name>', 'model provider').choices(['deepseek', 'openai', 'anthropic', 'openai-compatible']))
    .option('--base-url <url>', 'provider base URL (local or proxy servers)')
    .option('--max-turns <n>', 'stop after this many model turns', positiveInt, 200)
    .option('--resume <sid>', "continue a saved session (a subagent's sub-sid too)")
    .option('-w, --worktree', 'work in a fresh git worktree (your working tree is not touched); bring the work back with seek worktree merge')
    .option('--worktree-branch <name>', 'the branch of the --worktree worktree (default seek/wt/<id>); implies --worktree')
    .option('--no-save', 'do not write the session to disk')
    .option('--verbose', 'headless text mode: show tool activity on stderr');
}
