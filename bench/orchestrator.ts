/**
 * Orchestration figures (`npm run bench:orchestrator`), through real HTTP to the scripted model
 * server with an in-process session under --yolo and real git: the 6-task graph of issue 7
 * (2 parallel explorers, 2 parallel editors in worktrees, 1 reviewer, 1 final explorer) against
 * the same six tasks forced serial (no depends_on: in order, editors in the working tree). Every
 * child request waits DELAY_MS on the server; explorers and reviewers answer in one request,
 * editors in two (a write, then the summary). Medians of RUNS runs after a warm-up. Prints figures
 * and their ratio; asserts nothing.
 */
import { openSession } from '../src/runtime/session.js';
import { makeProject } from '../test/support/seek-process.js';
import { ScriptedServer, type RecordedRequest } from '../test/support/scripted-server/index.js';

const DELAY_MS = 300;
const RUNS = 3;
const server = await ScriptedServer.start();

const GRAPH = [
  { id: 'x1', role: 'explorer', task: 'find the parser' },
  { id: 'x2', role: 'explorer', task: 'find the printer' },
  { id: 'e1', role: 'editor', task: 'fix the parser', depends_on: ['x1'] },
  { id: 'e2', role: 'editor', task: 'fix the printer', depends_on: ['x2'] },
  { id: 'r', role: 'reviewer', task: 'review both fixes', depends_on: ['e1', 'e2'] },
  { id: 'f', role: 'explorer', task: 'check what is left', depends_on: ['r'] },
];
const SERIAL = GRAPH.map(({ depends_on: _deps, ...task }) => task);

const view = (request: RecordedRequest) => {
  const messages = request.body.messages as Array<{ role: string; content?: string }>;
  const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
  return { task: /^## Your task \(([^,]+),/m.exec(prompt)?.[1], turn: messages.filter((m) => m.role === 'assistant').length };
};

async function timePlan(tasks: unknown[]): Promise<{ ms: number; status: string }> {
  server.reset();
  server.setFallback((request) => {
    const { task, turn } = view(request);
    if (task === 'e1' || task === 'e2') {
      return turn === 0
        ? { toolCalls: [{ name: 'write_file', arguments: { path: `${task}.txt`, content: `${task}\n` } }], delayMs: DELAY_MS }
        : { text: `wrote ${task}.txt`, delayMs: DELAY_MS };
    }
    if (task === 'r') return { text: 'VERDICT: approve', delayMs: DELAY_MS };
    if (task) return { text: `findings of ${task}`, delayMs: DELAY_MS };
    return turn === 0 ? { toolCalls: [{ name: 'delegate_tasks', arguments: { tasks } }] } : { text: 'done' };
  });
  const { root, home } = makeProject({ 'README.md': '# bench\n' });
  const session = await openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url }, interactive: false, yolo: true, maxTurns: 10 });
  let orchestration = { ms: 0, status: '' };
  session.subscribe((event) => {
    if (event.type === 'tool_start' && event.toolCall.name === 'delegate_tasks') orchestration.ms = -performance.now();
    if (event.type === 'orchestration_end') orchestration = { ms: orchestration.ms + performance.now(), status: event.summary.status };
  });
  await session.prompt('fix the parser and the printer');
  await session.close();
  return orchestration;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(tasks: unknown[]): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { ms, status } = await timePlan(tasks);
    if (status !== 'completed') throw new Error(`the plan ended ${status}`);
    samples.push(ms);
  }
  return samples;
}

try {
  await timePlan(SERIAL); // warm-up: module loading, the first connection, git's first runs
  const graph = await measure(GRAPH);
  const serial = await measure(SERIAL);
  const [g, s] = [median(graph), median(serial)];
  // Requests on the longest path: explorer 1 + editor 2 + reviewer 1 + final explorer 1.
  const ideal = 5 * DELAY_MS;
  console.log(`6-task plan (2 explorers ∥, 2 editors ∥ in worktrees, reviewer, final explorer), ${DELAY_MS} ms per child request, median of ${RUNS}:`);
  console.log(`  graph (depends_on):   ${g.toFixed(0)} ms  (${graph.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  forced serial:        ${s.toFixed(0)} ms  (${serial.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  serial / graph:       ${(s / g).toFixed(2)}x`);
  console.log(`  graph overhead over its critical path of 5 requests (${ideal} ms): ${(g - ideal).toFixed(0)} ms (worktrees, merges, diffs, scheduling)`);
  console.log(`  serial overhead over its 8 requests (${8 * DELAY_MS} ms): ${(s - 8 * DELAY_MS).toFixed(0)} ms`);
} finally {
  await server.close();
}
