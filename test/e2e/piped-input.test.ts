/**
 * `seek -p` and standard input: a prompt argument with an open but idle stdin (a socket pair from
 * the parent, or a FIFO whose writer stays open) runs at once without reading it; input already
 * piped is part of the prompt; `-` reads stdin to its end.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek, SEEK_BIN } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const suite = useScriptedServer();

/** The text of the last user message of the first request the model received. */
function userText(): string {
  const messages = suite.server.requests[0]!.body.messages as Array<{ role: string; content: unknown }>;
  const user = messages.filter((message) => message.role === 'user').at(-1)!;
  return typeof user.content === 'string' ? user.content : JSON.stringify(user.content);
}

/** Starts seek with `stdin` as its standard input; resolves with its exit code and output. */
function start(args: string[], root: string, home: string, stdin: 'pipe' | number) {
  const child = spawn(process.execPath, [SEEK_BIN, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...suite.env(home) },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, exited };
}

describe('seek -p with standard input', () => {
  it('a prompt argument and an idle, open stdin pipe: runs at once and exits while the pipe is still open', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'hello back' });
    const { child, exited } = start(['-p', 'say hello'], root, home, 'pipe');
    // This end of the pipe is neither written nor closed until seek has exited.
    const run = await exited;
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain('hello back');
    expect(userText()).toBe('say hello');
    child.stdin!.destroy();
  });

  it('the same with a FIFO whose writer stays open', async () => {
    const { root, home } = makeProject();
    const fifo = join(tempDir('seek-fifo-'), 'in');
    execFileSync('mkfifo', [fifo]);
    // Opened for reading and writing, the FIFO has a writer (this process) that never writes.
    const fd = openSync(fifo, constants.O_RDWR);
    try {
      suite.server.enqueue({ text: 'fine' });
      const run = await start(['-p', 'just this'], root, home, fd).exited;
      expect(run.code).toBe(0);
      expect(userText()).toBe('just this');
    } finally {
      closeSync(fd);
    }
  });

  it('input already piped joins the prompt argument, however long; without an argument it is the prompt', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'reviewed' });
    const withArgument = await runSeek(['-p', 'review this'], { cwd: root, env: suite.env(home), input: 'diff --git a/x b/x\n+added line\n' });
    expect(withArgument.code).toBe(0);
    expect(userText()).toBe('review this\n\ndiff --git a/x b/x\n+added line');

    // More than the first non-blocking read takes (64 KiB): the rest is read to the end.
    suite.server.reset();
    suite.server.enqueue({ text: 'long' });
    const long = 'x'.repeat(200_000);
    const large = await runSeek(['-p', 'count'], { cwd: root, env: suite.env(home), input: long });
    expect(large.code).toBe(0);
    expect(userText()).toBe(`count\n\n${long}`);

    suite.server.reset();
    suite.server.enqueue({ text: 'ok' });
    const alone = await runSeek(['-p'], { cwd: root, env: suite.env(home), input: 'the whole prompt\n' });
    expect(alone.code).toBe(0);
    expect(userText()).toBe('the whole prompt');
  });

  it('`-` stands for stdin read to its end, and is not itself part of the prompt', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ text: 'got it' });
    const { child, exited } = start(['-p', 'summarise', '-'], root, home, 'pipe');
    child.stdin!.write('first part\n');
    child.stdin!.end('second part\n');
    const run = await exited;
    expect(run.code).toBe(0);
    expect(userText()).toBe('summarise\n\nfirst part\nsecond part');
  });
});
