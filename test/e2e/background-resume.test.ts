/**
 * A background child whose parent process died (SIGKILL) mid-child, then `seek -p --continue` in a
 * new process: agent_status gives the child's final state (interrupted, not running), and `agent`
 * with `resume` continues it from its transcript (the earlier messages, the unanswered call
 * answered as interrupted, then the new prompt), as a new child with its own record.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();

interface Req {
  child: boolean;
  text: string;
  turn: number;
  messages: Array<{ role: string; content?: string }>;
}
function view(request: RecordedRequest): Req {
  const messages = request.body.messages as Req['messages'];
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  return { child: system.includes('\n# Subagent\n'), text: JSON.stringify(messages), turn: messages.filter((m) => m.role === 'assistant').length, messages };
}
function route(handler: (req: Req) => ScriptedReply) {
  suite.server.setFallback((request) => handler(view(request)));
}
function indexLines(home: string): Array<Record<string, unknown>> {
  const [pid] = readdirSync(join(home, 'projects'));
  return readFileSync(join(home, 'projects', pid!, 'subagents.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}
async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const toolResults = (req: Req) => req.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

/** The sleeping command a killed seek leaves behind: ended after each test. */
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

describe('resuming a parent whose background child was running when it died', () => {
  it('agent_status reports the child interrupted, and agent with resume continues it from its transcript', async () => {
    const { root, home } = makeProject();
    const pidFile = join(tempDir('seek-bg-resume-'), 'pid');
    route((req) => {
      if (req.child) return { toolCalls: [{ name: 'bash', arguments: { command: `echo $$ > ${pidFile}; exec sleep 600`, timeout_ms: 600000 } }] };
      if (req.turn === 0) return { toolCalls: [{ name: 'agent', arguments: { description: 'sleeper', prompt: 'Look into the sleeper', run_in_background: true } }] };
      return { text: 'waiting for the sleeper' };
    });
    const killed = await runSeek(['-p', 'go', '--yolo'], {
      cwd: root,
      env: suite.env(home),
      timeoutMs: 120_000,
      onSpawn: (child) => void waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the child command').then(() => child.kill('SIGKILL')),
    });
    expect(killed.signal ?? killed.code).toBe('SIGKILL');
    leftovers.push(Number(readFileSync(pidFile, 'utf8').trim()));
    // Nothing ran to record the child's end: the index still says it started (and no more).
    expect(indexLines(home).map((e) => e.event)).toEqual(['started']);
    const started = suite.server.requests.map(view).filter((r) => !r.child).flatMap(toolResults).find((c) => c.startsWith('[agent: started in background]'))!;
    const id = /— sub-sid: (\S+)/.exec(started)![1]!;

    suite.server.reset();
    // The resumed history holds the first run's turns: count this run's own requests.
    let parentRequests = 0;
    route((req) => {
      if (req.child) return { text: 'resumed: the sleeper is done' };
      const turn = parentRequests++;
      if (turn === 0) return { toolCalls: [{ name: 'call_tool', arguments: { name: 'agent_status', arguments: { ids: [id], wait: true, timeout_ms: 5000 } } }] };
      if (turn === 1) return { toolCalls: [{ name: 'agent', arguments: { description: 'sleeper again', prompt: 'Finish the sleeper now', resume: id } }] };
      return { text: 'The sleeper is done.' };
    });
    const resumed = await runSeek(['-p', 'what became of the sleeper?', '--continue', '--yolo', '--output-format', 'json'], { cwd: root, env: suite.env(home), timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout);
    expect(result.result).toBe('The sleeper is done.');

    const parents = suite.server.requests.map(view).filter((r) => !r.child);
    const status = toolResults(parents[1]!).at(-1)!;
    expect(status).toContain(`${id} ("sleeper"): interrupted`);
    expect(status).not.toMatch(/running ·|active in another/);
    expect(status).toContain(`resume: "${id}"`);
    // The continuation saw the earlier transcript: its task, the call the dead process never
    // answered (answered now as interrupted), then the new prompt.
    const child = suite.server.requests.map(view).find((r) => r.child)!;
    const texts = child.messages.map((m) => String(m.content ?? ''));
    const task = texts.indexOf('Look into the sleeper');
    const interrupted = texts.findIndex((t) => t.startsWith('Interrupted: the session stopped'));
    const now = texts.indexOf('Finish the sleeper now');
    expect(task).toBeGreaterThan(0);
    expect(interrupted).toBeGreaterThan(task);
    expect(now).toBeGreaterThan(interrupted);
    expect(toolResults(parents[2]!).at(-1)).toMatch(/^\[agent: completed\] resumed: the sleeper is done/);
    // The old child is recorded as orphaned; the continuation has its own record, completed.
    const events = indexLines(home);
    const oldSid = events[0]!.sub_sid;
    expect(events.filter((e) => e.sub_sid === oldSid).map((e) => e.event)).toEqual(['started', 'orphaned']);
    expect(events.filter((e) => e.sub_sid !== oldSid).map((e) => e.event)).toEqual(['started', 'completed']);
    expect(result.subagents).toHaveLength(1);
    expect(result.subagents[0]).toMatchObject({ status: 'completed', description: 'sleeper again' });
  }, 300_000);

  it('refuses to continue a child that is still running here, and an unknown id', async () => {
    const { root, home } = makeProject();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    route((req) => {
      if (req.child) return { text: 'slow child done', pauseAfterChunks: { chunks: 1, until: held } };
      if (req.turn === 0) return { toolCalls: [{ name: 'agent', arguments: { description: 'slow', prompt: 'Be slow', run_in_background: true } }] };
      if (req.turn === 1) {
        const id = /— sub-sid: (\S+)/.exec(toolResults(req).join('\n'))![1]!;
        return {
          toolCalls: [
            { name: 'agent', arguments: { description: 'again', prompt: 'More', resume: id } },
            { name: 'agent', arguments: { description: 'ghost', prompt: 'More', resume: 'nosuchchild' } },
          ],
        };
      }
      if (req.turn === 2) setImmediate(release);
      return { text: req.turn === 2 ? 'Refused as expected.' : 'Done.' };
    });
    const run = await runSeek(['-p', 'go', '--output-format', 'json'], { cwd: root, env: suite.env(home), timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const third = suite.server.requests.map(view).filter((r) => !r.child)[2]!;
    const [running, unknown] = toolResults(third).slice(-2);
    expect(running).toMatch(/^\[agent: failed reason=spawn_error\] subagent \S+ is still running: wait for it/);
    expect(unknown).toMatch(/^\[agent: failed reason=spawn_error\] no subagent "nosuchchild" of this session to resume/);
  }, 300_000);
});
