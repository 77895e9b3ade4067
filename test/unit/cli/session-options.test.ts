import { describe, expect, it } from 'vitest';
import { createRootCommand } from '../../../src/cli/root.js';
import type { RootOptions } from '../../../src/cli/root-options.js';
import { sessionOptionsFrom } from '../../../src/cli/session-options.js';

/** The session options `seek ARGS` would open its session with. */
function sessionFor(...args: string[]) {
  const program = createRootCommand().exitOverride();
  program.parse(args, { from: 'user' });
  return sessionOptionsFrom(program.opts<RootOptions>(), { interactive: false });
}

describe('worktree flags', () => {
  it('--worktree-branch NAME alone implies --worktree, on that branch', () => {
    expect(sessionFor('-p', 'hi', '--worktree-branch', 'notes-work').worktree).toBe('notes-work');
    expect(sessionFor('-p', 'hi', '-w', '--worktree-branch', 'notes-work').worktree).toBe('notes-work');
  });

  it('-w alone asks for a worktree on a generated branch; neither flag, for none', () => {
    expect(sessionFor('-p', 'hi', '-w').worktree).toBe(true);
    expect(sessionFor('-p', 'hi')).not.toHaveProperty('worktree');
  });
});
