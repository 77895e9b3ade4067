import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool, ToolContext } from '../../../src/agent/types.js';
import { PermissionPolicy } from '../../../src/policy/index.js';
import { createToolGate, type PermissionPrompt } from '../../../src/policy/tool-gate.js';
import { hookFixture, type HookFixture } from './fixture.js';

let fx: HookFixture;
beforeEach(() => {
  fx = hookFixture();
});
afterEach(() => fx.cleanup());

const bashTool: Tool<{ command: string }> = {
  name: 'bash',
  description: 'run a command',
  schema: z.object({ command: z.string() }),
  readOnly: false,
  describe: (args, ctx) => ({ kind: 'bash', paths: [ctx.cwd], command: args.command, summary: `bash: ${args.command}` }),
  execute: async () => ({ content: '' }),
};

function call(args: { command: string }) {
  const ctx: ToolContext = { cwd: fx.project, projectRoot: fx.project, signal: new AbortController().signal, callId: 'call-1' };
  return { toolCall: { id: ctx.callId, name: 'bash', arguments: JSON.stringify(args) }, tool: bashTool as Tool, args, ctx };
}

/** A gate in ask mode whose asker answers with other arguments (deny rules on edited commands:
 * test/e2e/stream-json-input.test.ts, with the real bash tool and its command parser). */
function gateAnswering(edited: unknown, asked: PermissionPrompt[] = []) {
  const policy = new PermissionPolicy({ root: fx.project, preference: 'ask' });
  return createToolGate({ policy, ask: async (prompt) => (asked.push(prompt), { edited }) });
}

describe('the tool gate: an approval with other arguments (updatedInput)', () => {
  it('passes the call arguments to the asker and runs the edited ones', async () => {
    const asked: PermissionPrompt[] = [];
    const verdict = await gateAnswering({ command: 'echo edited' }, asked).before(call({ command: 'touch a' }));
    expect(asked[0]!.input).toEqual({ command: 'touch a' });
    expect(verdict).toEqual({ allow: true, args: { command: 'echo edited' } });
  });

  it('refuses edited arguments that do not fit the tool schema, saying why', async () => {
    const verdict = await gateAnswering({ cmd: 42 }).before(call({ command: 'touch a' }));
    expect(verdict).toMatchObject({ allow: false });
    expect(!verdict.allow && verdict.reason).toContain('updated input for bash is not valid');
  });
});
