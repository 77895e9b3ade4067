/**
 * A permission question gets a signal of its own, so a front end that listens on it (the terminal
 * UI withdraws its dialog on abort) leaves nothing on the run's signal once the question is answered.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '../../../src/agent/types.js';
import { PermissionPolicy } from '../../../src/policy/index.js';
import { createToolGate } from '../../../src/policy/tool-gate.js';
import { createWebFetchTool } from '../../../src/tools/web-fetch.js';

const ROOT = '/tmp/seek-ask-listeners';

describe('permission questions and the run signal', () => {
  it('twenty answered questions leave no listener on the run signal', async () => {
    const policy = new PermissionPolicy({ root: ROOT, preference: 'ask' });
    // Like the terminal UI: listens for an abort to withdraw the question, and never removes it.
    const gate = createToolGate({ policy, ask: async (_prompt, signal) => (signal?.addEventListener('abort', () => {}, { once: true }), 'no') });
    const tool = createWebFetchTool({ mayReachPrivate: () => false }) as Tool;
    const run = new AbortController();
    for (let n = 0; n < 20; n++) {
      const ctx: ToolContext = { cwd: ROOT, projectRoot: ROOT, signal: run.signal, callId: `c-${n}` };
      const args = { url: `https://host${n}.example/` };
      expect(await gate.before({ toolCall: { id: ctx.callId, name: 'web_fetch', arguments: JSON.stringify(args) }, tool, args, ctx })).toMatchObject({ allow: false });
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});
