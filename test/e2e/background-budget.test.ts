/**
 * Budgets of a whole `seek -p` run against the scripted server: `--max-budget-usd` counts the
 * parent and every child (foreground and background); once spent, the children are told to wrap
 * up and stopped (`budget_exceeded`), the parent stops at its next request boundary and the result
 * says why (`error_max_budget_usd`, stop_reason `max_budget_usd`). `subagents.session_budget_tokens`
 * does the same for all children's tokens together. A model without prices cannot be held to a
 * dollar budget: said once on stderr, the run goes on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

const suite = useScriptedServer();
/** $1 per million input tokens: each request of 100k tokens costs $0.10. */
const PRICED = { models: { 'priced-model': { input: 1, output: 1, cache_read: 1, context_window: 1_000_000 } } };
const USAGE = { input: 100_000, output: 0, cacheRead: 0 };

interface Req {
  child: boolean;
  text: string;
  turn: number;
  prompt: string;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Array<{ role: string; content?: string }>;
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  return {
    child: system.includes('\n# Subagent\n'),
    text: JSON.stringify(messages),
    turn: messages.filter((m) => m.role === 'assistant').length,
    prompt: String(messages.find((m) => m.role === 'user' && !String(m.content).startsWith('<'))?.content ?? ''),
  };
}
function route(handler: (req: Req) => ScriptedReply, usage = USAGE) {
  suite.server.setFallback((request) => ({ usage, ...handler(view(request)) }));
}
const agentCall = (name: string, background: boolean) => ({
  name: 'agent',
  arguments: { description: `task ${name}`, prompt: `Look into ${name}`, subagent_type: 'explore', ...(background ? { run_in_background: true } : {}) },
});
/** A child that never stops on its own: a new glob every turn (no repeated-call guard). */
const busyChild = (req: Req): ScriptedReply => ({ toolCalls: [{ name: 'glob', arguments: { pattern: `*.${req.turn}x` } }] });
const wrapUp = (req: Req) => req.child && req.text.includes('Stop working: do not call more tools');

function project(config: Record<string, unknown>) {
  const made = makeProject();
  writeFileSync(join(made.home, 'config.json'), JSON.stringify(config));
  return made;
}
const seek = (args: string[], home: string, root: string) =>
  runSeek(['-p', 'spend', '--output-format', 'json', ...args], { cwd: root, env: { ...suite.env(home), SEEK_MODEL: 'priced-model' }, timeoutMs: 120_000 });

