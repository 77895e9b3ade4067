import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek, SEEK_BIN } from '../support/seek-process.js';

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

  it('shows every line of a multi-line command, escaped, before the user answers', async () => {
    const { root, home } = makeProject();
    mkdirSync(join(root, 'something-marker'));
    const lines = [
      'set -e',
      'npm ci --no-audit',
      ...Array.from({ length: 6 }, (_, index) => `echo "step ${index + 3}" >> build.log`),
      'printf "progress\r\u001b[2Kdone"', // a carriage return and an erase-line escape, for real
      'rm -rf something-marker',
    ];
    server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: lines.join('\n') } }] }, { text: 'Left it alone.' });
    const seek = interactiveSeek(root, env(home));
    try {
      seek.send('clean up\n');
      const shown = await seek.waitFor('[y]es / [n]o / [a]lways this session: ');
      // Nothing has been answered yet: the whole command is on screen before the question.
      expect(shown).not.toContain('Left it alone.');
      expect(shown).toContain(`command, ${lines.length} lines:`);
      expect(shown).toContain('$ set -e\n');
      for (const line of lines.slice(1, -2)) expect(shown).toContain(`> ${line}\n`);
      expect(shown).toContain('> printf "progress\\r\\x1b[2Kdone"\n');
      expect(shown).toContain('> rm -rf something-marker\n');
      expect(shown).toContain('hidden characters shown escaped: \\r \\x1b');
      expect(shown).not.toMatch(/[\r\u001b]/);
      expect(shown).toContain(root); // where it runs
      seek.send('n\n');
      await seek.waitFor('Left it alone.');
      seek.end();
      const run = await seek.exit;
      expect(run.code).toBe(0);
    } finally {
      seek.kill();
    }
    expect(existsSync(join(root, 'something-marker'))).toBe(true);
    expect(server.requests[1]!.body.messages.at(-1).content).toMatch(/^The user declined/);
  });
});

/** The real seek in plain mode with stdin kept open, so each answer can wait for what it answers. */
function interactiveSeek(cwd: string, extra: Record<string, string>) {
  const child = spawn(process.execPath, [SEEK_BIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...extra },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
      for (const listener of listeners) listener();
    });
  });
  return {
    exit,
    send: (text: string) => child.stdin.write(text),
    end: () => child.stdin.end(),
    kill: () => child.kill('SIGKILL'),
    /** Resolves with all output so far once it contains `text`; fails if seek exits first. */
    waitFor(text: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (stdout.includes(text)) {
            listeners.delete(check);
            resolve(stdout);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            listeners.delete(check);
            reject(new Error(`seek exited before showing ${JSON.stringify(text)}\nstdout: ${stdout}\nstderr: ${stderr}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}
