/** `seek batch` progress: the live table in a terminal (redrawn in place), lines elsewhere. */
import { describe, expect, it } from 'vitest';
import type { BatchRow } from '../../../src/fleet/batch.js';
import { batchProgress, tableLines } from '../../../src/frontends/batch-progress.js';

const row = (index: number, extra: Partial<BatchRow>): BatchRow => ({ index, repo: `/srv/git/app${index}.git`, jobId: `j${index}`, state: 'queued', costUsd: 0, tokens: { prompt: 0, completion: 0, cacheHit: 0 }, ...extra });

describe('batch progress', () => {
  const rows = [
    row(0, { state: 'completed', worker: 'w1:10', attempts: 1, costUsd: 0.0012, branch: 'seek/batch/b', pushed: true }),
    row(1, { state: 'running', worker: 'w2:20', attempts: 2, costUsd: 0.0003 }),
    row(2, { state: 'failed', attempts: 3, errors: ['attempt 1: x', 'attempt 3: the model refused'] }),
    row(3, {}),
  ];

  it('draws a table: states, workers, attempts, cost so far, results', () => {
    expect(tableLines('b', rows)).toEqual([
      'batch b: 1/4 done, 1 failed, $0.0015 so far',
      '  REPOSITORY         STATE      WORKER  TRY  COST     RESULT',
      '  /srv/git/app0.git  completed  w1:10   1    $0.0012  seek/batch/b',
      '  /srv/git/app1.git  running    w2:20   2    $0.0003',
      '  /srv/git/app2.git  failed             3             attempt 3: the model refused',
      '  /srv/git/app3.git  queued',
    ]);
  });

  it('redraws in place in a terminal and writes a line per change otherwise', () => {
    const tty: string[] = [];
    const draw = batchProgress((text) => tty.push(text), 'b', true);
    draw(rows);
    draw(rows);
    expect(tty[0]!.startsWith('batch b: 1/4 done')).toBe(true);
    expect(tty[1]!.startsWith('\x1b[6A\x1b[J')).toBe(true); // up over the six lines drawn, cleared
    const plain: string[] = [];
    const log = batchProgress((text) => plain.push(text), 'b', false);
    log(rows);
    log(rows); // nothing changed: nothing written
    log([rows[0]!, { ...rows[1]!, state: 'completed', branch: 'seek/batch/b', pushed: false }, rows[2]!, rows[3]!]);
    expect(plain).toHaveLength(5);
    expect(plain[4]).toBe('batch b: /srv/git/app1.git  completed on w2:20 attempt 2 $0.0003 → seek/batch/b (bundle)\n');
  });
});
