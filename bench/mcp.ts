/**
 * MCP's cost to a session (`npm run bench:mcp`). Prints figures; asserts nothing.
 *
 * 1. bytes of the first request with 0, 1 and 3 configured servers (server-everything, 13 tools
 *    each): MCP tools are deferred behind mcp_search / mcp_call, so the first request must not grow
 *    with the servers' tools;
 * 2. time from start to the first request with no server and with a server that takes 5 s to
 *    start: servers connect in the background, so the first prompt must not wait;
 * 3. over a session that searches and calls MCP tools, the share of each request that repeats the
 *    previous request byte for byte (prefix extension).
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { makeProject, runSeek } from '../test/support/seek-process.js';
import { canonicalPrompt, commonPrefixBytes, ScriptedServer } from '../test/support/scripted-server/index.js';
import { median } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const SLOW_SERVER = `setTimeout(() => { process.argv[2] = 'stdio'; import(${JSON.stringify(EVERYTHING)}); }, 5000)`;

function configure(home: string, count: number, slow = false): void {
  const servers: Record<string, unknown> = {};
  for (let n = 0; n < count; n += 1) {
    servers[`everything${n + 1}`] = slow ? { command: process.execPath, args: ['-e', SLOW_SERVER] } : { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  }
  writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
}

async function firstRequestBytes(server: ScriptedServer): Promise<void> {
  console.log('first request bytes (body as sent)');
  let base = 0;
  for (const count of [0, 1, 3]) {
    const { root, home } = makeProject();
    configure(home, count);
    server.reset();
    server.enqueue({ text: 'ok' });
    const run = await runSeek(['-p', 'hi', '--no-save'], { cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url } });
    if (run.code !== 0) throw new Error(run.stderr);
    const bytes = Buffer.byteLength(JSON.stringify(server.requests[0]!.body));
    if (count === 0) base = bytes;
    console.log(`  ${count} server(s): ${bytes} bytes (+${bytes - base})`);
  }
}

async function timeToFirstRequest(server: ScriptedServer): Promise<void> {
  const times: Record<string, number[]> = { 'no server': [], 'a server taking 5 s to start': [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const [label, slow] of [['no server', false], ['a server taking 5 s to start', true]] as const) {
      const { root, home } = makeProject();
      configure(home, slow ? 1 : 0, true);
      server.reset();
      server.enqueue({ text: 'ok' });
      const started = performance.timeOrigin + performance.now();
      const result = await runSeek(['-p', 'hi', '--no-save'], { cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url } });
      if (result.code !== 0) throw new Error(result.stderr);
      times[label]!.push(server.requests[0]!.receivedAt - started);
    }
  }
  const none = median(times['no server']!);
  console.log(`time to the first request (median of ${RUNS}, interleaved)`);
  for (const [label, values] of Object.entries(times)) console.log(`  ${label.padEnd(30)} ${median(values).toFixed(1)} ms   ${(median(values) / none).toFixed(2)}x`);
}

async function prefixExtension(server: ScriptedServer): Promise<void> {
  const { root, home } = makeProject();
  configure(home, 1);
  server.reset();
  server.enqueue(
    { toolCalls: [{ name: 'mcp_search', arguments: { query: 'sum' } }] },
    { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything1__get-sum', arguments: { a: 1, b: 2 } } }] },
    { toolCalls: [{ name: 'mcp_search', arguments: { query: 'echo' } }] },
    { toolCalls: [{ name: 'mcp_call', arguments: { tool: 'mcp__everything1__echo', arguments: { message: 'x' } } }] },
    { text: 'done' },
  );
  const run = await runSeek(['-p', 'use the tools', '--yolo', '--no-save'], { cwd: root, env: { SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url } });
  if (run.code !== 0) throw new Error(run.stderr);
  let extended = 0;
  for (let n = 1; n < server.requests.length; n += 1) {
    const previous = canonicalPrompt(server.requests[n - 1]!);
    const current = canonicalPrompt(server.requests[n]!);
    if (commonPrefixBytes(previous, current) === Buffer.byteLength(previous)) extended += 1;
  }
  console.log(`prefix extension over ${server.requests.length} requests with MCP searches and calls: ${extended}/${server.requests.length - 1} requests extend the previous one byte for byte`);
}

const server = await ScriptedServer.start();
try {
  await firstRequestBytes(server);
  await timeToFirstRequest(server);
  await prefixExtension(server);
} finally {
  await server.close();
}
