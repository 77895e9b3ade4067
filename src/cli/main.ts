import { SEEK_VERSION } from '../util/version.js';
import { HooksConfigError } from '../hooks/problems.js';
import type { Command } from 'commander';

/** Subcommands, one file each under commands/. Loaded on demand so that `seek --version` and a
 * plain run import only what they use (cold start is measured). */
const SUBCOMMANDS: Record<string, () => Promise<Command>> = {
  hooks: async () => (await import('./commands/hooks.js')).createHooksCommand(),
  subagent: async () => (await import('./commands/subagent.js')).createSubagentCommand(),
  worktree: async () => (await import('./commands/worktree.js')).createWorktreeCommand(),
  run: async () => (await import('./commands/run.js')).createRunCommand(),
  memory: async () => (await import('./commands/memory.js')).createMemoryCommand(),
  distill: async () => (await import('./commands/distill.js')).createDistillCommand(),
  sandbox: async () => (await import('./commands/sandbox.js')).createSandboxCommand(),
  permissions: async () => (await import('./commands/permissions.js')).createPermissionsCommand(),
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

/** Entry point. Exit status: 0 success, 1 the run failed, 2 bad usage. */
export async function main(rawArgv: string[]): Promise<void> {
  const argv = normaliseArgv(rawArgv);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
    process.stdout.write(`seek ${version()}\n`);
    return;
  }
  try {
    const first = argv[0];
    const load = first !== undefined ? SUBCOMMANDS[first] : undefined;
    if (load) {
      const command = await load();
      configureExits(command);
      await command.parseAsync(argv.slice(1), { from: 'user' });
      return;
    }
    const { runRootCommand } = await import('./root.js');
    process.exitCode = await runRootCommand(argv);
  } catch (error) {
    reportFatal(error);
  }
}

/** Commander usage errors exit 2 (CONTRACT), help and version exit 0. */
export function configureExits(command: Command): void {
  command.exitOverride((error) => {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
      process.exit(0);
    }
    process.exit(2);
  });
  for (const sub of command.commands) configureExits(sub);
}

function exitStatusOf(error: unknown): number {
  const status = (error as { exitStatus?: unknown } | null)?.exitStatus;
  return typeof status === 'number' ? status : 1;
}

function reportFatal(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`seek: ${message}\n`);
  if (process.env.SEEK_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  // An unusable hooks file or permission rule is a configuration error: 2, like bad usage (they
  // fail closed). Such errors carry their status.
  process.exitCode = error instanceof HooksConfigError ? error.exitStatus : exitStatusOf(error);
}
