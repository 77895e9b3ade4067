import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiffDisplay } from '../../../src/tools/diff-display.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { makeCtx, run, tempDir, writeTree } from './helpers.js';

/** 100,000 lines, 98 of every 100 holding "factor" once; the others are context. */
function manyLines(ending: '\n' | '\r\n'): string {
  const lines: string[] = [];
  for (let n = 0; n < 100_000; n += 1) lines.push(n % 100 < 2 ? `  // block ${n}` : `    total = total + values[${n}] * factor;`);
  return lines.join(ending) + ending;
}

async function replaceAll(content: string, oldString: string, newString: string): Promise<{ after: string; content: string; display: DiffDisplay }> {
  const root = tempDir();
  writeTree(root, { 'a.ts': content });
  const result = await run(createEditFileTool(), { path: 'a.ts', old_string: oldString, new_string: newString, replace_all: true }, makeCtx(root));
  expect(result.isError).toBeUndefined();
  return { after: readFileSync(path.join(root, 'a.ts'), 'utf8'), content: result.content, display: result.display as DiffDisplay };
}

describe('edit_file replace_all on a large file', () => {
  it('replaces every place exactly, in LF and in CRLF files', async () => {
    for (const ending of ['\n', '\r\n'] as const) {
      const text = manyLines(ending);
      const { after, content } = await replaceAll(text, 'factor', 'scale$&');
      expect(after).toBe(text.split('factor').join('scale$&'));
      expect(content).toBe('Edited a.ts: replaced 98000 occurrences (+98000 -98000 lines).');
    }
  });

  it('keeps the diff of one hunk spanning the whole file under its line cap, with exact counts', async () => {
    // Every changed line is within 6 lines of the next, so the whole file is one hunk: the cap
    // used to be checked only between hunks, and the preview held all 196,000 changed lines.
    const { display } = await replaceAll(manyLines('\n'), 'factor', 'scale');
    const lines = display.diff.split('\n');
    expect(lines.length).toBeLessThanOrEqual(20_005);
    expect(display.added).toBe(98_000);
    expect(display.removed).toBe(98_000);
    expect(lines.at(-2)).toMatch(/^\(diff cut at 20,000 lines: \d+ more changed lines not shown\)$/);
    // The hunk that was cut says how many lines it shows.
    const header = /^@@ -1,(\d+) \+1,(\d+) @@$/.exec(lines[2]!);
    expect(header).not.toBeNull();
    const body = lines.slice(3, -2);
    expect(body.filter((line) => !line.startsWith('+')).length).toBe(Number(header![1]));
    expect(body.filter((line) => !line.startsWith('-')).length).toBe(Number(header![2]));
    const shown = body.filter((line) => line.startsWith('-')).length;
    expect(lines.at(-2)).toContain(`${2 * (98_000 - shown)} more changed lines`);
  });
});
