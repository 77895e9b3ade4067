/**
 * Background subagents through the real `seek -p` against the scripted model server: the parent
 * goes on while a child's model call is held, the child's result reaches a later parent request
 * without the model asking, the run waits for it before its final answer, background and
 * foreground children run together within the limit, --max-turns stops them, and a parent killed
 * mid-run leaves no process behind and records its children (what --continue then shows).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();
const USAGE = { input: 1000, output: 100, cacheRead: 600 };

interface Req {
  child: boolean;
  system: string;
  messages: Array<{ role: string; content?: string }>;
  turn: number;
  raw: RecordedRequest;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Req['messages'];
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  return { child: system.includes('\n# Subagent\n'), system, messages, turn: messages.filter((m) => m.role === 'assistant').length, raw: request };
}
function route(handler: (req: Req) => ScriptedReply) {
  suite.server.setFallback((request) => ({ usage: USAGE, ...handler(view(request)) }));
}
const bgCall = (name: string, background = true) => ({
  name: 'agent',
  arguments: { description: `task ${name}`, prompt: `Look into ${name}`, subagent_type: 'explore', ...(background ? { run_in_background: true } : {}) },
});
const backgroundMessages = (req: Req) => req.messages.filter((m) => m.role === 'user' && String(m.content).includes('<context source="background-agents">'));
const parents = () => suite.server.requests.map(view).filter((r) => !r.child);

function indexLines(home: string): Array<Record<string, unknown>> {
  const [pid] = readdirSync(join(home, 'projects'));
  return readFileSync(join(home, 'projects', pid!, 'subagents.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}
async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('background subagents', () => {
  it('the parent goes on while the child is answered; the result reaches a later request by itself; -p waits for it', async () => {
    const { root, home } = makeProject();
    const childHeld = deferred();
    route((req) => {
      if (req.child) return { text: 'child found: the answer is 42', pauseAfterChunks: { chunks: 1, until: childHeld.promise } };
      if (req.turn === 0) return { toolCalls: [bgCall('alpha')] };
      if (backgroundMessages(req).length === 0) {
        // The parent's second request: the child's answer is still held. Now let it go.
        setImmediate(childHeld.resolve);
        return { text: 'Started a background look; meanwhile nothing else to do.' };
      }
      return { text: 'Final: the child says 42.' };
    });
    const run = await runSeek(['-p', 'find the answer', '--output-format', 'json'], { cwd: root, env: suite.env(home), timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.result).toBe('Final: the child says 42.');

    const requests = suite.server.requests.map(view);
    const child = requests.find((r) => r.child)!;
    const parent = parents();
    expect(parent).toHaveLength(3);
    // The parent's second request arrived before the child's (held) answer was finished.
    expect(parent[1]!.raw.receivedAt).toBeGreaterThanOrEqual(child.raw.receivedAt);
    expect(parent[1]!.raw.receivedAt).toBeLessThan(child.raw.respondedAt!);
    const started = parent[1]!.messages.find((m) => m.role === 'tool')!;
    expect(String(started.content)).toMatch(/^\[agent: started in background\] task alpha/);
    expect(backgroundMessages(parent[1]!)).toHaveLength(0);
    // The third carries the child's result as a context message the model never asked for.
    const delivered = backgroundMessages(parent[2]!);
    expect(delivered).toHaveLength(1);
    expect(String(delivered[0]!.content)).toContain('[agent: completed] child found: the answer is 42');
    const called = parent[2]!.messages.flatMap((m) => ((m as { tool_calls?: Array<{ function: { name: string } }> }).tool_calls ?? []).map((c) => c.function.name));
    expect(called).toEqual(['agent']);
    // Append-only: the third request extends the second byte for byte.
    expect(JSON.stringify(parent[2]!.messages).startsWith(JSON.stringify(parent[1]!.messages).slice(0, -1))).toBe(true);
    // The bill and the summary include the child.
    expect(result.subagents).toHaveLength(1);
    expect(result.subagents[0]).toMatchObject({ status: 'completed', type: 'explore' });
    expect(result.usage.input_tokens).toBe(4 * USAGE.input);
    expect(indexLines(home).map((e) => e.event)).toEqual(['started', 'completed']);
  });

  it('runs two background children and one foreground child at once, within max_concurrent', async () => {
    const { root, home } = makeProject();
    const allIn = deferred();
    route((req) => {
      if (req.child) {
        if (suite.server.requests.filter((r) => view(r).child).length >= 3) allIn.resolve();
        return { text: `done: ${req.messages.find((m) => m.role === 'user')?.content}`, pauseAfterChunks: { chunks: 1, until: allIn.promise } };
      }
      if (req.turn === 0) return { toolCalls: [bgCall('one'), bgCall('two'), bgCall('three', false)] };
      const text = JSON.stringify(req.messages);
      const seen = ['one', 'two', 'three'].filter((name) => text.includes(`done: Look into ${name}`)).length;
      return { text: seen >= 3 ? 'All three reported.' : `Have ${seen} so far.` };
    });
    const run = await runSeek(['-p', 'fan out', '--output-format', 'json'], { cwd: root, env: suite.env(home), timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.result).toBe('All three reported.');
    const children = suite.server.requests.filter((r) => view(r).child);
    expect(children).toHaveLength(3);
    // In flight together: each child request arrived before any child was answered.
    expect(Math.max(...children.map((r) => r.receivedAt))).toBeLessThanOrEqual(Math.min(...children.map((r) => r.respondedAt!)));
    const second = parents()[1]!;
    const tools = second.messages.filter((m) => m.role === 'tool').map((m) => String(m.content).split('\n')[0]);
    expect(tools.filter((line) => line!.startsWith('[agent: started in background]'))).toHaveLength(2);
    expect(tools.filter((line) => line!.startsWith('[agent: completed] done: Look into three'))).toHaveLength(1);
    expect(result.subagents.map((c: { status: string }) => c.status)).toEqual(['completed', 'completed', 'completed']);
    expect(result.usage.input_tokens).toBe(suite.server.requests.length * USAGE.input);
  });

  it('--max-turns ends the run: background children are stopped, recorded as killed, and reported', async () => {
    const { root, home } = makeProject();
    route((req) => (req.child ? { hang: true } : { toolCalls: [bgCall('slow')] }));
    const run = await runSeek(['-p', 'go', '--max-turns', '1', '--output-format', 'json'], { cwd: root, env: suite.env(home), timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.subtype).toBe('error_max_turns');
    expect(result.subagents).toHaveLength(1);
    expect(result.subagents[0]).toMatchObject({ status: 'killed' });
    expect(run.stderr).toMatch(/stopping 1 background subagent/);
    expect(indexLines(home).map((e) => e.event)).toEqual(['started', 'killed']);
  });

  it('a parent killed mid-run leaves no process of its children and records them as killed; --continue shows it', async () => {
    const { root, home } = makeProject();
    const pidFile = join(tempDir('seek-bg-pid-'), 'pid');
    route((req) => {
      if (req.child) return req.turn === 0 ? { toolCalls: [{ name: 'bash', arguments: { command: `echo $$ > ${pidFile}; exec sleep 600`, timeout_ms: 600000 } }] } : { text: 'slept' };
      if (req.turn === 0) return { toolCalls: [{ ...bgCall('sleeper'), arguments: { ...bgCall('sleeper').arguments, subagent_type: 'general-purpose' } }] };
      return { text: 'waiting for the sleeper' };
    });
    const run = await runSeek(['-p', 'go', '--yolo'], {
      cwd: root,
      env: suite.env(home),
      timeoutMs: 60_000,
      onSpawn: (child) => void waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the child command').then(() => child.kill('SIGTERM')),
    });
    expect(run.code).toBe(1);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    await waitFor(() => !alive(pid), `process ${pid} to end`);
    expect(indexLines(home).map((e) => e.event)).toEqual(['started', 'killed']);

    suite.server.reset();
    route(() => ({ text: 'It was killed.' }));
    const resumed = await runSeek(['-p', 'what became of the sleeper?', '--continue', '--verbose'], { cwd: root, env: suite.env(home), timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('1 background subagent result(s) from the last run');
    const first = view(suite.server.requests[0]!);
    const delivered = backgroundMessages(first);
    expect(delivered).toHaveLength(1);
    expect(String(delivered[0]!.content)).toMatch(/\[agent: failed reason=killed\]/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
