/**
 * The 20-turn tool workload (issue 21): 19 read_file calls, then an answer, from the scripted
 * model. seek (the real process) beside a minimal node:http loop (minimal-loop.mjs) that does the
 * same requests with seek's own first request body and appends the same calls and results. The
 * figure is harness time per turn: from a response's last byte to the next request's arrival
 * (parse, run the tool, persist, build the request), the median over interleaved rounds (the two
 * take turns to go first), as a ratio to the minimal loop. Also printed: whether every seek request
 * extends the previous one.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalPrompt, type ScriptedServer } from '../../test/support/scripted-server/index.js';
import { makeProject, SEEK_BIN } from '../../test/support/seek-process.js';
import { tempDir } from '../../test/support/temp-dirs.js';
import { median } from '../stats.js';

const TURNS = 20;
const MINIMAL_LOOP = new URL('minimal-loop.mjs', import.meta.url).pathname;

function script(server: ScriptedServer, readme: string): void {
  server.reset();
  for (let i = 0; i < TURNS - 1; i++) server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: readme, offset: 1 + (i % 3) } }] });
  server.enqueue({ text: 'done' });
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** Harness time per turn of the run that just ended (the gaps between response and next request). */
function perTurn(server: ScriptedServer): number {
  const requests = server.requests;
  if (requests.length !== TURNS) throw new Error(`expected ${TURNS} requests, saw ${requests.length}`);
  let gaps = 0;
  for (let i = 1; i < requests.length; i++) gaps += requests[i]!.receivedAt - requests[i - 1]!.respondedAt!;
  return gaps / (TURNS - 1);
}

export async function loopWorkload(server: ScriptedServer, rounds: number): Promise<void> {
  const { root, home } = makeProject({ 'README.md': '# bench\n\nline two\nline three\n' });
  const readme = join(root, 'README.md');
  const env = { PATH: process.env.PATH, HOME: home, SEEK_HOME: home, DEEPSEEK_API_KEY: 'bench', DEEPSEEK_BASE_URL: server.url };
  const seekArgs = [SEEK_BIN, '-p', 'read the readme repeatedly', '--no-save', '--max-turns', String(TURNS + 5)];
  // seek's own first request is the minimal loop's.
  script(server, readme);
  await run(seekArgs, root, env);
  const bodyFile = join(tempDir('seek-bench-loop-'), 'first-request.json');
  writeFileSync(bodyFile, JSON.stringify(server.requests[0]!.body));

  const seek: number[] = [];
  const minimal: number[] = [];
  let extending = 0;
  const runSeek = async (): Promise<void> => {
    script(server, readme);
    await run(seekArgs, root, env);
    seek.push(perTurn(server));
    const prompts = server.requests.map(canonicalPrompt);
    extending = prompts.filter((prompt, i) => i === 0 || prompt.startsWith(prompts[i - 1]!)).length - 1;
  };
  const runMinimal = async (): Promise<void> => {
    script(server, readme);
    await run([MINIMAL_LOOP, `${server.url}/chat/completions`, bodyFile], root, env);
    minimal.push(perTurn(server));
  };
  // Which goes first alternates, so neither always starts while the other's exit is still running.
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      await runSeek();
      await runMinimal();
    } else {
      await runMinimal();
      await runSeek();
    }
  }
  const ratio = median(seek) / median(minimal);
  console.log(`${TURNS}-turn tool workload, harness time per turn (response end to next request; median of ${rounds}, interleaved)`);
  console.log(`  minimal node:http loop ${median(minimal).toFixed(2)} ms`);
  console.log(`  seek                   ${median(seek).toFixed(2)} ms   ${ratio.toFixed(2)}x`);
  console.log(`  prefix extension: ${extending}/${TURNS - 1} requests extend the previous one byte for byte`);
}
