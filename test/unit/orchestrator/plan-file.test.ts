import { describe, expect, it } from 'vitest';
import { buildPlan, PlanError } from '../../../src/orchestrator/plan.js';
import { parsePlanFile, planFileProblems, PlanFileError } from '../../../src/orchestrator/plan-file.js';
import { roleCatalog } from '../../../src/orchestrator/roles.js';
import { BUILTIN_SUBAGENT_TYPES } from '../../../src/subagents/builtin-types.js';

const catalog = roleCatalog(BUILTIN_SUBAGENT_TYPES);
const errorsOf = (text: string): string[] => {
  try {
    parsePlanFile(text, 'plan.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(PlanFileError);
    return (error as PlanFileError).problems;
  }
  throw new Error('expected a PlanFileError');
};

describe('plan files', () => {
  it('reads goal and tasks; depends_on may be one id', () => {
    const file = parsePlanFile('goal: Ship\ntasks:\n  - id: a\n    role: explorer\n    task: look\n  - role: editor\n    task: change\n    depends_on: a\n', 'plan.yaml');
    expect(file.goal).toBe('Ship');
    expect(file.tasks).toEqual([{ id: 'a', role: 'explorer', task: 'look' }, { role: 'editor', task: 'change', depends_on: ['a'] }]);
    expect(file.lineOfTask(1)).toBe(6);
  });

  it('reports YAML syntax, shape and unknown keys at their lines', () => {
    expect(errorsOf('goal: x\ntasks: [\n')[0]).toMatch(/^plan\.yaml:\d+: /);
    expect(errorsOf('goal: x\ntasks:\n  - role: explorer\n    task: a\n  - role: editor\n    depend_on: [a]\n    task: b\n')).toEqual([
      'plan.yaml:6: tasks.1: Unrecognized key: "depend_on"',
    ]);
    expect(errorsOf('tasks:\n  - role: explorer\n    task: a\n')).toEqual(['plan.yaml:1: goal: Invalid input: expected string, received undefined']);
  });

  it("says the plan's own problems at the line of the task they are about", () => {
    const file = parsePlanFile('goal: x\ntasks:\n  - id: a\n    role: explorer\n    task: look\n    depends_on: [b]\n  - id: b\n    role: wizard\n    task: do\n    depends_on: [a]\n', 'plan.yaml');
    let caught: unknown;
    try {
      buildPlan(file.tasks, catalog.resolve, catalog.names, file.goal);
    } catch (error) {
      caught = error;
    }
    expect(planFileProblems(file, caught as PlanError)).toEqual(['plan.yaml:7: task b: unknown role "wizard" (roles: explorer, editor, reviewer, general-purpose, explore, plan)']);
  });
});
