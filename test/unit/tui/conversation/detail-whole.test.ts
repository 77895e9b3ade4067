import { describe, expect, it } from 'vitest';
import { detailBody } from '../../../../src/tui/components/conversation/tool-lines.js';
import { lineToString } from '../../../../src/tui/markdown/ansi.js';

describe("Ctrl+T's whole output", () => {
  it('has every line of a long output, long lines continued rather than cut', () => {
    const long = 'x'.repeat(150);
    const output = [...Array.from({ length: 300 }, (_, index) => `line ${index + 1}`), long].join('\n');
    const item = { kind: 'tool' as const, id: 'c1', name: 'bash', summary: 'seq', status: 'done' as const, display: { kind: 'command' as const, command: 'seq', cwd: '/', exitCode: 0, output } };
    const rows = detailBody(item, 60, true).map((line) => lineToString(line, false));
    expect(rows.join('\n')).not.toContain('more lines');
    expect(rows).toContain('line 300');
    expect(rows.slice(-3).join('')).toBe(long);
    expect(detailBody(item, 60).map((line) => lineToString(line, false)).join('\n')).toContain('more lines');
  });
});
