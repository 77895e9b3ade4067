import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import type { ScriptedReply } from '../support/scripted-server/types.js';
import { runSeek } from '../support/seek-process.js';
import { hasSandbox } from '../support/sandbox.js';
import { hostDir, sandboxUsers } from '../support/sandbox-users.js';

/**
 * Issue 32, point 5, end to end: a prompt-injected model in `--auto` starts a sandboxed background
 * job that keeps swapping a project directory for a symlink to a directory outside (a rename loop
 * in its own process), then makes seek write 1,000 files through that directory with write_file.
 * seek's own writes run outside the sandbox, so only their confinement stands between the swap and
 * the outside directory: none of them may land there.
 */
let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const WRITES = 1_000;
const PER_REPLY = 50;

/** The swapper, as the model would write it: `a/b` is a directory one moment, a link out the next. */
const swapper = (outside: string): string => `
const fs = require('fs');
const b = 'a/b';
let swaps = 0;
for (;;) {
  // A fresh name each time: when seek recreates a/b while it is missing, the swap goes on.
  const aside = 'a/b.real' + swaps;
  try { fs.renameSync(b, aside); } catch {}
  try { fs.symlinkSync(${JSON.stringify(outside)}, b + '.tmp'); fs.renameSync(b + '.tmp', b); } catch { try { fs.unlinkSync(b + '.tmp'); } catch {} }
  try { fs.unlinkSync(b); } catch {}
  try { fs.renameSync(aside, b); } catch {}
  if (++swaps === 64) fs.writeFileSync('swapping', '');
}
`;

describe.skipIf(!hasSandbox)('--auto: seek\'s own writes stay inside while a sandboxed job swaps a directory for a symlink', () => {
  const user = sandboxUsers[0]!;
  it(`${WRITES} write_file calls racing the swapper: none lands outside`, { timeout: 240_000 }, async () => {
    const base = hostDir('seek-write-race-', user);
    const root = join(base, 'repo');
    const outside = join(base, 'outside');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    mkdirSync(outside);
    mkdirSync(join(base, 'home'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    const writes: ScriptedReply[] = [];
    for (let first = 0; first < WRITES; first += PER_REPLY) {
      const calls = Array.from({ length: PER_REPLY }, (_, i) => ({ name: 'write_file', arguments: { path: `a/b/f${first + i}.txt`, content: `file ${first + i}\n` } }));
      writes.push({ toolCalls: calls });
    }
    server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'swap.js', content: swapper(outside) } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'node swap.js', run_in_background: true } }] },
      // The writes start once the job has swapped: waiting for state, not for time.
      { toolCalls: [{ name: 'bash', arguments: { command: 'until [ -f swapping ]; do sleep 0.02; done; echo swapping' } }] },
      ...writes,
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'write the files', '--auto'], {
      cwd: root,
      env: { HOME: join(base, 'home'), SEEK_HOME: join(base, 'seek-home'), DEEPSEEK_API_KEY: 'sk-test', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' },
      timeoutMs: 220_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(outside), 'files seek wrote outside the project').toEqual([]);
    // Every write's result, from whichever request first carried it (a long history may be trimmed).
    const byCall = new Map<string, string>();
    for (const request of server.requests) {
      for (const m of request.body.messages as { role: string; content: string; tool_call_id?: string }[]) {
        if (m.role === 'tool' && m.tool_call_id !== undefined) byCall.set(m.tool_call_id, m.content);
      }
    }
    const results = [...byCall.values()].slice(3);
    expect(results).toHaveLength(WRITES);
    const refused = results.filter((content) => /symbolic link|replaced while seek was working/.test(content)).length;
    console.log(`write race through seek: ${WRITES} writes, ${refused} refused as the swap was seen, ${WRITES - refused} written inside, 0 outside`);
    // The race was real: some writes met the link (a swapper that never swapped proves nothing).
    expect(refused).toBeGreaterThan(0);
  });
});
