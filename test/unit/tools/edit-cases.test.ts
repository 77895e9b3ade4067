/**
 * edit_file against the project's case set (test/fixtures/edit-cases/, gathered from peers' public
 * test suites plus seek's own classes). Each case runs through the real tool the way the agent loop
 * calls it (see test/support/edit-cases.ts). Apply cases must produce exactly the expected file;
 * refuse cases must leave the file untouched and report an error. The summary test holds the whole
 * set to the bar: at least 95% of apply cases correct, every refuse case refused, nothing wrong.
 */
import { describe, expect, it } from 'vitest';
import {
  EDIT_CASE_CATEGORIES,
  describeCaseResult,
  loadEditCases,
  runEditCase,
  runEditCases,
  tallyByCategory,
  type EditCase,
} from '../../support/edit-cases.js';

const cases = loadEditCases();

describe('edit_file case set', () => {
  it('has cases in every category and both kinds of expectation', () => {
    const categories = new Set(cases.map((item) => item.category));
    expect([...categories].sort()).toEqual([...EDIT_CASE_CATEGORIES].sort());
    expect(cases.some((item) => item.expect.kind === 'refuse')).toBe(true);
    expect(cases.some((item) => item.expect.kind === 'apply')).toBe(true);
  });
});

for (const category of EDIT_CASE_CATEGORIES) {
  const inCategory = cases.filter((item) => item.category === category);
  describe(`edit_file cases: ${category}`, () => {
    it.each(inCategory.map((item): [string, EditCase] => [item.id, item]))('%s', async (_id, item) => {
      const result = await runEditCase(item);
      const wanted = item.expect.kind === 'apply' ? 'correct' : 'refused';
      expect(result.outcome, describeCaseResult(result)).toBe(wanted);
    });
  });
}

describe('edit_file case set summary', () => {
  it('applies at least 95% of apply cases correctly, refuses every refuse case, and writes nothing wrong', async () => {
    const results = await runEditCases(cases);
    const { total } = tallyByCategory(results);
    const failing = results.filter((result) => !result.passed).map((result) => `${result.case.id}: ${result.outcome}`);
    const summary =
      `apply cases correct ${total.applied}/${total.applyCases}, refuse cases refused ${total.refused}/${total.refuseCases}, ` +
      `wrong ${total.applyWrong + total.refuseWrong}\nfailing: ${failing.join(', ')}`;
    expect(total.applied / total.applyCases, summary).toBeGreaterThanOrEqual(0.95);
    expect(total.refused, summary).toBe(total.refuseCases);
    expect(total.applyWrong + total.refuseWrong, summary).toBe(0);
  });
});
