/**
 * Nothing lost, through the real `seek` process against the scripted model server: a large answer
 * reaches a slow reader in full (json and stream-json), a reader that leaves early or a full device
 * is a failure without a crash; the command line refuses what would have been a mistaken prompt;
 * a plan file's problems come all at once with their lines.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek, SEEK_BIN } from '../support/seek-process.js';

const suite = useScriptedServer();
const env = (home: string, extra: Record<string, string> = {}) => suite.env(home, { SEEK_MAX_RETRIES: '0', ...extra });
const bases: string[] = [];
afterEach(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});
function project(): { root: string; home: string } {
  const made = makeProject();
  bases.push(join(made.root, '..'));
  return made;
}

/** About 1 MB of answer, with what JSON has to escape: quotes, backslashes, newlines, non-ASCII. */
const BIG_ANSWER = Array.from({ length: 22_000 }, (_, i) => `line ${i}: "quoted" \\ ünïcödé — ${'x'.repeat(10)}\n`).join('');

/** A crash would print Node's trace for the unhandled 'error' event. */
const CRASH_TRACE = /Unhandled 'error' event|node:events|\n\s+at /;

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs seek with stdout read the way a slow consumer reads a pipe: nothing until the model has
 * answered in full, then one chunk at a time with a pause after each (seek must wait for it), or
 * `closeEarly`: the first chunk, then the pipe is closed.
 */
