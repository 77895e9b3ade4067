/**
 * A plan graph as BullMQ flow trees: every task is a real job exactly once, as a child of one of
 * its dependants; its other dependants get a reference child; a resubmitted subset references
 * the tasks outside it. Each task's children are exactly its dependencies, so BullMQ holds it
 * until they complete.
 */
import type { FlowJob } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { flowTrees } from '../../../src/fleet/flow.js';
import type { FleetJob } from '../../../src/fleet/payload.js';
import type { Plan, PlanTask } from '../../../src/orchestrator/types.js';

function plan(edges: Record<string, string[]>): Plan {
  const tasks: PlanTask[] = Object.entries(edges).map(([id, dependsOn], index) => ({ id, index, task: `do ${id}`, role: 'explorer', kind: 'reader', reviews: false, dependsOn }));
  return { mode: 'graph', tasks, hash: 'h', concurrentWriters: false };
}

const idOf = (taskId: string): string => `run.${taskId}`;
const payload = (task: PlanTask): FleetJob => ({ taskId: task.id }) as unknown as FleetJob;
const options = (jobId: string) => ({ jobId, failParentOnFailure: true });

interface Seen {
  real: string[];
  refs: Array<{ under: string; to: string }>;
  children: Map<string, string[]>;
}

function walk(trees: FlowJob[]): Seen {
  const seen: Seen = { real: [], refs: [], children: new Map() };
  const visit = (node: FlowJob, parent?: string): void => {
    const data = node.data as { ref?: string; taskId: string };
    if (data.ref) {
      expect(node.children).toBeUndefined();
      seen.refs.push({ under: parent!, to: data.ref });
      seen.children.get(parent!)!.push(data.taskId);
      return;
    }
    seen.real.push(node.name);
    if (parent) seen.children.get(parent)!.push(node.name);
    seen.children.set(node.name, []);
    expect(node.opts).toMatchObject({ jobId: idOf(node.name), failParentOnFailure: true });
    for (const child of node.children ?? []) visit(child as FlowJob, node.name);
  };
  for (const tree of trees) visit(tree);
  return seen;
}

describe('plans as flow trees', () => {
  const edges = { map: [], e1: ['map'], e2: ['map'], e3: ['map'], r: ['e1', 'e2', 'e3'], sum: ['r'], side: ['map'] };

  it('makes each task a real job once, with its dependencies (real or referenced) as its children', () => {
    const p = plan(edges);
    const seen = walk(flowTrees(p, p.tasks, idOf, payload, options, 'run'));
    expect([...seen.real].sort()).toEqual(Object.keys(edges).sort());
    for (const [task, deps] of Object.entries(edges)) expect(seen.children.get(task)!.sort()).toEqual([...deps].sort());
    // map has four dependants: a real child of one, referenced by the other three.
    expect(seen.refs.filter((ref) => ref.to === 'run.map')).toHaveLength(3);
    expect(seen.refs).toHaveLength(3);
    expect(new Set(seen.refs.map((ref) => ref.under)).size).toBe(3);
  });

  it('roots the trees at the tasks nothing depends on, in plan order', () => {
    const p = plan(edges);
    expect(flowTrees(p, p.tasks, idOf, payload, options, 'run').map((tree) => tree.name)).toEqual(['sum', 'side']);
  });

  it('references the tasks left out of a resubmission', () => {
    const p = plan(edges);
    const subset = p.tasks.filter((task) => ['r', 'sum'].includes(task.id));
    const seen = walk(flowTrees(p, subset, idOf, payload, options, 'run'));
    expect(seen.real).toEqual(['sum', 'r']);
    expect(seen.refs.map((ref) => ref.to).sort()).toEqual(['run.e1', 'run.e2', 'run.e3']);
  });

  it('gives references ids of their own, fresh for each submission', () => {
    const p = plan({ a: [], b: ['a'], c: ['a'] });
    const refIds = () => flowTrees(p, p.tasks, idOf, payload, options, 'run').flatMap((tree) => (tree.children ?? []).map((child) => child.opts!.jobId!)).filter((id) => id.includes('.needs.'));
    const [first, second] = [refIds(), refIds()];
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^run\.[bc]\.needs\.a\.[0-9a-f]{6}$/);
    expect(second[0]).not.toBe(first[0]);
  });
});