describe('--max-budget-usd', () => {
  it('stops a run with a foreground and a background child once the parent and both children spent it', async () => {
    const { root, home } = project(PRICED);
    route((req) => {
      if (req.child) return busyChild(req);
      if (req.turn === 0) return { toolCalls: [agentCall('alpha', true), agentCall('beta', false)] };
      return { text: 'Still going.' };
    });
    const run = await seek(['--max-budget-usd', '0.5'], home, root);
    const result = JSON.parse(run.stdout);
    expect(result, run.stderr).toMatchObject({ type: 'result', subtype: 'error_max_budget_usd', is_error: true, stop_reason: 'max_budget_usd', cost_known: true });
    expect(result.error).toMatch(/dollar budget \(--max-budget-usd 0\.5\) is spent/);
    expect(run.code).toBe(1);
    // Spent: at least the budget; not much more (each child gets a few requests of grace).
    expect(result.total_cost_usd).toBeGreaterThanOrEqual(0.5);
    expect(result.total_cost_usd).toBeLessThan(2);
    const requests = suite.server.requests.map(view);
    expect(requests.filter((r) => r.child && r.prompt === 'Look into alpha').length).toBeGreaterThan(0);
    // The children were told to wrap up, then stopped for the budget.
    expect(requests.some(wrapUp)).toBe(true);
    const children = result.subagents as Array<{ description: string; status: string; reason?: string }>;
    expect(children.map((c) => c.description).sort()).toEqual(['task alpha', 'task beta']);
    const beta = children.find((c) => c.description === 'task beta')!;
    expect(beta).toMatchObject({ status: 'failed', reason: 'budget_exceeded' });
    const alpha = children.find((c) => c.description === 'task alpha')!;
    expect(['budget_exceeded', 'killed']).toContain(alpha.reason);
    // beta (foreground) ends only once the budget is spent: the parent never asks the model again.
    expect(requests.filter((r) => !r.child)).toHaveLength(1);
  });

  it('counts a background child: the parent waits, the child spends the budget, the run stops without another answer', async () => {
    const { root, home } = project(PRICED);
    route((req) => {
      if (req.child) return busyChild(req);
      if (req.turn === 0) return { toolCalls: [agentCall('gamma', true)] };
      return { text: 'Waiting for gamma.' };
    });
    const run = await seek(['--max-budget-usd', '0.45'], home, root);
    const result = JSON.parse(run.stdout);
    expect(result, run.stderr).toMatchObject({ subtype: 'error_max_budget_usd', stop_reason: 'max_budget_usd' });
    const requests = suite.server.requests.map(view);
    // The parent spent $0.20 (two requests); the rest is the background child's.
    expect(requests.filter((r) => !r.child)).toHaveLength(2);
    expect(requests.filter((r) => r.child).length).toBeGreaterThanOrEqual(3);
    expect(result.total_cost_usd).toBeGreaterThanOrEqual(0.45);
    expect(result.subagents).toHaveLength(1);
    expect(result.subagents[0]).toMatchObject({ description: 'task gamma', status: 'failed', reason: 'budget_exceeded' });
    expect(result.result).toBe('Waiting for gamma.');
  });

  it('cannot be enforced without prices: says so once on stderr and does not stop', async () => {
    const { root, home } = project({});
    route((req) => {
      if (req.child) return req.turn < 2 ? busyChild(req) : { text: 'child done' };
      if (req.turn === 0) return { toolCalls: [agentCall('delta', false)] };
      return { text: 'All done.' };
    });
    const run = await runSeek(['-p', 'spend', '--output-format', 'json', '--max-budget-usd', '0.01'], { cwd: root, env: { ...suite.env(home), SEEK_MODEL: 'unpriced-model' }, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'success', result: 'All done.', cost_known: false });
    expect(run.stderr.match(/--max-budget-usd 0\.01 cannot be enforced/g), run.stderr).toHaveLength(1);
  });

  it('is refused without -p', async () => {
    const { root, home } = project({});
    const run = await runSeek(['--max-budget-usd', '1', 'hi'], { cwd: root, env: suite.env(home), timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--max-budget-usd goes with -p');
  });
});

describe('subagents.session_budget_tokens', () => {
  it('stops the children once all of them together used it; the parent answers with their results', async () => {
    const { root, home } = project({ subagents: { session_budget_tokens: 250_000 } });
    route((req) => {
      if (req.child) return busyChild(req);
      if (req.turn === 0) return { toolCalls: [agentCall('one', false), agentCall('two', true)] };
      return { text: req.text.includes('budget_exceeded') ? 'Children stopped by the budget.' : 'Going on.' };
    });
    const run = await runSeek(['-p', 'fan out', '--output-format', 'json'], { cwd: root, env: suite.env(home), timeoutMs: 120_000 });
    const result = JSON.parse(run.stdout);
    expect(result.subtype, run.stderr).toBe('success');
    const children = result.subagents as Array<{ status: string; reason?: string }>;
    expect(children).toHaveLength(2);
    for (const child of children) expect(child).toMatchObject({ status: 'failed', reason: 'budget_exceeded' });
    expect(suite.server.requests.map(view).some(wrapUp)).toBe(true);
    expect(suite.server.requests.map(view).find(wrapUp)!.text).toContain('subagents.session_budget_tokens 250000');
  });
});
