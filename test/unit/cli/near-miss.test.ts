import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBCOMMANDS } from '../../../src/cli/main.js';
import { closestName, nearMissCommand } from '../../../src/cli/near-miss.js';

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'seek-near-miss-'));
  writeFileSync(join(cwd, 'plan.yaml'), 'goal: x\n');
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The command seek suggests for `argv`, or undefined when argv is a prompt. */
async function suggested(...argv: string[]): Promise<string | undefined> {
  const refusal = await nearMissCommand(argv, SUBCOMMANDS, cwd);
  return refusal === undefined ? undefined : /Did you mean: (.*)\n/.exec(refusal)?.[1];
}

describe('a mistyped subcommand', () => {
  it('is refused with the command it was meant to be, when nothing or that command\'s arguments follow', async () => {
    expect(await suggested('worktre', 'list')).toBe('seek worktree list');
    expect(await suggested('worktre')).toBe('seek worktree');
    expect(await suggested('Worktre', '--json')).toBe('seek worktree --json');
    expect(await suggested('memroy', 'add', 'use-pnpm', '--tagline', 'x')).toBe('seek memory add use-pnpm --tagline x');
    expect(await suggested('hook', 'list')).toBe('seek hooks list');
    expect(await suggested('permission', 'list')).toBe('seek permissions list');
    expect(await suggested('rn', 'plan.yaml')).toBe('seek run plan.yaml');
    expect(await suggested('distil', '--json')).toBe('seek distill --json');
  });

  it('says how to send the words as a prompt after all', async () => {
    expect(await nearMissCommand(['worktre', 'list'], SUBCOMMANDS, cwd)).toBe('"worktre" is not a seek command. Did you mean: seek worktree list\n(to send it to the model as a prompt: seek -- worktre list)');
  });

  it('leaves prompts alone: several words, a far word, or words that do not start like the command', async () => {
    expect(await suggested('fix the bug')).toBeUndefined();
    expect(await suggested('fix', 'the', 'bug')).toBeUndefined();
    expect(await suggested('hook', 'up', 'the', 'database')).toBeUndefined();
    expect(await suggested('ran', 'the', 'tests')).toBeUndefined();
    expect(await suggested('rn', 'missing.yaml')).toBeUndefined();
    expect(await suggested('explain')).toBeUndefined();
    expect(await suggested('rm')).toBeUndefined(); // two edits from "run": too far for a three-letter name
    expect(await suggested('-p', 'worktre')).toBeUndefined();
    expect(await suggested('worktree', 'list')).toBeUndefined(); // a command, not a near miss
  });

  it('picks the nearest name within one edit for short names and two for longer ones', () => {
    const names = Object.keys(SUBCOMMANDS);
    expect(closestName('rnu', names)).toBeUndefined();
    expect(closestName('runs', names)).toBe('run');
    expect(closestName('sandbx', names)).toBe('sandbox');
    expect(closestName('subagents', names)).toBe('subagent');
    expect(closestName('summary', names)).toBeUndefined();
  });
});
