/**
 * The README's screenshots, made from the real seek: `npm run screenshots` (builds dist/ first).
 *
 * Each scene starts the built `seek` in tmux (100×34, a private socket, a temp SEEK_HOME) in a small
 * TypeScript project, against the scripted model server of the tests, drives it with keys until the
 * screen shows what the scene is about, then captures the pane with its colours
 * (`capture-pane -e`), turns that into SVG (scripts/ansi-svg.ts) and the SVG into PNG with
 * rsvg-convert. Writes docs/screenshots/{first-screen,approval,plan-review,plan,agents}.png. The demo
 * project ($TMPDIR/seek-demo), tmux servers and the model server are gone when it exits, failed or not.
 *
 * `npm run screenshots -- approval plan` runs only the scenes named (first-screen, approval, plan;
 * the plan scene writes plan-review, plan and agents).
 *
 * A dev tool, not a test: it needs tmux, rsvg-convert and the DejaVu Sans Mono font.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedReply } from '../test/support/scripted-server/index.js';
import { ScriptedServer } from '../test/support/scripted-server/index.js';
import { removeTree } from '../test/support/temp-dirs.js';
import { TmuxSeek } from '../test/support/tmux.js';
import { screenToSvg } from './ansi-svg.js';
import { DEMO_FILES, FORMAT_AFTER, FORMAT_BEFORE } from './screenshot-project.js';

const WIDTH = 100;
const HEIGHT = 34;
const OUT_DIR = new URL('../docs/screenshots/', import.meta.url).pathname;
/** Token counts every scripted reply reports, so the status bar shows a plausible bill. */
const USAGE = { input: 9_400, output: 260, cacheRead: 7_100 };

/** Where the demo project lives: a fixed path, because the pictures show it (a random temp name
 * would change every PNG at every run). Only this script uses it; removed before each scene and at exit. */
const DEMO_BASE = join(tmpdir(), 'seek-demo');
process.once('exit', () => removeTree(DEMO_BASE));

/** A git repository named like a real project, and a SEEK_HOME beside it, both fresh. */
function makeDemoProject(): { root: string; home: string } {
  const base = DEMO_BASE;
  removeTree(base);
  mkdirSync(base);
  const root = join(base, 'invoice-kit');
  const home = join(base, 'home');
  mkdirSync(home);
  for (const [path, content] of Object.entries(DEMO_FILES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Dana', '-c', 'user.email=dana@example.com', ...args], { cwd: root });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'invoice-kit: totals and a CLI');
  return { root, home };
}

/** The screen without what changes by itself (spinner frames, elapsed seconds). */
const stillPart = (screen: string) => screen.replace(/[\u2800-\u28ff]/g, '').replace(/\d+s\b/g, 'Ns');

/** Waits until the screen has not changed for SETTLE_MS: a scene's text may land a moment after the
 * part the scene waited for (an answer printed after the approval box). */
async function settle(t: TmuxSeek, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = stillPart(t.visible());
  let since = Date.now();
  while (Date.now() - since < SETTLE_MS) {
    if (Date.now() > deadline) throw new Error(`the screen did not settle:\n${t.visible()}`);
    await sleep(50);
    const now = stillPart(t.visible());
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

const SETTLE_MS = 600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Captures the settled pane as a PNG at docs/screenshots/NAME.png, trimmed to the rows in use. */
async function capture(t: TmuxSeek, name: string): Promise<void> {
  await settle(t);
  const cursor = t.cursor();
  const lines = t.visibleLines();
  let used = lines.length;
  while (used > 0 && lines[used - 1]!.trim() === '') used--;
  const rows = Math.min(HEIGHT, Math.max(used, cursor.y + 1) + 1);
  const svg = screenToSvg(t.styledScreen(), {
    columns: WIDTH,
    rows,
    title: 'seek — invoice-kit',
    ...(cursor.visible ? { cursor: { x: cursor.x, y: cursor.y } } : {}),
  });
  const png = join(OUT_DIR, `${name}.png`);
  execFileSync('rsvg-convert', ['--format', 'png', '--output', png], { input: svg });
  process.stdout.write(`wrote ${png} (${rows} rows)\n`);
}

interface Scene {
  name: string;
  run(t: TmuxSeek, server: ScriptedServer): Promise<void>;
}

const firstScreen: Scene = {
  name: 'first-screen',
  async run(t) {
    await t.waitFor('ask seek');
    t.type('add a currency option to formatTotal');
    await t.waitFor('currency option to formatTotal');
    await capture(t, 'first-screen');
  },
};

const approval: Scene = {
  name: 'approval',
  async run(t, server) {
    server.enqueue(
      { usage: USAGE, text: 'Let me see how totals are formatted now.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/format.ts' } }] },
      {
        usage: USAGE,
        text: '`formatTotal` hard-codes dollars. I will give it a `currency` parameter (default `USD`) and format with `Intl.NumberFormat`.',
        toolCalls: [{ name: 'edit_file', arguments: { path: 'src/format.ts', old_string: FORMAT_BEFORE, new_string: FORMAT_AFTER } }],
      },
    );
    await t.waitFor('ask seek');
    t.type('formatTotal should take a currency code; keep USD as the default');
    t.keys('Enter');
    await t.waitFor(/Allow edit src\/format\.ts\?[\s\S]*t\) No, and tell seek/);
    await t.waitFor(/hard-codes dollars[\s\S]*edit src\/format\.ts[\s\S]*Allow edit/);
    await capture(t, 'approval');
  },
};

