import { SEEK_VERSION } from '../util/version.js';
import { redact } from '../util/redact.js';
import { HooksConfigError } from '../hooks/problems.js';
import { CommanderError, type Command } from 'commander';
import { configureExits } from './exits.js';
import { nearMissCommand } from './near-miss.js';
import { StandardOutput } from './standard-output.js';
import type { SubcommandName } from '../launch/route.js';

export { ranTools, runKind } from './run-kind.js';

/** Subcommands, one file each under commands/. Loaded on demand so that `seek --version` and a
 * plain run import only what they use (cold start is measured). */
export const SUBCOMMANDS: Record<SubcommandName, () => Promise<Command>> = {
  hooks: async () => (await import('./commands/hooks.js')).createHooksCommand(),
  subagent: async () => (await import('./commands/subagent.js')).createSubagentCommand(),
  worktree: async () => (await import('./commands/worktree.js')).createWorktreeCommand(),
  run: async () => (await import('./commands/run.js')).createRunCommand(),
  memory: async () => (await import('./commands/memory.js')).createMemoryCommand(),
  distill: async () => (await import('./commands/distill.js')).createDistillCommand(),
  sandbox: async () => (await import('./commands/sandbox.js')).createSandboxCommand(),
  permissions: async () => (await import('./commands/permissions.js')).createPermissionsCommand(),
  mcp: async () => (await import('./commands/mcp.js')).createMcpCommand(),
  rewind: async () => (await import('./commands/rewind.js')).createRewindCommand(),
  gc: async () => (await import('./commands/gc.js')).createGcCommand(),
  acp: async () => (await import('./commands/acp.js')).createAcpCommand(),
  batch: async () => (await import('./commands/batch.js')).createBatchCommand(),
  worker: async () => (await import('./commands/worker.js')).createWorkerCommand(),
};

/** Single-dash long flags the original seek accepted (`-resume SID`, `-list`, …), mapped to
 * their `--` forms before parsing. */
const SINGLE_DASH_LONG = new Set(['-resume', '-list', '-continue', '-print', '-yolo', '-auto', '-plan', '-model', '-provider', '-dream', '-write', '-include-subagents']);

export function version(): string {
  return SEEK_VERSION;
}

export function normaliseArgv(argv: readonly string[]): string[] {
  return argv.map((arg) => (SINGLE_DASH_LONG.has(arg) ? `-${arg}` : arg));
}

/**
 * Entry point. Exit status: 0 success, 1 the run failed or its output could not be written, 2 bad
 * usage. Resolves only when stdout and stderr have drained: the launcher exits right after.
 */
export async function main(rawArgv: string[]): Promise<void> {
  const output = new StandardOutput();
  await dispatch(rawArgv);
  process.exitCode = await output.drain(Number(process.exitCode ?? 0));
}

async function dispatch(rawArgv: string[]): Promise<void> {
  const argv = helpWords(normaliseArgv(rawArgv));
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
    process.stdout.write(`seek ${version()}\n`);
    return;
  }
  try {
    const first = argv[0];
    const load = first !== undefined && Object.hasOwn(SUBCOMMANDS, first) ? SUBCOMMANDS[first as SubcommandName] : undefined;
    if (load) {
      const command = await load();
      configureExits(command);
      await command.parseAsync(argv.slice(1), { from: 'user' });
      return;
    }
    const nearMiss = await nearMissCommand(argv, SUBCOMMANDS);
    if (nearMiss) {
      process.stderr.write(`seek: ${nearMiss}\n`);
      process.exitCode = 2;
      return;
    }
    const { runRootCommand } = await import('./root.js');
    process.exitCode = await runRootCommand(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exitCode = exitStatusOfCommander(error);
    else reportFatal(error);
  }
}

/** `seek help` and `seek help COMMAND` are the help, not a prompt for the model. */
function helpWords(argv: string[]): string[] {
  if (argv[0] !== 'help' || argv.length > 2) return argv;
  const topic = argv[1];
  if (topic === undefined) return ['--help'];
  return topic in SUBCOMMANDS ? [topic, '--help'] : argv;
}

/** Usage errors exit 2 (CONTRACT), help and version exit 0. */
function exitStatusOfCommander(error: CommanderError): number {
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 2;
}

function exitStatusOf(error: unknown): number {
  const status = (error as { exitStatus?: unknown } | null)?.exitStatus;
  return typeof status === 'number' ? status : 1;
}

function reportFatal(error: unknown): void {
  const message = redact(error instanceof Error ? error.message : String(error));
  process.stderr.write(`seek: ${message}\n`);
  if (process.env.SEEK_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${redact(error.stack)}\n`);
  // An unusable hooks file or permission rule is a configuration error: 2, like bad usage (they
  // fail closed). Such errors carry their status.
  process.exitCode = error instanceof HooksConfigError ? error.exitStatus : exitStatusOf(error);
}
