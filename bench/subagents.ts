/**
 * Subagent figures (`npm run bench:subagents`), through real HTTP to the scripted model server
 * (OpenAI wire, as DeepSeek) with an in-process session:
 * 1. parallel efficiency: time of one child / time of N children spawned in one turn, N = 2, 4, 8,
 *    every child request delayed by the same fixed amount on the server;
 * 2. context saved by delegation: the parent's prompt tokens on the request after 50 files were
 *    read, by the parent itself versus by an explore child that returns a summary.
 * Prints figures; asserts nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSession } from '../src/runtime/session.js';
import { makeProject } from '../test/support/seek-process.js';
import { canonicalPrompt, ScriptedServer, tokensOf, type RecordedRequest } from '../test/support/scripted-server/index.js';

const CHILD_DELAY_MS = 500;
const server = await ScriptedServer.start();

const isChild = (request: RecordedRequest): boolean => String(request.body.messages?.[0]?.content ?? '').includes('\n# Subagent\n');
const assistantTurns = (request: RecordedRequest): number => (request.body.messages as Array<{ role: string }>).filter((m) => m.role === 'assistant').length;

async function session(files: Record<string, string>, config?: unknown) {
  const { root, home } = makeProject(files);
  if (config) writeFileSync(join(home, 'config.json'), JSON.stringify(config));
  return openSession({ cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url }, interactive: false, maxTurns: 50 });
}

async function timeChildren(n: number): Promise<number> {
  server.reset();
  server.setFallback((request) => {
    if (isChild(request)) return { text: 'child summary', delayMs: CHILD_DELAY_MS };
    if (assistantTurns(request) > 0) return { text: 'done' };
    return { toolCalls: Array.from({ length: n }, (_, i) => ({ name: 'agent', arguments: { description: `part ${i}`, prompt: `look at part ${i}`, subagent_type: 'explore' } })) };
  });
  const s = await session({ 'README.md': '# bench\n' }, { subagents: { max_concurrent: 8 } });
  const started = performance.now();
  const summary = await s.prompt('split the work');
  const elapsed = performance.now() - started;
  await s.close();
  const completed = summary.subagents.filter((child) => child.status === 'completed').length;
  if (completed !== n) throw new Error(`${n} children: only ${completed} completed`);
  return elapsed;
}

async function parallelEfficiency(): Promise<void> {
  await timeChildren(1); // warm-up: module loading and the first connection are not the children's cost
  const one = await timeChildren(1);
  console.log(`parallel children (server delay ${CHILD_DELAY_MS} ms per child request): 1 child ${one.toFixed(0)} ms`);
  for (const n of [2, 4, 8]) {
    const many = await timeChildren(n);
    console.log(`  ${n} children in one turn: ${many.toFixed(0)} ms, efficiency (time of one / time of ${n}) ${(one / many).toFixed(2)}, ${((n * one) / many).toFixed(1)}x faster than in series`);
  }
}

async function delegationSavings(): Promise<void> {
  const files: Record<string, string> = { 'README.md': '# bench\n' };
  for (let i = 0; i < 50; i++) {
    files[`src/module${i}.ts`] = Array.from({ length: 60 }, (_, line) => `export const value${i}_${line} = ${line}; // module ${i} line ${line}`).join('\n') + '\n';
  }
  const reads = Object.keys(files).filter((path) => path.startsWith('src/')).map((path) => ({ name: 'read_file', arguments: { path } }));
  const summary = 'Each of the 50 modules in src/ exports 60 numeric constants named value<module>_<line>; nothing else. ' + 'Details: '.padEnd(800, '.');

  // A: the parent reads the 50 files itself.
  server.reset();
  server.setFallback((request) => (assistantTurns(request) === 0 ? { toolCalls: reads } : { text: 'read them all' }));
  const direct = await session(files);
  await direct.prompt('what do the modules export?');
  await direct.close();
  const directNext = server.requests.at(-1)!;

  // B: the parent delegates; the child reads the files and returns a summary.
  server.reset();
  server.setFallback((request) => {
    if (isChild(request)) return assistantTurns(request) === 0 ? { toolCalls: reads } : { text: summary };
    return assistantTurns(request) === 0
      ? { toolCalls: [{ name: 'agent', arguments: { description: 'read the modules', prompt: 'Read every file in src/ and summarise what they export.', subagent_type: 'explore' } }] }
      : { text: 'delegated' };
  });
  const delegating = await session(files);
  await delegating.prompt('what do the modules export?');
  await delegating.close();
  const delegatedNext = server.requests.filter((request) => !isChild(request)).at(-1)!;

  const a = tokensOf(canonicalPrompt(directNext));
  const b = tokensOf(canonicalPrompt(delegatedNext));
  console.log(`50-file read (${Object.keys(files).length - 1} files, ~${Math.round(Object.values(files).join('').length / 1024)} KiB): parent's next prompt ${a} tokens reading itself vs ${b} tokens after delegating (${(a / b).toFixed(1)}x smaller, ${Math.round((1 - b / a) * 100)}% saved)`);
}

console.log(`seek subagent benchmarks · node ${process.version}\n`);
await parallelEfficiency();
await delegationSavings();
await server.close();