/** What a request is: the parent's, or a plan task's (its id and how many turns it has had). */
function taskOf(request: RecordedRequest): { task?: string; turn: number; toolResults: number } {
  const messages = request.body.messages as Array<{ role: string; content?: string }>;
  const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const task = /^## Your task \(([^,]+),/m.exec(prompt)?.[1];
  return { ...(task ? { task } : {}), turn: messages.filter((m) => m.role === 'assistant').length, toolResults: messages.filter((m) => m.role === 'tool').length };
}

const PLAN_TASKS = [
  { id: 'map-cli', role: 'explorer', task: 'Find where the CLI reads its flags', depends_on: [] },
  { id: 'map-fmt', role: 'explorer', task: 'List the callers of formatTotal', depends_on: [] },
  { id: 'impl', role: 'editor', task: 'Add --currency and pass it to formatTotal', depends_on: ['map-cli', 'map-fmt'] },
  { id: 'review', role: 'reviewer', task: 'Check for missed callers and tests', depends_on: ['impl'] },
];

/** The model of the plan scene: the parent delegates; the explorers grep, then wait for `release`
 * before they report; the editor reads a file, then thinks for as long as the scene needs (its
 * second request never gets an answer, nor does the reviewer's: the scene ends before). */
function planModel(release: Promise<void>): (request: RecordedRequest) => Promise<ScriptedReply> {
  return async (request) => {
    const { task, turn } = taskOf(request);
    const reply = (r: ScriptedReply): ScriptedReply => ({ usage: USAGE, chunkDelayMs: 15, ...r });
    if (task === 'map-cli' || task === 'map-fmt') {
      if (turn === 0) {
        const pattern = task === 'map-cli' ? 'parseArgs|process\\.argv' : 'formatTotal\\(';
        return reply({ toolCalls: [{ name: 'grep', arguments: { pattern, path: '.' } }], delayMs: task === 'map-cli' ? 300 : 600 });
      }
      await release;
      return reply({
        text: task === 'map-cli' ? 'src/cli.ts:5 parses flags with parseArgs; src/cli.ts:8 prints summary(invoice).' : 'Callers: src/invoice.ts:22. Tests: test/format.test.ts:5.',
        delayMs: task === 'map-cli' ? 200 : 600,
      });
    }
    if (task === 'impl') return turn === 0 ? reply({ toolCalls: [{ name: 'read_file', arguments: { path: 'src/cli.ts' } }], delayMs: 300 }) : { hang: true };
    if (task === 'review') return { hang: true };
    return turn === 0
      ? reply({ text: 'This touches the CLI and the formatter: I will map both first, then change and review it.', toolCalls: [{ name: 'delegate_tasks', arguments: { tasks: PLAN_TASKS } }] })
      : { hang: true };
  };
}

/** The plan under review, then running (both explorers at work), then `/agents` over it once the
 * explorers reported and the editor started. */
const planAndAgents: Scene = {
  name: 'plan',
  async run(t, server) {
    let open = () => {};
    const release = new Promise<void>((resolve) => (open = resolve));
    server.setFallback(planModel(release));
    await t.waitFor('ask seek');
    t.type('add a --currency flag to the CLI and make totals use it');
    t.keys('Enter');
    await t.waitFor(/Run this plan\?[\s\S]*runs as:/);
    await capture(t, 'plan-review');
    t.keys('Enter');
    await waitForRequest(server, (r) => taskOf(r).task === 'map-cli' && taskOf(r).turn === 1);
    await waitForRequest(server, (r) => taskOf(r).task === 'map-fmt' && taskOf(r).turn === 1);
    await t.waitFor(/⤷ map-cli[^\n]*turn 2[\s\S]*⤷ map-fmt[^\n]*turn 2|⤷ map-fmt[^\n]*turn 2[\s\S]*⤷ map-cli[^\n]*turn 2/);
    await capture(t, 'plan');
    open();
    await waitForRequest(server, (r) => taskOf(r).task === 'impl' && taskOf(r).turn === 1);
    await t.waitFor(/⤷ impl[^\n]*turn 2/);
    t.type('/agents');
    t.keys('Enter');
    await t.waitFor(/Subagents \d/);
    await capture(t, 'agents');
  },
};

async function waitForRequest(server: ScriptedServer, matches: (request: RecordedRequest) => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.requests.some(matches)) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a model request');
    await sleep(50);
  }
}

/** The seek running now: killed at exit, Ctrl+C included (temp-dirs.ts removes the dirs then too). */
let running: TmuxSeek | undefined;
process.once('exit', () => running?.kill());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

async function main(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  const only = process.argv.slice(2);
  const scenes = [firstScreen, approval, planAndAgents].filter((scene) => only.length === 0 || only.includes(scene.name));
  const server = await ScriptedServer.start();
  try {
    for (const scene of scenes) {
      server.reset();
      server.setFallback(undefined);
      const { root, home } = makeDemoProject();
      const t = (running = TmuxSeek.start({
        cwd: root,
        width: WIDTH,
        height: HEIGHT,
        env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'sk-demo', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1', COLORTERM: 'truecolor' },
      }));
      try {
        await scene.run(t, server);
      } catch (error) {
        process.stderr.write(`scene ${scene.name} failed; the screen:\n${t.visible()}\n`);
        throw error;
      } finally {
        t.kill();
        running = undefined;
      }
    }
  } finally {
    await server.close();
  }
}

await main();
