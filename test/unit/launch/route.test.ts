import { describe, expect, it } from 'vitest';
import { isHeadlessPrompt, runsOnHeadlessBuild, SUBCOMMAND_NAMES } from '../../../src/launch/route.js';
import { SUBCOMMANDS } from '../../../src/cli/main.js';

// The launcher sends a command line to dist/cli/headless.cjs (no terminal UI, no subcommands) only
// when it is certainly a headless prompt; everything else runs the whole CLI, which handles every
// command line. A wrong "yes" would reach a stub of the headless build; a wrong "no" only costs speed.
describe('which build a command line needs', () => {
  it('sends prompt runs with -p or --print to the headless build', () => {
    for (const argv of [
      ['-p', 'say hello'],
      ['--print', 'say hello'],
      ['--print=yes'],
      ['-print', 'the original seek spelling'],
      ['fix the bug', '-p'],
      ['fix-it.', '-p'],
      ['-c', '-p', 'go on'],
      ['--resume', 'abc', '-p', 'more', '--output-format', 'json'],
      ['-p', '--help'],
      ['-p', 'x', '--', 'more words'],
    ]) {
      expect(isHeadlessPrompt(argv), argv.join(' ')).toBe(true);
      expect(runsOnHeadlessBuild(argv), argv.join(' ')).toBe(true);
    }
  });

  it('sends the version query alone to the headless build too, which answers it the same', () => {
    for (const flag of ['--version', '-v', '-V']) expect(runsOnHeadlessBuild([flag]), flag).toBe(true);
    // With anything beside it, it is not the query main.ts answers first: the usual rule decides.
    for (const argv of [['--version', 'x'], ['x', '--version'], ['--version', '--help']]) expect(runsOnHeadlessBuild(argv), argv.join(' ')).toBe(false);
  });

  it('sends everything else to the whole CLI', () => {
    for (const argv of [
      [],
      ['say hello'],
      ['--version'],
      ['help', '-p'],
      ['hook', 'up', 'the', 'database', '-p'], // near "hooks": the whole CLI asks the command whether it was meant
      ['summarise', '-p'],
      ['run', 'plan.md', '-p'],
      ['worker', '--redis', 'redis://x', '-p'],
      ['acp'],
      ['--', '-p'],
      ['words', '--', '-p', 'is prompt text here'],
      ['-yp', 'combined short flags are left to the whole CLI'],
    ]) {
      expect(isHeadlessPrompt(argv), argv.join(' ')).toBe(false);
      if (argv.join(' ') !== '--version') expect(runsOnHeadlessBuild(argv), argv.join(' ')).toBe(false);
    }
  });

  it('knows every subcommand the CLI has, and no other', () => {
    expect([...SUBCOMMAND_NAMES].sort()).toEqual(Object.keys(SUBCOMMANDS).sort());
    for (const name of SUBCOMMAND_NAMES) expect(isHeadlessPrompt([name, '-p', 'x']), name).toBe(false);
  });
});
