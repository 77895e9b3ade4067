import { describe, expect, it } from 'vitest';
import { grepCounts, runSummary } from '../../../../src/tui/components/conversation/tool-outcome.js';

describe('runSummary: the last test/build summary line of a command\'s output', () => {
  it.each([
    ['vitest', ' Test Files  1 failed | 2 passed (3)\n      Tests  \u001b[31m1 failed\u001b[39m | 12 passed (13)\n   Duration  1.2s', '12 passed, 1 failed', true],
    ['jest', 'Test Suites: 1 failed, 3 passed, 4 total\nTests:       1 failed, 12 passed, 13 total\nSnapshots:   0 total\nTime:        2.1 s', '12 passed, 1 failed', true],
    ['mocha', '  12 passing (34ms)\n  2 pending\n  1 failing\n\n  1) adds:\n     AssertionError', '12 passed, 1 failed, 2 pending', true],
    ['pytest', '...\n=========== 1 failed, 12 passed, 2 skipped in 0.12s ===========', '12 passed, 1 failed, 2 skipped', true],
    ['pytest -q', '..F\n1 failed, 2 passed in 0.05s', '2 passed, 1 failed', true],
    ['go test', 'ok  \texample.com/a\t0.012s\nFAIL\texample.com/b\t0.020s\nFAIL', '1 package ok, 1 failed', true],
    ['go test, cached', 'ok  \texample.com/a\t(cached)\nok  \texample.com/c\t0.3s', '2 packages ok', false],
    ['cargo test (last crate wins)', 'test result: ok. 3 passed; 0 failed; 0 ignored\n   Doc-tests x\ntest result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s', '12 passed, 0 failed, 1 ignored', false],
    ['tsc', 'src/a.ts(3,1): error TS2304: Cannot find name x.\n\nFound 2 errors in 1 file.', '2 errors', true],
    ['vitest, all green', '      Tests  44 passed (44)', '44 passed', false],
  ])('%s', (_runner, output, text, failed) => {
    expect(runSummary(output)).toEqual({ text, failed });
  });

  it('is undefined for output without a recognisable summary', () => {
    expect(runSummary('hello\nworld\n3 apples passed the test of time')).toBeUndefined();
    expect(runSummary('')).toBeUndefined();
  });
});

describe('grepCounts', () => {
  it('counts matching rows and files, or takes the total grep wrote when it cut the list', () => {
    expect(grepCounts('a.ts:1:x\na.ts:4:x\nb/c.ts:2:x')).toBe('3 matches in 2 files');
    expect(grepCounts('a.ts:1:x')).toBe('1 match in 1 file');
    expect(grepCounts('a.ts:1:x\n[… 40 more matches in 3 files not shown (41 matches in 4 files in all); narrow the pattern, path or glob]')).toBe('41 matches in 4 files');
    expect(grepCounts('No matches')).toBeUndefined();
  });
});