function runWithReader(args: string[], options: { cwd: string; env: Record<string, string>; closeEarly?: boolean }): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SEEK_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`seek ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, 60_000);
    // The 'readable' listener stays attached throughout: when a child exits, Node discards what
    // nobody listens for (the reader itself would lose the tail).
    let started = false;
    let pausing = false;
    const readOne = (): void => {
      if (!started || pausing) return;
      const chunk = child.stdout.read() as Buffer | null;
      if (chunk === null) return; // 'readable' calls again when more arrives
      chunks.push(chunk);
      if (options.closeEarly) return void child.stdout.destroy();
      pausing = true;
      setTimeout(() => {
        pausing = false;
        readOne();
      }, 5);
    };
    child.stdout.on('readable', readOne);
    const answered = (): boolean => suite.server.requests.some((request: RecordedRequest) => request.respondedAt !== undefined);
    const start = (): void => {
      if (!answered() && child.exitCode === null) return void setTimeout(start, 10);
      started = true;
      readOne();
    };
    start();
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(chunks), stderr });
    });
    child.stdin.end();
  });
}

describe('complete output through a pipe', () => {
  it('json: a 1 MB answer reaches a slow reader whole, as one JSON document, exit 0', async () => {
    const { root, home } = project();
    suite.server.enqueue({ text: BIG_ANSWER });
    const run = await runWithReader(['-p', 'write a lot', '--output-format', 'json'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(1_000_000);
    const result = JSON.parse(run.stdout.toString('utf8')) as { type: string; subtype: string; result: string };
    expect(result).toMatchObject({ type: 'result', subtype: 'success' });
    expect(result.result).toBe(BIG_ANSWER);
  });

  it('stream-json: every line of a 1 MB answer parses and the last is the result', async () => {
    const { root, home } = project();
    suite.server.enqueue({ text: BIG_ANSWER });
    const run = await runWithReader(['-p', 'write a lot', '--output-format', 'stream-json'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = run.stdout.toString('utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as { type: string; text?: string; result?: string });
    expect(lines[0]!.type).toBe('system');
    expect(lines.filter((line) => line.type === 'text_delta').map((line) => line.text).join('')).toBe(BIG_ANSWER);
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: BIG_ANSWER });
  });

  it.each(['json', 'stream-json'])('%s: a reader that closes early is a failure (exit 1), not a crash', async (format) => {
    const { root, home } = project();
    suite.server.enqueue({ text: BIG_ANSWER });
    const run = await runWithReader(['-p', 'write a lot', '--output-format', format], { cwd: root, env: env(home), closeEarly: true });
    expect(run.stdout.length).toBeGreaterThan(0);
    expect(run.stdout.length).toBeLessThan(BIG_ANSWER.length);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(CRASH_TRACE);
  });

  it.skipIf(!existsSync('/dev/full'))('a write error other than a closed pipe (a full device) is exit 1 with one line saying so', async () => {
    const { root, home } = project();
    suite.server.enqueue({ text: 'short answer' });
    const full = openSync('/dev/full', 'w');
    try {
      const outcome = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [SEEK_BIN, '-p', 'hi', '--output-format', 'json'], {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env(home) },
          stdio: ['pipe', full, 'pipe'],
        });
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
        child.stdin!.end();
      });
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toMatch(/^seek: could not write the output: ENOSPC/);
      expect(outcome.stderr).not.toMatch(CRASH_TRACE);
    } finally {
      closeSync(full);
    }
  });
});

describe('the command line', () => {
  it('seek help is the help; a mistyped subcommand gets a suggestion (exit 2); neither reaches the model', async () => {
    const { root, home } = project();
    const help = await runSeek(['help'], { cwd: root, env: env(home) });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: seek [options] [prompt...]');
    const helpWorktree = await runSeek(['help', 'worktree'], { cwd: root, env: env(home) });
    expect(helpWorktree.code).toBe(0);
    expect(helpWorktree.stdout).toContain('Usage: worktree');

    const typo = await runSeek(['worktre', 'list'], { cwd: root, env: env(home) });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('seek: "worktre" is not a seek command. Did you mean: seek worktree list\n(to send it to the model as a prompt: seek -- worktre list)\n');
    const alone = await runSeek(['memroy'], { cwd: root, env: env(home) });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('Did you mean: seek memory\n');
    expect(suite.server.requests).toHaveLength(0);
  });

  it('a prompt that starts like a command is still a prompt', async () => {
    const { root, home } = project();
    suite.server.setFallback(() => ({ text: 'ok' }));
    for (const args of [['-p', 'fix the bug'], ['hook', 'up', 'the', 'database', '-p'], ['-p', '--', 'worktre', 'list']]) {
      const run = await runSeek(args, { cwd: root, env: env(home) });
      expect(run).toMatchObject({ code: 0, stdout: 'ok\n' });
    }
    const prompts = suite.server.requests.map((request) => (request.body.messages as Array<{ role: string; content: string }>).at(-1)!.content);
    expect(prompts).toEqual(['fix the bug', 'hook up the database', 'worktre list']);
  });

  it('--worktree-branch without -w implies -w', async () => {
    const { root, home } = project();
    suite.server.enqueue({ text: 'done' });
    const run = await runSeek(['-p', 'hello', '--worktree-branch', 'notes-work'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    const messages = suite.server.requests[0]!.body.messages as Array<{ content?: string }>;
    const context = messages.find((message) => String(message.content).startsWith('<context source="worktree">'));
    expect(context?.content).toContain('(branch notes-work');
  });

  it('seek memory add without a terminal starts no editor: exit 2 naming the flags to use', async () => {
    const { root, home } = project();
    const marker = join(root, '..', 'editor-ran');
    const run = await runSeek(['memory', 'add', 'use-pnpm', '--tagline', 'The repo uses pnpm'], { cwd: root, env: env(home, { EDITOR: `touch ${marker}; true` }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('seek: no terminal to run an editor in; give the entry with flags instead (--content missing): seek memory add use-pnpm --tagline TEXT --content TEXT [--tags a,b]\n');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('plan files', () => {
  it('seek run --dry-run reports several problems at once, each at its line, and exits 1', async () => {
    const { root, home } = project();
    writeFileSync(
      join(root, 'bad.yaml'),
      [
        'goal: Ship it',
        'tasks:',
        '  - id: find',
        '    role: wizard',
        '    task: Find the form',
        '    depends_on: [check]',
        '  - id: fix',
        '    role: editor',
        '    depend_on: [find]',
        '    task: Fix it',
        '  - id: check',
        '    role: reviewer',
        '    task: Review',
        '    depends_on: [find, ghost]',
        '',
      ].join('\n'),
    );
    const run = await runSeek(['run', 'bad.yaml', '--dry-run'], { cwd: root, env: env(home) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      'seek: bad.yaml:3: task find: unknown role "wizard" (roles: explorer, editor, reviewer, general-purpose, explore, plan)',
      'seek: bad.yaml:3: the dependencies form a cycle: find -> check -> find (each waits for the next)',
      'seek: bad.yaml:9: tasks.1: Unrecognized key: "depend_on"',
      'seek: bad.yaml:11: task check depends on unknown task "ghost" (ids: find, fix, check)',
      '',
    ]);
    writeFileSync(join(root, 'broken.yaml'), 'goal: x\ntasks:\n  - id: a\n    task: [unclosed\n  - id: b\n\trole: editor\n');
    const broken = await runSeek(['run', 'broken.yaml', '--dry-run'], { cwd: root, env: env(home) });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^seek: broken\.yaml:5:3: .*\nseek: broken\.yaml:6:1: Tabs are not allowed as indentation\n$/);
    expect(suite.server.requests).toHaveLength(0);
  });
});
