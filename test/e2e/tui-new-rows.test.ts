/**
 * Rows added by the image, language-server and background-agent work, pinned as a real terminal
 * shows them at 40 and 120 columns (tmux, with colours): a prompt's image label, the `✗ N errors`
 * row under an edit's diff, and a background agent's row with the status bar's `⤴ N agent` count.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { makeProject } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import type { TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

const SIZES = [
  { width: 40, height: 24 },
  { width: 120, height: 40 },
];
const BIN = new URL('../../node_modules/.bin', import.meta.url).pathname;
const SGR = /\u001b\[[0-9;]*m/g;
const isChild = (request: RecordedRequest) => String(request.body.messages[0]?.content ?? '').includes('\n# Subagent\n');

/** The visible row holding `text`, plain and with its colours. */
function row(t: TmuxSeek, text: string): { plain: string; styled: string } {
  const styled = t.styledScreen().split('\n').find((line) => line.replace(SGR, '').includes(text));
  expect(styled, `a row with ${text}:\n${t.visible()}`).toBeDefined();
  return { plain: styled!.replace(SGR, '').trimEnd(), styled: styled! };
}

/** The SGR parameters in force where `text` starts on the styled row. */
function colourAt(styled: string, text: string): string[] {
  const before = styled.slice(0, styled.indexOf(text));
  const codes = [...before.matchAll(/\u001b\[([0-9;]*)m/g)].map((match) => match[1]!);
  const since = codes.map((code) => code.split(';')).flat();
  const reset = since.lastIndexOf('0');
  return since.slice(reset + 1);
}

describe.skipIf(!hasTmux)('rows added last session, in a real terminal', () => {
  it.each(SIZES)('the image label of a prompt stays whole on its row ($width x $height)', async ({ width, height }) => {
    const { root, home } = makeProject();
    writeFileSync(join(root, 'shot.png'), await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } }).png().toBuffer());
    h.server.enqueue({ text: 'a blue rectangle' });
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: h.server.anthropicBaseUrl };
    const t = h.start(root, home, { width, height, args: ['--provider', 'anthropic'], env });
    await t.waitFor('ask seek');
    t.type(`\u001b[200~${join(root, 'shot.png')}\u001b[201~`);
    await t.waitFor(/\[Image #1: shot\.png/);
    t.type(' what is in this picture?');
    await t.waitFor('picture?');
    t.keys('Enter');
    await t.waitFor(/a blue rectangle[\s\S]*ask seek/, 30_000);
    const prompt = row(t, '[Image #1:');
    expect(prompt.plain).toMatch(width >= 60 ? /^› \[Image #1: shot\.png, 40x30, 1 KB\] what is in this picture\?$/ : /^› \[Image #1: shot\.png, 40x30, 1 KB\] what$/);
    if (width < 60) expect(row(t, 'is in this picture?').plain).toBe('  is in this picture?'); // the prompt's hanging indent
  });

  it.each(SIZES)('an edit that breaks the types: `✗ 1 error` in red under the diff, its first error dim ($width x $height)', async ({ width, height }) => {
    const tsconfig = JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'esnext', moduleResolution: 'bundler', noEmit: true } });
    const main = 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\n';
    const { root, home } = makeProject({ 'tsconfig.json': tsconfig, 'math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n', 'main.ts': main });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ lsp: { wait_ms: 180_000 } }));
    h.server.enqueue({ toolCalls: [{ name: 'edit_file', arguments: { path: 'main.ts', old_string: 'const total: number', new_string: 'const total: string' } }] }, { text: 'Edited.' });
    const t = h.start(root, home, { width, height, args: ['--yolo'], env: { PATH: `${BIN}:${process.env.PATH ?? ''}` } });
    await t.waitFor('ask seek');
    t.type('break it');
    t.keys('Enter');
    await t.waitFor(/Edited\.[\s\S]*ask seek/, 200_000);
    const errors = row(t, '✗ 1 error');
    expect(errors.plain).toBe('    ✗ 1 error'); // under the diff's line numbers
    expect(colourAt(errors.styled, '✗')).toContain('31');
    const first = row(t, 'main.ts:3:14 error:');
    expect(first.plain.startsWith('      main.ts:3:14 error: Type ')).toBe(true);
    expect(first.plain.length).toBeLessThanOrEqual(width);
    expect(colourAt(first.styled, 'main.ts:3:14')).toContain('2');
  }, 240_000);

  it.each(SIZES)('a background agent: its row says it runs in the background, the status bar counts it ($width x $height)', async ({ width, height }) => {
    const { root, home } = makeProject();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.server.setFallback((request) => {
      if (isChild(request)) return { text: 'found 7 files', pauseAfterChunks: { chunks: 1, until: held } };
      const assistants = request.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;
      if (assistants === 0) return { toolCalls: [{ name: 'agent', arguments: { description: 'slow look at every file in the project tree', prompt: 'Count the files', subagent_type: 'explore', run_in_background: true } }] };
      return { text: 'Going on meanwhile.' };
    });
    const t = h.start(root, home, { width, height, args: ['--yolo'] });
    await t.waitFor('ask seek');
    t.type('count the files');
    t.keys('Enter');
    await t.waitFor(/Going on meanwhile\.[\s\S]*⤴ 1 agent/, 30_000);
    const header = row(t, '✓ agent slow look');
    // At 40 columns the cut moves with the duration's width (`51ms`, `812ms`, `1.2s`).
    expect(header.plain).toMatch(width >= 60 ? /^✓ agent slow look at every file in the project tree {2}[\d.]+m?s$/ : /^✓ agent slow look at every file(?: \S{1,2})?… {2}[\d.]+m?s$/);
    const hint = row(t, 'running in the background');
    expect(hint.plain).toMatch(/^ {2}└ ⤴ running in the background · [0-9a-f]{6}$/);
    expect(colourAt(hint.styled, '⤴')).toContain('34');
    const status = row(t, '⤴ 1 agent');
    expect(status.plain).toMatch(/^yolo · ⤴ 1 agent · deepseek-v4-flash/);
    expect(colourAt(status.styled, '⤴ 1 agent')).toContain('34');
    release();
    await t.waitFor('takes its result now', 60_000);
  }, 120_000);
});
