/**
 * Finding a child by id (agent_status, agent's `resume`): the full sub-sid, the short form, or a
 * prefix only one child has; never a suffix, which could pick another child than the one meant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/agent/types.js';
import { BackgroundChildren } from '../../../src/subagents/background.js';
import { backgroundStatus } from '../../../src/subagents/background-status.js';
import { loadEarlierChild } from '../../../src/subagents/child-resume.js';
import { appendSubagentEvent } from '../../../src/subagents/index-log.js';
import type { SpawnParent, SubagentManager } from '../../../src/subagents/manager.js';

const FIRST = '20261129-120000-a1b2c3';
const SECOND = '20261129-120001-ffffc3';

/** A manager whose children start at once and never end (the test only looks them up). */
function fakeManager(ids: string[], ends = false): SubagentManager {
  const queue = [...ids];
  return {
    types: [{ name: 'general-purpose', description: 'any task' }],
    maxConcurrent: 4,
    activeIds: () => [],
    kill: () => {},
    spawn: (_request: unknown, _parent: unknown, _ctx: unknown, extra: { onStarted?: (subSid: string) => void }) => {
      const subSid = queue.shift()!;
      extra.onStarted?.(subSid);
      return ends ? Promise.resolve({ subSid, status: 'completed', result: { content: 'done' } }) : new Promise(() => {});
    },
  } as unknown as SubagentManager;
}

async function twoChildren(): Promise<BackgroundChildren> {
  const background = new BackgroundChildren({ manager: fakeManager([FIRST, SECOND]) });
  const tool = background.agentTool(() => ({ depth: 0 }) as unknown as SpawnParent);
  const ctx = { signal: new AbortController().signal } as unknown as ToolContext;
  await tool.execute({ description: 'one', prompt: 'p', run_in_background: true }, ctx);
  await tool.execute({ description: 'two', prompt: 'p', run_in_background: true }, ctx);
  expect(background.list().map((child) => child.subSid)).toEqual([FIRST, SECOND]);
  return background;
}

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('background children by id', () => {
  it('finds by full id, short id and a unique prefix', async () => {
    const background = await twoChildren();
    expect(background.find(FIRST)?.description).toBe('one');
    expect(background.find('ffffc3')?.description).toBe('two');
    expect(background.find('a1b')?.description).toBe('one');
    expect(background.find('20261129-120001')?.description).toBe('two');
  });

  it('never by suffix: "c3" and "b2c3" pick no child', async () => {
    const background = await twoChildren();
    expect(background.find('c3')).toBeUndefined();
    expect(background.find('b2c3')).toBeUndefined();
    expect(background.find('3')).toBeUndefined();
  });

  it('an ambiguous prefix picks none, and agent_status lists the candidates', async () => {
    const background = await twoChildren();
    expect(background.find('20261129-12')).toBeUndefined();
    const context = { background, seekHome: '/nonexistent', projectId: 'p', sessionId: 's' };
    const text = await backgroundStatus({ ids: ['20261129-12'], waitMs: 0, signal: new AbortController().signal }, context);
    expect(text).toBe(`"20261129-12" matches 2 subagents: ${FIRST} ("one"), ${SECOND} ("two"); give the full sub-sid`);
    const suffix = await backgroundStatus({ ids: ['b2c3'], waitMs: 0, signal: new AbortController().signal }, context);
    expect(suffix).toBe('b2c3: no such subagent of this session');
  });
});

describe('resume by id', () => {
  function index(): { seekHome: string; projectId: string; sessionId: string; runningHere: () => boolean } {
    const seekHome = mkdtempSync(path.join(tmpdir(), 'seek-lookup-'));
    homes.push(seekHome);
    for (const [subSid, description] of [[FIRST, 'one'], [SECOND, 'two']] as const) {
      appendSubagentEvent(seekHome, 'p', { event: 'started', sub_sid: subSid, ts: new Date().toISOString(), parent_sid: 's', type: 'general-purpose', description, depth: 1, pid: 1, host: 'h' });
      appendSubagentEvent(seekHome, 'p', { event: 'completed', sub_sid: subSid, ts: new Date().toISOString() } as never);
    }
    return { seekHome, projectId: 'p', sessionId: 's', runningHere: () => false };
  }

  it('a suffix is no id; an ambiguous prefix names the candidates', async () => {
    const lookup = index();
    expect(await loadEarlierChild('b2c3', lookup)).toBe('no subagent "b2c3" of this session to resume (agent_status lists them)');
    expect(await loadEarlierChild('20261129-12', lookup)).toMatch(/^"20261129-12" matches 2 subagents: 20261129-120001-ffffc3 \("two"\), 20261129-120000-a1b2c3 \("one"\); give the full sub-sid$/);
    // A unique id gets past the lookup (its transcript is missing here, which is the next check).
    expect(await loadEarlierChild('a1b2c3', lookup)).toMatch(/^no transcript to continue subagent a1b2c3/);
  });
});

describe('waiting for a child', () => {
  it('leaves no listener on the signal it waited with, however often it waits', async () => {
    const background = new BackgroundChildren({ manager: fakeManager([FIRST], true) });
    const tool = background.agentTool(() => ({ depth: 0 }) as unknown as SpawnParent);
    await tool.execute({ description: 'one', prompt: 'p', run_in_background: true }, { signal: new AbortController().signal } as unknown as ToolContext);
    await expect.poll(() => background.find(FIRST)?.report?.status).toBe('completed');
    const session = new AbortController();
    for (let n = 0; n < 20; n++) await background.ended(FIRST, session.signal);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });
});
