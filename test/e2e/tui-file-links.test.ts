import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileUrl } from '../../src/tui/markdown/file-links.js';
import { makeProject } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { TmuxSeek, waitUntil } from '../support/tmux.js';

/**
 * File paths as OSC 8 `file://HOST/path` links (issue 35): the path a tool row shows, live and
 * after `--continue`, and paths of existing files in answers (code spans and plain words, a
 * `:line` kept in the text), never inside a fenced code block, never broken by seek. The bytes
 * written to the terminal are recorded (tmux pipe-pane): tmux's own capture drops OSC 8.
 */

const h = tuiHarness();
const OSC8 = '\u001b]8;;';
const CLOSE = `${OSC8}\u001b\\`;
const LONG = 'src/components/conversation/a-rather-long-file-name.ts';
const ANSWER = `Read \`src/a.ts:2\` and ${LONG}, not \`src/missing.ts\` or ../outside.txt.\n\n\`\`\`\ncat src/a.ts\n\`\`\`\n\nDone.`;
const READY = /Done\.[\s\S]*ask seek/;

const open = (file: string) => `${OSC8}${fileUrl(file)}\u001b\\`;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `parts` in this order with only SGR codes between them (Ink rewrites how styles are reset). */
const styled = (...parts: string[]) => new RegExp(parts.map(escaped).join('(?:\u001b\\[[0-9;]*m)*'));

/** A project with the two files, a file next to it, and a script: read the long file, answer. */
function project(): { root: string; home: string } {
  const { root, home } = makeProject({ 'src/a.ts': 'export const a = 1;\nexport const b = 2;\n', [LONG]: 'export {};\n' });
  writeFileSync(join(root, '..', 'outside.txt'), 'not in the project\n');
  h.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: LONG } }] }, { text: ANSWER });
  return { root, home };
}

/** What must be linked and what must not, in the bytes of one run. */
function expectLinks(raw: string, root: string, label: string): void {
  // The tool row: its text as before (`read src/components/…`), linked to the absolute file.
  expect(raw, label).toMatch(styled('read', ` ${open(join(root, LONG))}src/components/`));
  // The answer: a code span with its :line, and a plain word kept whole (comma left out).
  expect(raw, label).toMatch(styled(open(join(root, 'src/a.ts')), 'src/a.ts:2', CLOSE));
  expect(raw, label).toContain(`${open(join(root, LONG))}${LONG}${CLOSE},`);
  // Not linked: a missing file, a file outside the project, a path in a fenced code block.
  expect(raw, label).not.toContain(fileUrl(join(root, 'src/missing.ts')));
  expect(raw, label).not.toContain(fileUrl(join(root, '..', 'outside.txt')));
  expect(raw, label).toMatch(/cat (?:\u001b\[[0-9;]*m)*src\/a\.ts/);
  expect(raw, label).not.toMatch(/cat (?:\u001b\[[0-9;]*m)*\u001b\]8;;/);
}

/** Records from before seek writes anything: the pane's shell waits for `go` before starting it. */
function startRecorded(root: string, home: string, width: number, args: string[], env: Record<string, string> = {}): { t: TmuxSeek; log: string } {
  const dir = tempDir('seek-file-links-');
  const log = join(dir, 'output.log');
  const go = join(dir, 'go');
  const t = TmuxSeek.start({ cwd: root, env: h.env(home, env), args, width, height: 24, before: `while [ ! -e '${go}' ]; do sleep 0.05; done` });
  t.recordOutput(log);
  writeFileSync(go, '');
  return { t, log };
}

async function recorded(log: string): Promise<string> {
  await waitUntil(() => existsSync(log) && READY.test(readFileSync(log, 'latin1')), 'the answer reached the recorded output', 60_000);
  return readFileSync(log, 'utf8');
}

describe.skipIf(!hasTmux)('file paths as links (tmux)', () => {
  it.each([80, 40])('tool rows and answers link the files, live and after --continue (%i columns)', async (width) => {
    const { root, home } = project();
    const live = startRecorded(root, home, width, ['--yolo']);
    try {
      await live.t.waitFor('ask seek');
      live.t.type('look at the files');
      live.t.keys('Enter');
      await live.t.waitFor(READY);
      expectLinks(await recorded(live.log), root, `live at ${width}`);
      // Copying gives the paths whole: seek never broke them with a line break.
      const joined = live.t.joinedHistory();
      expect(joined).toContain(`${LONG},`);
      expect(joined).toMatch(/✓ read src\/components\//);
      live.t.type('/exit');
      live.t.keys('Enter');
      await live.t.waitFor('[seek exited');
    } finally {
      live.t.kill();
    }

    const resumed = startRecorded(root, home, width, ['--continue', '--yolo']);
    try {
      await resumed.t.waitFor(READY);
      expectLinks(await recorded(resumed.log), root, `resumed at ${width}`);
    } finally {
      resumed.t.kill();
    }
  }, 180_000);

  it('are plain text with SEEK_HYPERLINKS=0: the same rows, no escape sequence for links', async () => {
    const { root, home } = project();
    const run = startRecorded(root, home, 80, ['--yolo'], { SEEK_HYPERLINKS: '0' });
    try {
      await run.t.waitFor('ask seek');
      run.t.type('look at the files');
      run.t.keys('Enter');
      await run.t.waitFor(READY);
      const raw = await recorded(run.log);
      expect(raw).not.toContain(OSC8);
      expect(raw).toMatch(/\u001b\[36msrc\/a\.ts:2/);
      const joined = run.t.joinedHistory();
      expect(joined).toMatch(/✓ read src\/components\/conversation\/a-rather-long-file-name\.ts {2}\d/);
      expect(joined).toContain(`Read src/a.ts:2 and ${LONG}, not`);
      expect(joined).toContain('src/missing.ts or ../outside.txt.');
    } finally {
      run.t.kill();
    }
  }, 120_000);
});
