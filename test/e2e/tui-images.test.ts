/**
 * Issue 39, images in the terminal UI (tmux): Ctrl+V pastes the clipboard's image through a fake
 * `xclip` on PATH; the attachment shows as `[Image #1: clipboard.png, 40x30, … KB]` in the input
 * and the transcript, and the request carries the image. Backspace removes it before sending; a
 * pasted path of an image file attaches the file; with no clipboard tool the message says what to
 * install.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/seek-process.js';
import { waitUntil } from '../support/tmux.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';

const h = tuiHarness();

/** A project with `shot.png` (40x30), and a bin dir holding a fake xclip that serves it. */
async function setup(): Promise<{ root: string; home: string; bin: string; bytes: Buffer }> {
  const { root, home } = makeProject();
  const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } }).png().toBuffer();
  writeFileSync(join(root, 'shot.png'), bytes);
  const bin = join(home, 'fake-bin');
  mkdirSync(bin);
  const xclip = join(bin, 'xclip');
  // xclip -selection clipboard -t TARGETS -o lists the types; -t image/png -o prints the image.
  writeFileSync(xclip, `#!/bin/sh\ncase "$*" in\n  *TARGETS*) printf 'TARGETS\\nimage/png\\n' ;;\n  *image/png*) cat '${join(root, 'shot.png')}' ;;\n  *) exit 1 ;;\nesac\n`);
  chmodSync(xclip, 0o755);
  return { root, home, bin, bytes };
}

function anthropic(home: string, bin: string | undefined): { env: Record<string, string>; args: string[] } {
  return {
    env: {
      ...h.env(home),
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: h.server.anthropicBaseUrl,
      PATH: bin ? `${bin}:${process.env.PATH ?? ''}` : (process.env.PATH ?? ''),
    },
    args: ['--provider', 'anthropic'],
  };
}

const LABEL = /\[Image #1: clipboard\.png, 40x30, \d+ KB\]/;

describe.skipIf(!hasTmux)('images in the terminal UI (tmux)', () => {
  it('Ctrl+V attaches the clipboard image: the label in the input and the transcript, the image in the request', async () => {
    const { root, home, bin, bytes } = await setup();
    h.server.enqueue({ text: 'a blue rectangle' });
    const t = h.start(root, home, anthropic(home, bin));
    await t.waitFor('ask seek');
    t.keys('C-v');
    await t.waitFor(LABEL);
    expect(t.visibleLines().some((line) => line.startsWith('›') && LABEL.test(line))).toBe(true);
    t.type(' what is this?');
    t.keys('Enter');
    await t.waitFor('a blue rectangle', 30_000);
    expect(h.server.requests).toHaveLength(1);
    const content = h.server.requests[0]!.body.messages[0].content;
    expect(content[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') } });
    expect(content[1].text).toMatch(/\[Image #1: clipboard\.png, 40x30, \d+ KB\] what is this\?/);
    // The transcript's row of the prompt shows the attachment.
    expect(t.screen()).toMatch(/\[Image #1: clipboard\.png, 40x30, \d+ KB\] what is this\?/);
  });

  it('Backspace removes the attachment before sending: the request has no image', async () => {
    const { root, home, bin } = await setup();
    h.server.enqueue({ text: 'plain answer' });
    const t = h.start(root, home, anthropic(home, bin));
    await t.waitFor('ask seek');
    t.keys('C-v');
    await t.waitFor(LABEL);
    t.keys('BSpace');
    await waitUntil(() => !LABEL.test(t.visibleLines().join('\n')), 'the label removed from the input');
    t.type('just text');
    t.keys('Enter');
    await t.waitFor('plain answer', 30_000);
    expect(h.server.requests[0]!.raw).not.toContain('"type":"image"');
  });

  it('a pasted path of an image file, and @shot.png, attach the file', async () => {
    const { root, home, bin, bytes } = await setup();
    h.server.enqueue({ text: 'first seen' }, { text: 'second seen' });
    const t = h.start(root, home, anthropic(home, bin));
    await t.waitFor('ask seek');
    // A bracketed paste, as a terminal sends a dropped file's path.
    t.type(`\u001b[200~${join(root, 'shot.png')}\u001b[201~`);
    await t.waitFor(/\[Image #1: shot\.png, 40x30, \d+ KB\]/);
    t.keys('Enter');
    await t.waitFor('first seen', 30_000);
    t.type('look at @shot.png');
    t.keys('Enter');
    await t.waitFor('second seen', 30_000);
    for (const request of h.server.requests) {
      const user = request.body.messages.at(-1).content;
      expect(user.some((block: { type: string; source?: { data: string } }) => block.type === 'image' && block.source?.data === bytes.toString('base64'))).toBe(true);
    }
    expect(h.server.requests[1]!.body.messages.at(-1).content.at(-1).text).toMatch(/look at \[Image #1: shot\.png, 40x30, \d+ KB\]/);
  });

  it('no clipboard tool: the message says what to install, nothing is sent', async () => {
    const { root, home } = await setup();
    // PATH holds git alone, so no clipboard tool of this machine is found either.
    const only = join(home, 'only-git');
    mkdirSync(only);
    symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(only, 'git'));
    const run = anthropic(home, undefined);
    const t = h.start(root, home, { ...run, env: { ...run.env, PATH: only } });
    await t.waitFor('ask seek');
    t.keys('C-v');
    await t.waitFor('needs wl-clipboard (Wayland: wl-paste) or xclip (X11)');
    expect(h.server.requests).toHaveLength(0);
  });
});
