/**
 * A session file keeps a command's output once: the result's content, not again in the view the
 * terminal UI replays on resume (tool-view.ts). A resumed session still shows the output.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function sessionFile(home: string): string {
  const projects = join(home, 'projects');
  const files = readdirSync(projects).flatMap((pid) => {
    const dir = join(projects, pid, 'sessions');
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f)) : [];
  });
  expect(files).toHaveLength(1);
  return files[0]!;
}

describe('session files', () => {
  it('store a bash output and a grep result once, and rebuild their displays on resume', async () => {
    const { root, home } = makeProject();
    // printf joins the halves, so the output's text is not in the command itself.
    server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: "printf 'zq%s\\n' 'xw-unique-output'" } }] },
      { toolCalls: [{ name: 'grep', arguments: { pattern: 'demo' } }] },
      { text: 'done' },
    );
    const env = { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' };
    const run = await runSeek(['-p', '--yolo', 'run it'], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(sessionFile(home), 'utf8');
    expect(text.split('zqxw-unique-output').length - 1).toBe(1);
    const results = text.trim().split('\n').map((line) => JSON.parse(line) as { message?: { role: string; toolName?: string; view?: { display?: Record<string, unknown> } } });
    const bash = results.find((entry) => entry.message?.role === 'tool' && entry.message.toolName === 'bash')!;
    expect(bash.message!.view!.display).toMatchObject({ kind: 'command', outputInContent: 'zqxw-unique-output'.length });
    expect(bash.message!.view!.display).not.toHaveProperty('output');
    const grep = results.find((entry) => entry.message?.role === 'tool' && entry.message.toolName === 'grep')!;
    expect(grep.message!.view!.display).toMatchObject({ kind: 'text', textInContent: expect.any(Number) });
  });
});
