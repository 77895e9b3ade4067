import { Command, InvalidArgumentError, Option } from 'commander';
import { readPipedInput } from './piped-input.js';
import { noteRunKind } from './run-kind.js';
import { configureExits } from './exits.js';
import { SEEK_VERSION } from '../util/version.js';
import type { RootOptions } from './root-options.js';
import { addSessionFlags } from './session-options.js';

const SUBCOMMAND_HELP = `
Subcommands:
  seek hooks list | check | trust [--reset] | audit       shell hooks (pre_tool, post_tool, …)
  seek subagent list | kill SUB-SID | resume SUB-SID      subagents of this project
  seek worktree list | diff ID | merge ID | remove ID | gc   seek-managed git worktrees of this project
  seek memory list | show | search | add | archive | restore | pin | unpin | edit    project memory
  seek distill [--session SID] [--json]                   propose project decisions from a session, for review
  seek -dream [--write]                                   distil your traits across projects into soul.md
  seek run PLAN.yaml [--yolo] [--output-format F]         run a declared plan (goal + role-typed tasks)
       [--queue redis://…]                                its tasks on fleet workers
  seek worker --queue redis://HOST:PORT [--concurrency N]  a fleet worker: runs queued tasks with this machine's keys
  seek batch --queue … --repos FILE --prompt T | --plan P  one job (or plan) per repository, on the fleet
  seek sandbox check [--json]                             the OS sandbox here: what works, or why not and how to fix it
  seek permissions list | check TOOL ARG | trust          permission rules from config files, and which one decides
  seek acp [--model M] [--auto|--plan|--yolo]             serve an editor over the Agent Client Protocol (Zed agent_servers)

Environment: DEEPSEEK_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY (+ *_BASE_URL), SEEK_PROVIDER,
SEEK_MODEL, SEEK_FLASH_MODEL, SEEK_HOME (default ~/.seek). Everything else: README.md and docs/ (docs/commands.md lists every flag).`;

export function createRootCommand(): Command {
  const command = new Command('seek')
    .description('seek: an AI coding agent for the terminal')
    .argument('[prompt...]', 'the prompt (interactive: the first message)')
    .option('-p, --print', 'headless: run to completion, print the final answer, exit');
  return addSessionFlags(command)
    .option('-i, --image <path>', 'attach an image (PNG, JPEG, GIF, WebP) to the prompt; repeatable', (path: string, previous: string[] = []) => [...previous, path])
    .option('--plan', 'plan-analyze: read-only, investigate and propose')
    .option('--max-budget-usd <dollars>', 'with -p: stop the run once it (the session and every subagent) spent this many dollars', positiveDollars)
    .option('-c, --continue', 'continue the newest session of this project')
    .option('--list', 'list this project\'s sessions')
    .option('--include-subagents', 'with --list: show subagent sessions under their parent')
    .option('--dream', 'distil cross-project user traits into ~/.seek/soul.md (a preview unless --write)')
    .option('--write', 'with --dream: save the result')
    .addOption(new Option('--input-format <format>', 'headless input: stream-json reads user messages and control requests as JSON lines on stdin').choices(['text', 'stream-json']))
    .addOption(new Option('--permission-prompt-tool <tool>', 'with --input-format stream-json: ask permission questions of the program on stdio').choices(['stdio']))
    .version(SEEK_VERSION, '-v, --version')
    .addHelpText('after', SUBCOMMAND_HELP)
    .showHelpAfterError('(run seek --help for usage)');
}

function positiveDollars(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected an amount of dollars above 0, such as 0.50');
  return n;
}

/** Parses the root command line and runs the chosen mode. Returns the exit status. */
export async function runRootCommand(argv: string[]): Promise<number> {
  const program = createRootCommand();
  configureExits(program);
  program.parse(argv, { from: 'user' });
  const options = program.opts<RootOptions>();
  const promptText = program.args.join(' ').trim();

  if (options.resume && options.continue) return usageError('--resume and --continue cannot be used together');
  if (options.write && !options.dream) return usageError('--write goes with -dream: seek -dream --write');
  if (options.dream) {
    const { runDream } = await import('./dream.js');
    return runDream(options);
  }
  if (options.list) {
    const { listSessionsCommand } = await import('./list-sessions.js');
    return listSessionsCommand(options);
  }
  if (options.inputFormat === 'stream-json') {
    const { runStreamInput, streamInputUsageError } = await import('./stream-input.js');
    const problem = streamInputUsageError(options, program.args.join(' ').trim());
    if (problem) return usageError(problem);
    noteRunKind('print');
    return runStreamInput(options);
  }
  if (options.maxBudgetUsd !== undefined && !options.print) return usageError('--max-budget-usd goes with -p: seek -p "…" --max-budget-usd 0.50');
  if (options.permissionPromptTool) return usageError('--permission-prompt-tool stdio goes with -p --input-format stream-json --output-format stream-json');
  if (options.print) {
    // `-` among the words stands for standard input, read to its end (see piped-input.ts).
    const words = program.args.filter((word) => word !== '-').join(' ').trim();
    const piped = await readPipedInput(words === '' || program.args.includes('-') ? 'all' : 'if-ready');
    const prompt = [words, piped].filter(Boolean).join('\n\n');
    if (!prompt) return usageError('-p needs a prompt: seek -p "what to do" (or pipe it on stdin)');
    const { runHeadless } = await import('./headless.js');
    noteRunKind('print');
    return runHeadless(prompt, options);
  }
  const { runInteractive } = await import('./interactive.js');
  return runInteractive(promptText, options);
}

function usageError(message: string): number {
  process.stderr.write(`seek: ${message}\n`);
  return 2;
}
