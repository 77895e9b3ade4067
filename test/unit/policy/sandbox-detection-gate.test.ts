/**
 * No gate decides on a sandbox detection that has not finished. A headless session detects the OS
 * sandbox on first need; a child spawned before that (a fleet worker's job is a child started at
 * once) shares its parent's sandbox status, and its gate awaits the detection before the policy
 * decides a command, so an `--auto` command runs sandboxed instead of being refused as "sandbox
 * detection has not finished". File tools still probe nothing. The bwrap here is a script that
 * logs each run and passes as a working bubblewrap (see fake-bwrap.ts).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool, ToolContext } from '../../../src/agent/types.js';
import { setUpPermissions } from '../../../src/runtime/permissions.js';
import { createToolGate } from '../../../src/policy/tool-gate.js';
import { fakeBwrap } from '../../support/fake-bwrap.js';
import { tempDir } from '../../support/temp-dirs.js';

const bashTool: Tool<{ command: string }> = {
  name: 'bash',
  description: 'run a command',
  schema: z.object({ command: z.string() }),
  readOnly: false,
  describe: (args, ctx) => ({ kind: 'bash', paths: [ctx.cwd], command: args.command, summary: `bash: ${args.command}` }),
  execute: async () => ({ content: '' }),
};
const writeTool: Tool<{ path: string }> = {
  name: 'write_file',
  description: 'write',
  schema: z.object({ path: z.string() }),
  readOnly: false,
  describe: (args, ctx) => ({ kind: 'write', paths: [path.resolve(ctx.cwd, args.path)], summary: `write ${args.path}` }),
  execute: async () => ({ content: '' }),
};

function call<A>(tool: Tool<A>, args: A, cwd: string) {
  const ctx: ToolContext = { cwd, projectRoot: cwd, signal: new AbortController().signal, callId: `call-${Math.random()}` };
  return { toolCall: { id: ctx.callId, name: tool.name, arguments: JSON.stringify(args) }, tool: tool as Tool, args, ctx };
}

describe.skipIf(process.platform !== 'linux')('a gate and sandbox detection on first need', () => {
  it('a child spawned before detection: its gate awaits it, then runs an --auto command sandboxed; a file write probes nothing', async () => {
    const bwrap = fakeBwrap();
    const root = tempDir('seek-gate-root-');
    const seekHome = tempDir('seek-gate-home-');
    const set = await setUpPermissions({
      root,
      seekHome,
      configFile: path.join(seekHome, 'config.json'),
      config: {},
      env: { PATH: process.env.PATH, HOME: seekHome, SEEK_SANDBOX_BWRAP: bwrap.program },
      interactive: false,
      auto: true,
      deferSandbox: true,
    });
    // As the subagent manager makes a child: its policy spawned now, before any detection.
    const child = set.policy.spawn({ root });
    expect(child.sandbox.available).toBe(false);
    const gate = createToolGate({ policy: child, sandbox: set.sandbox, sandboxReady: set.sandboxReady, subagent: { id: 's1', description: 'job' } });

    expect(await gate.before(call(writeTool, { path: 'a.txt' }, root))).toEqual({ allow: true, checkWrite: expect.any(Function) });
    expect(bwrap.runs()).toEqual([]);

    const verdict = await gate.before(call(bashTool, { command: 'touch x' }, root));
    expect(verdict).toMatchObject({ allow: true, sandbox: { profile: 'workspace-write' } });
    expect(bwrap.runs().sort()).toEqual(['--ro-bind', '--version']);
    // Settled once for the whole family: the parent and the child see the same status.
    expect(child.sandbox).toEqual({ available: true });
    expect(set.policy.sandbox).toEqual({ available: true });
  });
});
