import { describe, expect, it } from 'vitest';
import { builtinNames } from '../../../src/cli/headless-slash.js';
import { SLASH_COMMANDS } from '../../../src/tui/commands/index.js';

describe('headless slash commands', () => {
  it("know every built-in of the terminal UI (run headless, or named with what to use instead)", () => {
    const known = new Set(builtinNames());
    expect(SLASH_COMMANDS.map((command) => command.name).filter((name) => !known.has(name))).toEqual([]);
  });
});
