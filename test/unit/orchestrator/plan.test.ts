import { describe, expect, it } from 'vitest';
import { buildPlan, PlanError, waves } from '../../../src/orchestrator/plan.js';
import { dropTask, setRole, specsOf } from '../../../src/orchestrator/review.js';
import { roleCatalog } from '../../../src/orchestrator/roles.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../src/subagents/builtin-types.js';
import type { SubagentType } from '../../../src/subagents/types.js';
import type { TaskSpec } from '../../../src/orchestrator/types.js';

const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
const plan = (specs: TaskSpec[], goal?: string) => buildPlan(specs, catalog.resolve, catalog.names, goal);
const problems = (specs: TaskSpec[]): string[] => {
  try {
    plan(specs);
  } catch (error) {
    expect(error).toBeInstanceOf(PlanError);
    return (error as PlanError).problems.map((p) => p.text);
  }
  throw new Error('expected a PlanError');
};

describe('buildPlan', () => {
  it('without depends_on runs serially: ids t1.., each task waits for every earlier one', () => {
    const p = plan([
      { task: 'look', role: 'explorer' },
      { task: 'change', role: 'editor' },
      { task: 'check', role: 'reviewer' },
    ]);
    expect(p.mode).toBe('serial');
    expect(p.tasks.map((t) => [t.id, t.kind, t.reviews, t.dependsOn])).toEqual([
      ['t1', 'reader', false, []],
      ['t2', 'writer', false, ['t1']],
      ['t3', 'reader', true, ['t1', 't2']],
    ]);
    expect(p.concurrentWriters).toBe(false);
    expect(waves(p)).toEqual([['t1'], ['t2'], ['t3']]);
  });

  it('depends_on: [] declares independence: a graph whose tasks run together, not in order', () => {
    const p = plan([
      { id: 'e1', task: 'x', role: 'editor', depends_on: [] },
      { id: 'e2', task: 'y', role: 'editor', depends_on: [] },
      { id: 'r', task: 'z', role: 'reviewer' },
    ]);
    expect(p.mode).toBe('graph');
    expect(waves(p)).toEqual([['e1', 'e2', 'r']]);
    expect(p.concurrentWriters).toBe(true);
  });

  it('with depends_on forms a graph; overlapping editors are detected, ordered ones are not', () => {
    const p = plan([
      { id: 'a', task: 'x', role: 'explorer' },
      { id: 'b', task: 'y', role: 'explorer' },
      { id: 'e1', task: 'z', role: 'editor', depends_on: ['a'] },
      { id: 'e2', task: 'w', role: 'editor', depends_on: ['b'] },
      { id: 'r', task: 'v', role: 'reviewer', depends_on: ['e1', 'e2'] },
    ]);
    expect(p.mode).toBe('graph');
    expect(p.concurrentWriters).toBe(true);
    expect(waves(p)).toEqual([['a', 'b'], ['e1', 'e2'], ['r']]);
    const chained = plan([
      { id: 'e1', task: 'z', role: 'editor' },
      { id: 'e2', task: 'w', role: 'editor', depends_on: ['e1'] },
    ]);
    expect(chained.concurrentWriters).toBe(false);
  });

  it('reports every problem at once: roles, ids, empty tasks, unknown and self dependencies', () => {
    expect(
      problems([
        { id: 'a', task: ' ', role: 'wizard' },
        { id: 'a', task: 'x', role: 'explorer', depends_on: ['nope'] },
        { id: 'bad id!', task: 'y', role: 'editor', depends_on: ['bad id!'] },
      ]),
    ).toEqual([
      'tasks 1 and 2 have the same id "a"',
      'task 3: id "bad id!" must be 1-40 letters, digits, \'-\', \'_\' or \'.\'',
      'task a: unknown role "wizard" (roles: explorer, editor, reviewer, general-purpose, explore, plan)',
      'task a: the task text is empty',
      'task a depends on unknown task "nope" (ids: a, bad id!)',
      'task bad id! depends on itself',
    ]);
  });

  it('rejects a cycle, naming it as a path', () => {
    expect(
      problems([
        { id: 'a', task: 'x', role: 'explorer', depends_on: ['c'] },
        { id: 'b', task: 'y', role: 'explorer', depends_on: ['a'] },
        { id: 'c', task: 'z', role: 'explorer', depends_on: ['b'] },
      ]),
    ).toEqual(['the dependencies form a cycle: a -> c -> b -> a (each waits for the next)']);
  });

  it('reports cycles together with the other problems, ignoring edges to unknown ids and self edges', () => {
    expect(
      problems([
        { id: 'a', task: 'x', role: 'wizard', depends_on: ['b', 'ghost'] },
        { id: 'b', task: 'y', role: 'explorer', depends_on: ['a'] },
        { id: 'c', task: 'z', role: 'explorer', depends_on: ['d', 'c'] },
        { id: 'd', task: 'w', role: 'explorer', depends_on: ['c'] },
        { id: 'd', task: 'v', role: 'explorer', depends_on: [] },
      ]),
    ).toEqual([
      'tasks 4 and 5 have the same id "d"',
      'task a: unknown role "wizard" (roles: explorer, editor, reviewer, general-purpose, explore, plan)',
      'task a depends on unknown task "ghost" (ids: a, b, c, d)',
      'task c depends on itself',
      'the dependencies form a cycle: a -> b -> a (each waits for the next)',
      'the dependencies form a cycle: c -> d -> c (each waits for the next)',
    ]);
  });

  it('rejects empty and oversized plans', () => {
    expect(problems([])).toEqual(['the plan has no tasks']);
    expect(problems(Array.from({ length: 21 }, () => ({ task: 'x', role: 'explorer' })))).toEqual([
      'the plan has 21 tasks; at most 20 run in one call (split it)',
    ]);
  });

  it('hashes the same plan the same way, and any change differently', () => {
    const specs = [{ task: 'look', role: 'explorer' }, { task: 'change', role: 'editor' }];
    expect(plan(specs).hash).toBe(plan(specs).hash);
    expect(plan(specs, 'goal').hash).not.toBe(plan(specs).hash);
    expect(plan([specs[0]!, { task: 'change', role: 'general-purpose' }]).hash).not.toBe(plan(specs).hash);
  });
});

