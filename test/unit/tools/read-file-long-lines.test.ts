import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadFileTool, READ_MAX_LINE_CHARS } from '../../../src/tools/read-file.js';
import { makeCtx, run, tempDir } from './helpers.js';

const tool = createReadFileTool();
const TOOL_MODULE = new URL('../../../src/tools/read-file.ts', import.meta.url).pathname;

/** read_file's numbered form of `text`, computed the obvious way (whole string, split). */
function reference(text: string, offset = 1): string[] {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines.slice(offset - 1).map((line, index) => {
    let clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (index + offset === 1 && clean.startsWith('\uFEFF')) clean = clean.slice(1);
    const shown = clean.length <= READ_MAX_LINE_CHARS ? clean : `${clean.slice(0, READ_MAX_LINE_CHARS)}… [+${clean.length - READ_MAX_LINE_CHARS} chars]`;
    return `${String(index + offset).padStart(6)}\t${shown}`;
  });
}

describe('read_file on long lines', () => {
  it('shows what a whole-string reading shows, with characters split across stream chunks', async () => {
    const root = tempDir();
    // Over 256 KiB, so the file is streamed. Multi-byte characters (2, 3 and 4 bytes: é, €, 😀)
    // fall on every possible chunk offset; a BOM starts it and CRLF ends its lines.
    const wide = 'é€😀a'.repeat(120_000);
    const text = `\uFEFF${wide}\r\nshort\r\n${'x'.repeat(300_000)}\nlast 😀`;
    writeFileSync(path.join(root, 'mixed.txt'), text);
    const result = await run(tool, { path: 'mixed.txt' }, makeCtx(root));
    const mixedEndings = "… line endings are mixed: CRLF on lines 1-2, LF on the other lines shown (edit_file matches LF text and keeps each line's own ending)";
    expect(result.content).toBe(`${reference(text).join('\n')}\n${mixedEndings}`);
    expect(result.content).toContain(`… [+${wide.length - READ_MAX_LINE_CHARS} chars]`);

    const paged = await run(tool, { path: 'mixed.txt', offset: 3, limit: 1 }, makeCtx(root));
    expect(paged.content).toBe(`${reference(text, 3)[0]}\n… showing lines 3-3 of 4; call read_file with offset=4 to continue`);
  });

  it('reads a 96 MiB single-line file with a 48 MiB JavaScript heap (memory bounded by the output, not the line)', () => {
    const root = tempDir();
    const file = path.join(root, 'one-line.txt');
    const fd = openSync(file, 'w');
    const block = Buffer.alloc(1024 * 1024, 'abcdefgh');
    for (let index = 0; index < 96; index += 1) writeSync(fd, block);
    closeSync(fd);
    const script = `
      const { createReadFileTool } = await import(${JSON.stringify(TOOL_MODULE)});
      const ctx = { cwd: '/', projectRoot: '/', signal: new AbortController().signal, callId: 'c' };
      const result = await createReadFileTool().execute({ path: ${JSON.stringify(file)} }, ctx);
      process.stdout.write(result.content);`;
    // A whole-line string alone would need 96 MiB of heap: the old reader died here with
    // "JavaScript heap out of memory".
    const child = spawnSync(process.execPath, ['--max-old-space-size=48', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toBe(`     1\t${'abcdefgh'.repeat(250)}… [+${96 * 1024 * 1024 - READ_MAX_LINE_CHARS} chars]`);
  });
});
