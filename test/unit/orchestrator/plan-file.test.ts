import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPlanFile, PlanFileError, readPlanFile } from '../../../src/orchestrator/plan-file.js';
import { roleCatalog } from '../../../src/orchestrator/roles.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../src/subagents/builtin-types.js';

const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
const ROLES = '(roles: explorer, editor, reviewer, general-purpose, explore, plan)';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seek-plan-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `lines` as plan.yaml in the temp dir. */
function planFile(lines: string[]): string {
  const path = join(dir, 'plan.yaml');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Every problem `seek run` would report for the file, with the path shortened to `plan.yaml`. */
async function problemsOf(lines: string[]): Promise<string[]> {
  const path = planFile(lines);
  try {
    checkPlanFile(await readPlanFile(path), catalog.resolve, catalog.names);
  } catch (error) {
    expect(error).toBeInstanceOf(PlanFileError);
    return (error as PlanFileError).problems.map((line) => line.replace(path, 'plan.yaml'));
  }
  throw new Error('expected a PlanFileError');
}

describe('plan files', () => {
  it('reads goal and tasks; depends_on may be one id', async () => {
    const file = await readPlanFile(planFile(['goal: Ship', 'tasks:', '  - id: a', '    role: explorer', '    task: look', '  - role: editor', '    task: change', '    depends_on: a']));
    expect(file.goal).toBe('Ship');
    expect(file.tasks).toEqual([{ id: 'a', role: 'explorer', task: 'look' }, { role: 'editor', task: 'change', depends_on: ['a'] }]);
    expect(file.lineOfTask(1)).toBe(6);
    const plan = checkPlanFile(file, catalog.resolve, catalog.names);
    expect(plan.tasks.map((task) => [task.id, task.dependsOn])).toEqual([['a', []], ['t2', ['a']]]);
  });

  it('reports every YAML syntax error at its own line and column', async () => {
    expect(
      await problemsOf([
        'goal: x',
        'tasks:',
        '  - id: a',
        '    role: explorer',
        '    task: [unclosed',
        '  - id: b',
        '\trole: editor',
      ]),
    ).toEqual([
      'plan.yaml:6:3: Flow sequence in block collection must be sufficiently indented and end with a ]',
      'plan.yaml:7:1: Tabs are not allowed as indentation',
    ]);
    expect(await problemsOf(['goal: x', 'tasks:', '  - id: a', '    role: explorer', '    task: one', '    task: two'])).toEqual(['plan.yaml:6:5: Map keys must be unique']);
  });

  it('reports shape problems, the plan\'s own problems and cycles in one report, in line order', async () => {
    expect(
      await problemsOf([
        'goal: Ship it', //                 1
        'tasks:', //                        2
        '  - id: a', //                     3
        '    role: wizard', //              4
        '    task: look', //                5
        '    depends_on: [c]', //           6
        '  - id: b', //                     7
        '    role: editor', //              8
        '    depend_on: [a]', //            9
        '    task: change', //              10
        '  - id: c', //                     11
        '    role: reviewer', //            12
        '    task: ""', //                  13
        '    depends_on: [a, ghost]', //    14
        '  - id: d', //                     15
        '    role: explorer', //            16
        '    task: loop', //                17
        '    depends_on: d', //             18
      ]),
    ).toEqual([
      `plan.yaml:3: task a: unknown role "wizard" ${ROLES}`,
      'plan.yaml:3: the dependencies form a cycle: a -> c -> a (each waits for the next)',
      'plan.yaml:9: tasks.1: Unrecognized key: "depend_on"',
      'plan.yaml:11: task c depends on unknown task "ghost" (ids: a, b, c, d)',
      'plan.yaml:13: tasks.2.task: task is empty',
      'plan.yaml:15: task d depends on itself',
    ]);
  });

  it('says what is wrong with a key once: the plan check does not repeat the shape check', async () => {
    expect(
      await problemsOf([
        'goal: x',
        'tasks:',
        '  - id: a', // 3: no role (shape), not also "unknown role """
        '    task: look',
        '  - id: b',
        '    role: explorer',
        '    task: use it',
        '    depends_on: {a: 1}', // 8: wrong type (shape), read as no dependencies
        '  - just a string', // 9: not a task at all
        '  - id: d',
        '    role: explorer',
        '    task: after b',
        '    depends_on: [b, e]', // 13: unknown dependency, still found
      ]),
    ).toEqual([
      'plan.yaml:3: tasks.0.role: Invalid input: expected string, received undefined',
      'plan.yaml:8: tasks.1.depends_on: Invalid input',
      'plan.yaml:9: tasks.2: Invalid input: expected object, received string',
      'plan.yaml:10: task d depends on unknown task "e" (ids: a, b, t3, d)',
    ]);
  });

  it('without usable tasks reports only the shape', async () => {
    expect(await problemsOf(['tasks: []'])).toEqual(['plan.yaml:1: goal: Invalid input: expected string, received undefined', 'plan.yaml:1: tasks: tasks is empty']);
    expect(await problemsOf(['goal: x', 'tasks: do everything'])).toEqual(['plan.yaml:2: tasks: Invalid input: expected array, received string']);
  });

  it('says when the file cannot be read', async () => {
    const missing = join(dir, 'missing.yaml');
    await expect(readPlanFile(missing)).rejects.toThrow(`${missing}: cannot read the plan file (ENOENT)`);
  });
});
