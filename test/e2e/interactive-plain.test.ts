import { existsSync, readFileSync } from 'node:fs';
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

const env = (home: string) => ({ SEEK_HOME: home, DEEPSEEK_API_KEY: 'k', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' });

describe('plain interactive mode (stdin is not a terminal)', () => {
  it('asks before a write, applies it on "y", denies a command on "n", and keeps one conversation', async () => {
    const { root, home } = makeProject();
    server.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
      { text: 'Wrote notes.txt.' },
      { toolCalls: [{ name: 'bash', arguments: { command: 'touch should-not-exist' } }] },
      { text: 'Skipped the command.' },
    );
    const run = await runSeek([], { cwd: root, env: env(home), input: 'write the notes\ny\nnow run it\nn\n/cost\n/exit\n' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(root, 'should-not-exist'))).toBe(false);
    expect(run.stdout).toContain('Allow create notes.txt');
    expect(run.stdout).toContain('+hello'); // the diff preview
    expect(run.stdout).toContain('Wrote notes.txt.');
    expect(run.stdout).toContain('Skipped the command.');
    expect(run.stdout).toMatch(/cache hits/);
    // The second prompt continues the same conversation.
    expect(server.requests[2]!.body.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(2);
    const denied = server.requests[3]!.body.messages.at(-1);
    expect(denied.content).toMatch(/^The user declined/);
  });

  it('starts with the prompt given on the command line and exits at end of input', async () => {
    const { root, home } = makeProject();
    server.enqueue({ text: 'hello from seek' });
    const run = await runSeek(['say hello'], { cwd: root, env: env(home), input: '' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('hello from seek');
    expect(server.requests[0]!.body.messages.at(-1).content).toBe('say hello');
  });
});