describe('roles', () => {
  it('maps the three roles, accepts subagent types as roles, and lets a defined type replace a role', () => {
    const defined: SubagentType = { name: 'reviewer', description: 'strict', source: 'project', instructions: 'Be strict.', permission: 'plan', tools: ['read_file'] };
    const writerType: SubagentType = { name: 'migrator', description: 'm', source: 'project', instructions: '', permission: 'inherit' };
    const roles = roleCatalog([...BUILTIN_SUBAGENT_TYPES, defined, writerType]);
    expect(roles.names).toEqual(['explorer', 'editor', 'reviewer', 'general-purpose', 'explore', 'plan', 'migrator']);
    expect(roles.resolve('reviewer')).toMatchObject({ kind: 'reader', reviews: true, type: { instructions: 'Be strict.' } });
    expect(roles.resolve('explorer')).toMatchObject({ kind: 'reader', reviews: false, type: { permission: 'plan' } });
    expect(roles.resolve('editor')).toMatchObject({ kind: 'writer', type: { permission: 'inherit' } });
    expect(roles.resolve('migrator')?.kind).toBe('writer');
    expect(roles.resolve('explore')?.kind).toBe('reader');
    // A defined explorer that can write is scheduled as a writer, so two never collide.
    const loose = roleCatalog([...BUILTIN_SUBAGENT_TYPES, { ...writerType, name: 'explorer' }]);
    expect(loose.resolve('explorer')?.kind).toBe('writer');
  });
});

describe('review edits keep the plan\'s shape', () => {
  it('a graph of independent tasks comes back from specsOf as the same graph, not a serial plan', () => {
    const p = plan([
      { id: 'a', task: 'x', role: 'explorer', depends_on: [] },
      { id: 'b', task: 'y', role: 'explorer', depends_on: [] },
    ]);
    const again = plan(specsOf(p));
    expect([again.mode, waves(again)]).toEqual(['graph', [['a', 'b']]]);
  });

  it('dropping the task others waited for leaves them independent (parallel), and a role change keeps the edges', () => {
    const p = plan([
      { id: 'a', task: 'x', role: 'explorer' },
      { id: 'b', task: 'y', role: 'explorer', depends_on: ['a'] },
      { id: 'c', task: 'z', role: 'explorer', depends_on: ['a'] },
    ]);
    const dropped = plan(dropTask(specsOf(p), 'a'));
    expect([dropped.mode, waves(dropped)]).toEqual(['graph', [['b', 'c']]]);
    const changed = plan(setRole(specsOf(p), 'c', 'reviewer'));
    expect(waves(changed)).toEqual([['a'], ['b', 'c']]);
    expect(changed.tasks.find((t) => t.id === 'c')?.role).toBe('reviewer');
  });

  it('a serial plan stays serial through specsOf and dropTask', () => {
    const p = plan([
      { id: 'a', task: 'x', role: 'explorer' },
      { id: 'b', task: 'y', role: 'explorer' },
      { id: 'c', task: 'z', role: 'explorer' },
    ]);
    const dropped = plan(dropTask(specsOf(p), 'b'));
    expect([dropped.mode, waves(dropped)]).toEqual(['serial', [['a'], ['c']]]);
  });
});
