/**
 * Ctrl+T (a tool row's whole output) and `/agents` are full-screen views: they open on the
 * terminal's alternate screen and leave the scrollback exactly as it was. `/agents` shows a
 * finished child's transcript path whole (never broken by seek, so `capture-pane -J` gives it in
 * one piece) and as an OSC 8 file:// link.
 */
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { makeProject } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';
import { hasTmux, tuiHarness } from '../support/tui-harness.js';
import { waitUntil, type TmuxSeek } from '../support/tmux.js';

const h = tuiHarness();

const SHELL = Array.from({ length: 30 }, (_, index) => `shell-line-${index + 1}`);
const BEFORE = `for i in $(seq 1 30); do echo shell-line-$i; done`;
const isChild = (request: RecordedRequest) => String(request.body.messages[0]?.content ?? '').includes('\n# Subagent\n');

/** A turn that reads a file, asks a child, and answers. */
function script(): void {
  h.server.setFallback((request): ScriptedReply => {
    if (isChild(request)) return { text: 'The child looked around.' };
    const turn = request.body.messages.filter((message: { role: string }) => message.role === 'assistant').length;
    if (turn === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] };
    if (turn === 1) return { toolCalls: [{ name: 'agent', arguments: { description: 'look around', prompt: 'look', subagent_type: 'explore' } }] };
    return { text: 'The first answer.' };
  });
}

async function firstTurn(t: TmuxSeek): Promise<void> {
  await t.waitFor('ask seek');
  t.type('read and ask');
  t.keys('Enter');
  await t.waitFor(/The first answer\.[\s\S]*ask seek/, 30_000);
}

/** Opens a view with `open`, checks it is on the alternate screen, closes it with `close`, and
 * checks the main screen and its whole scrollback came back exactly as they were. */
async function opensOnAlternate(t: TmuxSeek, what: string, open: () => Promise<void>, close: () => Promise<void>): Promise<void> {
  const before = t.history().trimEnd();
  expect(t.onAlternateScreen()).toBe(false);
  await open();
  expect(t.onAlternateScreen(), `${what} is on the alternate screen`).toBe(true);
  await close();
  await waitUntil(() => !t.onAlternateScreen(), `${what} left the alternate screen`);
  await t.waitFor('› ask seek');
  expect(t.history().trimEnd(), `after ${what}`).toBe(before);
  const history = t.history().split('\n');
  expect(history.slice(history.indexOf('shell-line-1'), history.indexOf('shell-line-1') + 30), `after ${what}`).toEqual(SHELL);
}

describe.skipIf(!hasTmux)('full-screen panels (tmux)', () => {
  it('at 80x24: Ctrl+T and /agents open on the alternate screen; the 30 shell lines and the conversation are unchanged after each', async () => {
    const { root, home } = makeProject({ 'notes.txt': 'one\n' });
    script();
    const t = h.start(root, home, { width: 80, height: 24, before: BEFORE, args: ['--yolo'] });
    await firstTurn(t);

    await opensOnAlternate(
      t,
      'Ctrl+T',
      async () => {
        t.keys('C-t');
        await t.waitFor(/tool 2 of 2/);
        t.keys('Left');
        await t.waitFor(/tool 1 of 2/);
        expect(t.visible()).toContain('read notes.txt');
      },
      async () => t.keys('Escape'),
    );
    await opensOnAlternate(
      t,
      '/agents',
      async () => {
        t.type('/agents');
        t.keys('Enter');
        await t.waitFor('enter transcript');
        t.keys('Enter');
        await t.waitFor('The child looked around.');
      },
      async () => {
        t.keys('Escape');
        await t.waitFor('enter transcript');
        t.keys('Escape');
      },
    );
  });

  for (const width of [80, 40]) {
    it(`at ${width} columns: /agents shows the child's transcript path unbroken, as an OSC 8 file:// link`, async () => {
      const { root, home } = makeProject({ 'notes.txt': 'one\n' });
      script();
      const log = join(tempDir('seek-panels-'), 'output.log');
      const t = h.start(root, home, { width, height: 30, args: ['--yolo'] });
      await firstTurn(t);
      t.recordOutput(log);
      t.type('/agents');
      t.keys('Enter');
      await t.waitFor('enter transcript');
      t.keys('Enter');
      await t.waitFor('full transcript:');
      // The path is longer than the terminal is wide: the terminal wrapped it, and joining its
      // soft-wrapped rows again (what copying does) gives the path whole, on one line.
      const rows = t.joinedHistory().split('\n');
      const label = rows.findIndex((row) => row.startsWith('full transcript:'));
      const path = rows[label + 1]!.trimEnd();
      expect(path.length, rows.join('\n')).toBeGreaterThan(width);
      expect(path).toMatch(/\/subagents\/[^/]+\/transcript\.jsonl$/);
      expect(existsSync(path), path).toBe(true);
      expect(t.visible()).not.toContain(path); // on the screen it takes several rows
      // …and it is a link to the file.
      const url = pathToFileURL(path).href.replace('file://', `file://${hostname()}`);
      await waitUntil(() => existsSync(log) && readFileSync(log, 'utf8').includes(`\u001b]8;;${url}\u001b\\`), `the link to ${url} was written`);
    });
  }
});
