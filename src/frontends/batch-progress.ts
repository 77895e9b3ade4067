/**
 * `seek batch`'s output: progress as jobs move (in a terminal the whole table redrawn in place, a
 * line per change otherwise) and the JSON report at the end.
 */
import type { BatchReport, BatchRow } from '../fleet/batch.js';
import { costFields } from './result.js';

/** Progress on stderr: the whole table redrawn in a terminal; otherwise one line per row change. */
export function batchProgress(write: (text: string) => void, batchId: string, tty: boolean): (rows: readonly BatchRow[]) => void {
  let drawn = 0;
  const last = new Map<number, string>();
  return (rows) => {
    if (tty) {
      const lines = tableLines(batchId, rows);
      write(`${drawn > 0 ? `\x1b[${drawn}A\x1b[J` : ''}${lines.join('\n')}\n`);
      drawn = lines.length;
      return;
    }
    for (const row of rows) {
      const line = rowLine(row);
      if (last.get(row.index) === line) continue;
      last.set(row.index, line);
      write(`batch ${batchId}: ${line}\n`);
    }
  };
}

/** The live table: a summary line, then one padded row per repository. */
export function tableLines(batchId: string, rows: readonly BatchRow[]): string[] {
  const done = rows.filter((row) => row.state === 'completed').length;
  const failed = rows.filter((row) => row.state === 'failed' || row.state === 'capped').length;
  const spent = rows.reduce((sum, row) => sum + row.costUsd, 0);
  const cells = rows.map((row) => [
    shorten(row.repo, 40),
    row.state,
    row.worker ?? '',
    row.attempts ? String(row.attempts) : '',
    row.costUsd > 0 ? `$${row.costUsd.toFixed(4)}` : '',
    row.state === 'completed' ? (row.branch ? `${row.branch}${row.pushed ? '' : ' (bundle)'}` : 'no changes') : row.errors?.at(-1) ? shorten(row.errors.at(-1)!, 60) : '',
  ]);
  const header = ['REPOSITORY', 'STATE', 'WORKER', 'TRY', 'COST', 'RESULT'];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column]!.length)));
  const line = (row: string[]): string => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd();
  return [`batch ${batchId}: ${done}/${rows.length} done${failed ? `, ${failed} failed` : ''}, $${spent.toFixed(4)} so far`, line(header), ...cells.map(line)];
}

function shorten(text: string, width: number): string {
  return text.length > width ? `…${text.slice(text.length - width + 1)}` : text;
}

export function rowLine(row: BatchRow): string {
  const where = row.worker ? ` on ${row.worker}` : '';
  const cost = row.costUsd > 0 ? ` $${row.costUsd.toFixed(4)}` : '';
  const end = row.state === 'completed' && row.branch ? ` → ${row.branch}${row.pushed ? '' : ' (bundle)'}` : row.state === 'failed' || row.state === 'capped' ? ` — ${(row.errors ?? []).at(-1) ?? ''}` : '';
  return `${row.repo}  ${row.state}${where}${row.attempts && row.attempts > 1 ? ` attempt ${row.attempts}` : ''}${cost}${end}`;
}

/** The JSON report: snake_case like seek's other JSON output. */
export function batchReportObject(report: BatchReport): Record<string, unknown> {
  const total = report.rows.reduce((sum, row) => sum + row.costUsd, 0);
  return {
    batch_id: report.batchId,
    status: report.status,
    repos: report.rows.map((row) => ({
      repo: row.repo,
      job_id: row.jobId,
      status: row.state,
      ...(row.worker ? { worker: row.worker } : {}),
      ...(row.attempts ? { attempts: row.attempts } : {}),
      ...(row.branch ? { branch: row.branch, commit: row.commit, pushed: row.pushed } : {}),
      ...(row.pushError ? { push_error: row.pushError } : {}),
      ...(row.bundleBase64 ? { bundle_base64: row.bundleBase64 } : {}),
      ...(row.summary !== undefined ? { summary: row.summary } : {}),
      ...(row.errors ? { errors: row.errors } : {}),
      ...costFields(row.costUsd, row.costKnown !== false),
      usage: { input_tokens: row.tokens.prompt, output_tokens: row.tokens.completion, cache_read_input_tokens: row.tokens.cacheHit },
    })),
    totals: {
      repos: report.rows.length,
      completed: report.rows.filter((row) => row.state === 'completed').length,
      failed: report.rows.filter((row) => row.state !== 'completed').length,
      ...costFields(total, report.rows.every((row) => row.costKnown !== false)),
    },
  };
}
