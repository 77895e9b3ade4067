import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../../src/runtime/session.js';
import { makeProject } from '../../support/seek-process.js';
import { routedStream } from '../../support/fake-stream.js';

const agentCall = { name: 'agent', arguments: { description: 'look', prompt: 'look around', subagent_type: 'explore' } };

describe('agent tool schema', () => {
  it('is byte-identical across launches and lists defined types after the built-ins', async () => {
    const { root, home } = makeProject();
    mkdirSync(join(root, '.seek', 'agents'), { recursive: true });
    writeFileSync(join(root, '.seek', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: reviews diffs\ntools: [read_file, git]\n---\nReview.\n');
    const schemas: string[] = [];
    for (let launch = 0; launch < 2; launch++) {
      const stream = routedStream(() => ({ text: 'hi' }));
      // Every tool declared, so the first request carries the agent tool's schema (on demand it
      // comes from the same toToolSchema as a tool_search result).
      const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 't', SEEK_TOOLS: 'all' }, interactive: false, maxTurns: 5, stream });
      await session.prompt('hello');
      await session.close();
      schemas.push(JSON.stringify(stream.requests[0]!.tools.find((tool) => tool.name === 'agent')));
    }
    expect(schemas[0]).toBe(schemas[1]);
    const agent = JSON.parse(schemas[0]!);
    expect(agent.parameters.properties.subagent_type.enum).toEqual(['general-purpose', 'explore', 'plan', 'reviewer']);
    expect(agent.description).toContain('- reviewer: reviews diffs');
  });
});

describe('resuming a session with subagents', () => {
  it('counts what earlier children billed once, without adopting them again', async () => {
    const { root, home } = makeProject();
    const env = { SEEK_HOME: home, DEEPSEEK_API_KEY: 't' };
    const first = routedStream((info) => (info.child ? { text: 'child summary' } : info.turn === 0 ? { toolCalls: [agentCall] } : { text: 'done' }));
    const session = await openSession({ cwd: root, env, interactive: false, maxTurns: 5, stream: first });
    const run = await session.prompt('go');
    await session.close();
    expect(run.costUsd).toBeCloseTo(0.003, 9); // parent 2 responses + child 1, $0.001 each

    const second = routedStream(() => ({ text: 'again' }));
    const resumed = await openSession({ cwd: root, env, interactive: false, maxTurns: 5, stream: second, resume: session.id });
    expect(resumed.tracker.cumulative().costUsd).toBeCloseTo(0.003, 9);
    expect(resumed.tracker.children()).toHaveLength(0);
    const next = await resumed.prompt('and now?');
    expect(next.costUsd).toBeCloseTo(0.001, 9);
    expect(resumed.tracker.cumulative().costUsd).toBeCloseTo(0.004, 9);
    await resumed.close();
  });
});
