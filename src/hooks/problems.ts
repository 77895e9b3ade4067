import type { HookProblem, LoadedHooks } from './types.js';

/** `file:line:column: message` (position parts only when known), as compilers print them. */
export function formatProblem(problem: HookProblem): string {
  const position = problem.line === undefined ? '' : `:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}`;
  return `${problem.file}${position}: ${problem.message}`;
}

/** Problems that make a hooks file unusable (unreadable, bad TOML, invalid): fatal at start-up. */
export function fatalProblems(loaded: Pick<LoadedHooks, 'problems'>): HookProblem[] {
  return loaded.problems.filter((p) => p.hook === undefined);
}

/** Exit status for a hooks file seek refuses to run without (the CLI's "bad usage/configuration"). */
export const HOOKS_CONFIG_EXIT_STATUS = 2;

/**
 * Hooks fail closed: a hooks file (user or project) that cannot be read, does not parse or does not
 * validate stops seek before a session starts or a model is called, instead of running without the
 * guards it declares. The message names every problem as `file:line:column: message`.
 */
export class HooksConfigError extends Error {
  readonly exitStatus = HOOKS_CONFIG_EXIT_STATUS;
  constructor(readonly problems: readonly HookProblem[]) {
    const files = [...new Set(problems.map((p) => p.file))];
    super(
      [
        `cannot use ${files.length === 1 ? 'the hooks file' : 'the hooks files'} ${files.join(', ')}; seek stops rather than run without its hooks:`,
        ...problems.map((p) => `  ${formatProblem(p)}`),
        'Fix the file (or move it away), then run seek again; `seek hooks check` shows the same problems.',
      ].join('\n'),
    );
    this.name = 'HooksConfigError';
  }
}

/** The error to stop with when any hooks file is unusable, else undefined. */
export function hooksStartupError(loaded: Pick<LoadedHooks, 'problems'>): HooksConfigError | undefined {
  const fatal = fatalProblems(loaded);
  return fatal.length > 0 ? new HooksConfigError(fatal) : undefined;
}
