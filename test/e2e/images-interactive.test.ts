/**
 * `-i PATH` without `-p`: the image goes with the first prompt in the line mode (stdin not a
 * terminal) and in the terminal UI (tmux), as it does headless. Before, both dropped it silently.
 * A file that is not an image ends the run before anything is sent, exit 2, as under -p.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeProject, runSeek } from '../support/seek-process.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

async function shot(root: string): Promise<Buffer> {
  const bytes = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#cc3366' } }).png().toBuffer();
  writeFileSync(join(root, 'shot.png'), bytes);
  return bytes;
}

const anthropicEnv = (home: string) => ({ ...h.env(home), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: h.server.anthropicBaseUrl });

function expectImageFirst(bytes: Buffer, prompt: string): void {
  const content = h.server.requests[0]!.body.messages[0].content;
  expect(content[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } });
  expect(content[1].text).toContain(prompt);
}

describe('-i with an interactive first prompt', () => {
  it('line mode: the first request carries the image', async () => {
    const { root, home } = makeProject();
    const bytes = await shot(root);
    h.server.enqueue({ text: 'a pink tile' });
    const run = await runSeek(['--provider', 'anthropic', '-i', 'shot.png', 'what is it?'], { cwd: root, env: anthropicEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('a pink tile');
    expect(h.server.requests).toHaveLength(1);
    expectImageFirst(bytes, 'what is it?');
  });

  it('line mode: a file that is not an image ends the run before any request, exit 2', async () => {
    const { root, home } = makeProject({ 'notes.txt': 'plain words\n' });
    const run = await runSeek(['--provider', 'anthropic', '-i', 'notes.txt', 'look'], { cwd: root, env: anthropicEnv(home), timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^seek: .*notes\.txt/m);
    expect(h.server.requests).toHaveLength(0);
  });

  it.skipIf(!hasTmux)('terminal UI: the first prompt goes with its image', async () => {
    const { root, home } = makeProject();
    const bytes = await shot(root);
    h.server.enqueue({ text: 'a pink tile' });
    const t = h.start(root, home, { env: anthropicEnv(home), args: ['--provider', 'anthropic', '-i', 'shot.png', 'what is it?'] });
    await t.waitFor('a pink tile', 60_000);
    expect(h.server.requests).toHaveLength(1);
    expectImageFirst(bytes, 'what is it?');
  });
});
