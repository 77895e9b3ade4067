/**
 * Background subagents (`npx tsx bench/background-agents.ts`), through real HTTP to the scripted
 * model server (OpenAI wire, as DeepSeek) with an in-process session, run as `seek -p` runs it
 * (runtime/background-turns.ts): a 3-child fan-out, in the background versus in the foreground,
 * with fixed server delays (every child request CHILD_DELAY_MS, every parent request
 * PARENT_DELAY_MS). Figures: wall time to the parent's first answer (its first response without
 * tool calls), and to the run's end (the answer that has every child's result). Asserts nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSession } from '../src/runtime/session.js';
import { promptSettled } from '../src/runtime/background-turns.js';
import { makeProject } from '../test/support/seek-process.js';
import { ScriptedServer, type RecordedRequest } from '../test/support/scripted-server/index.js';

const CHILD_DELAY_MS = 1500;
const PARENT_DELAY_MS = 200;
const ROUNDS = 3;
const server = await ScriptedServer.start();

const isChild = (request: RecordedRequest): boolean => String(request.body.messages?.[0]?.content ?? '').includes('\n# Subagent\n');
const assistantTurns = (request: RecordedRequest): number => (request.body.messages as Array<{ role: string }>).filter((m) => m.role === 'assistant').length;

async function fanOut(background: boolean): Promise<{ first: number; end: number }> {
  server.reset();
  server.setFallback((request) => {
    if (isChild(request)) return { text: 'child summary', delayMs: CHILD_DELAY_MS };
    if (assistantTurns(request) > 0) return { text: 'an answer', delayMs: PARENT_DELAY_MS };
    const calls = Array.from({ length: 3 }, (_, i) => ({
      name: 'agent',
      arguments: { description: `part ${i}`, prompt: `look at part ${i}`, subagent_type: 'explore', ...(background ? { run_in_background: true } : {}) },
    }));
    return { toolCalls: calls, delayMs: PARENT_DELAY_MS };
  });
  const { root, home } = makeProject({ 'README.md': '# bench\n' });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ subagents: { max_concurrent: 4 } }));
  const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url }, interactive: false, maxTurns: 50 });
  const started = performance.now();
  let first = 0;
  session.subscribe((event) => {
    if (event.type === 'turn_end' && event.message.toolCalls.length === 0 && first === 0) first = performance.now() - started;
  });
  const summary = await promptSettled(session, 'split the work', new AbortController().signal, () => {});
  const end = performance.now() - started;
  await session.close();
  const completed = summary.subagents.filter((child) => child.status === 'completed').length;
  if (completed !== 3) throw new Error(`only ${completed} of 3 children completed`);
  return { first, end };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await fanOut(false); // warm-up: module loading and the first connection
const runs = { foreground: [] as Array<{ first: number; end: number }>, background: [] as Array<{ first: number; end: number }> };
for (let round = 0; round < ROUNDS; round++) {
  runs.foreground.push(await fanOut(false));
  runs.background.push(await fanOut(true));
}
console.log(`3-child fan-out, server delays: child request ${CHILD_DELAY_MS} ms, parent request ${PARENT_DELAY_MS} ms; median of ${ROUNDS}`);
for (const [mode, list] of Object.entries(runs)) {
  console.log(`${mode.padEnd(10)} first answer ${median(list.map((r) => r.first)).toFixed(0)} ms · run end (all results answered) ${median(list.map((r) => r.end)).toFixed(0)} ms`);
}
await server.close();
