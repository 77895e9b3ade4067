/**
 * Sessions under faults, through the real `seek` process against the scripted model server: two
 * `seek -c` at once end as two valid sessions (the second a fork); a damaged session file resumes
 * with a request the strict checks accept; a session left before its first prompt leaves no file;
 * one that failed or was killed before its first answer keeps its prompt and `--continue` resumes
 * it; an unreadable newest session stops `--continue` (exit 2, the file named).
 */
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/scripted-server/index.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek, type SeekRun } from '../support/seek-process.js';

const suite = useScriptedServer();
const TIMEOUT = 60_000;

const cleanups: string[] = [];
afterEach(() => {
  for (const dir of cleanups.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): { root: string; home: string } {
  const made = makeProject();
  cleanups.push(dirname(made.root));
  return made;
}

type Wire = 'deepseek' | 'anthropic';
function env(home: string, wire: Wire = 'deepseek'): Record<string, string> {
  if (wire === 'deepseek') return suite.env(home);
  return { SEEK_HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: suite.server.anthropicBaseUrl, SEEK_RETRY_BASE_MS: '1' };
}

/** Runs seek; tests check `toMatchObject({ code })` on the whole run so a failure shows its stderr. */
function seek(args: string[], root: string, home: string, extra: { wire?: Wire; input?: string; onSpawn?: (pid: number) => void } = {}): Promise<SeekRun> {
  return runSeek(args, {
    cwd: root,
    env: env(home, extra.wire),
    timeoutMs: TIMEOUT,
    ...(extra.input !== undefined ? { input: extra.input } : {}),
    ...(extra.onSpawn ? { onSpawn: (child) => extra.onSpawn!(child.pid!) } : {}),
  });
}

/** The project's sessions directory (one project per test). */
function sessionsDir(home: string): string {
  const projects = readdirSync(join(home, 'projects'));
  expect(projects).toHaveLength(1);
  return join(home, 'projects', projects[0]!, 'sessions');
}

function sessionFiles(home: string): string[] {
  const dir = join(home, 'projects');
  if (!existsSync(dir)) return [];
  const sessions = sessionsDir(home);
  return existsSync(sessions) ? readdirSync(sessions).filter((name) => name.endsWith('.jsonl')).sort() : [];
}

function lines(home: string, sid: string): Array<Record<string, unknown>> {
  return readFileSync(join(sessionsDir(home), `${sid}.jsonl`), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The text of every message of a request, whichever the wire (system prompt left out). */
function texts(request: RecordedRequest): string[] {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  return messages
    .filter((m) => m.role !== 'system')
    .flatMap((m) =>
      Array.isArray(m.content)
        ? (m.content as Array<{ type: string; text?: string; content?: string }>).map((b) => (b.type === 'text' ? b.text! : b.type === 'tool_result' ? (b.content ?? '') : `[${b.type}]`))
        : [String(m.content ?? '')],
    );
}

function sessionId(run: SeekRun): string {
  if (!run.stdout.startsWith('{')) throw new Error(`seek printed no JSON result (exit ${run.code}): ${run.stderr}`);
  return JSON.parse(run.stdout).session_id as string;
}

/** A `--output-format stream-json` run: its session id and its notices (json alone shows none). */
function streamed(run: SeekRun): { sessionId: string; notices: string[] } {
  const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; session_id?: string; text?: string });
  return {
    sessionId: events.find((event) => event.type === 'result')!.session_id!,
    notices: events.filter((event) => event.type === 'notice').map((event) => event.text!),
  };
}

describe('two seek -c at once on one project', () => {
  it('end as two valid sessions: the second forks, names the other process, and each resumes', async () => {
    const { root, home } = project();
    suite.server.enqueue({ text: 'first answer' });
    const original = sessionId(await seek(['-p', 'first question', '--output-format', 'json'], root, home));

    // A's model request is held until B has finished: both run at the same time, for sure.
    let arrived!: () => void;
    const aInRequest = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    suite.server.enqueue(async () => {
      arrived();
      await gate;
      return { text: 'answer A' };
    }, { text: 'answer B' });
    let aPid = 0;
    const a = seek(['-c', '-p', 'from A', '--output-format', 'json'], root, home, { onSpawn: (pid) => (aPid = pid) });
    await aInRequest;
    const b = await seek(['-c', '-p', 'from B', '--output-format', 'stream-json'], root, home).finally(release);
    const aRun = await a;

    expect([aRun.code, aRun.stderr, b.code, b.stderr]).toEqual([0, '', 0, '']);
    expect(sessionId(aRun)).toBe(original);
    const { sessionId: fork, notices } = streamed(b);
    expect(fork).not.toBe(original);
    expect(notices).toContainEqual(expect.stringContaining(`session ${original} is open in another seek process (pid ${aPid}); continuing in a new session ${fork} forked from it`));
    // B carries the finished turns, not A's prompt still in flight.
    expect(texts(suite.server.requests[2]!)).toEqual(['first question', 'first answer', 'from B']);
    expect(texts(suite.server.requests[1]!)).toEqual(['first question', 'first answer', 'from A']);

    expect(sessionFiles(home)).toEqual([`${original}.jsonl`, `${fork}.jsonl`].sort());
    expect(readdirSync(sessionsDir(home)).filter((name) => name.includes('.owner'))).toEqual([]); // both locks released
    expect(lines(home, fork)[0]).toMatchObject({ id: fork, forked_from: { session_id: original, pid: aPid } });
    const contents = (sid: string): unknown[] => lines(home, sid).flatMap((l) => (l.type === 'message' ? [(l.message as { content: unknown }).content] : []));
    expect(contents(original)).toEqual(['first question', 'first answer', 'from A', 'answer A']);
    expect(contents(fork)).toEqual(['first question', 'first answer', 'from B', 'answer B']);

    suite.server.enqueue({ text: 'A again' }, { text: 'B again' });
    const resumeA = await seek(['--resume', original, '-p', 'more A'], root, home);
    const resumeB = await seek(['--resume', fork, '-p', 'more B'], root, home);
    expect([resumeA.code, resumeA.stderr, resumeB.code, resumeB.stderr]).toEqual([0, '', 0, '']);
    expect(texts(suite.server.requests[3]!)).toEqual(['first question', 'first answer', 'from A', 'answer A', 'more A']);
    expect(texts(suite.server.requests[4]!)).toEqual(['first question', 'first answer', 'from B', 'answer B', 'more B']);
    expect(suite.server.violations).toEqual([]);
  });
});

describe('a damaged session file', () => {
  it.each(['deepseek', 'anthropic'] as const)('resumes with a corrupt middle line and a torn last line; the next request is valid (%s wire)', async (wire) => {
    const { root, home } = project();
    suite.server.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }, { name: 'list_dir', arguments: {} }] },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '*.md' } }] },
      { text: 'looked around' },
    );
    const sid = sessionId(await seek(['-p', 'look around', '--output-format', 'json'], root, home, { wire }));
    const path = join(sessionsDir(home), `${sid}.jsonl`);
    const fileLines = readFileSync(path, 'utf8').split('\n');
    const firstResult = fileLines.findIndex((line) => line.includes('"message":{"role":"tool"'));
    expect(firstResult).toBeGreaterThan(0);
    fileLines[firstResult] = '{"type":"message","ts":"2025-01-01T00:00:00.000Z","message":{"role":"tool","toolCallId":\u0000 garbage';
    writeFileSync(path, `${fileLines.join('\n')}{"type":"message","ts":"2025-01-01T00:00:00.000Z","message":{"role":"user","con`);

    suite.server.reset();
    suite.server.enqueue({ text: 'resumed fine' }, { text: 'and again' });
    const resumed = await seek(['-c', '-p', 'go on'], root, home, { wire });
    expect(suite.server.violations).toEqual([]);
    expect(resumed).toMatchObject({ code: 0 });
    expect(resumed.stdout).toBe('resumed fine\n');
    expect(resumed.stderr).toBe(`seek: ${path} was damaged: skipped 2 unreadable lines; repaired the history (1 lost tool result marked)\n`);
    const sent = texts(suite.server.requests[0]!);
    expect(sent).toContain('[tool result lost: the session file was damaged]');
    expect(sent.slice(-2)).toEqual(['looked around', 'go on']);

    // The torn line was closed off: the session goes on, damage and all, with valid requests.
    const again = await seek(['-c', '-p', 'once more'], root, home, { wire });
    expect(again).toMatchObject({ code: 0 });
    expect(suite.server.violations).toEqual([]);
    expect(texts(suite.server.requests[1]!).slice(-3)).toEqual(['go on', 'resumed fine', 'once more']);
  });
});

describe('sessions exist once something happened', () => {
  it('quitting without a prompt leaves no file; a failed first prompt is kept and -c resumes it, prompt and all', async () => {
    const { root, home } = project();
    suite.server.enqueue({ text: 'real answer' });
    const real = sessionId(await seek(['-p', 'real question', '--output-format', 'json'], root, home));

    const quit = await seek([], root, home, { input: '/exit\n' });
    expect(quit).toMatchObject({ code: 0 });
    const eof = await seek([], root, home, { input: '' });
    expect(eof).toMatchObject({ code: 0 });
    expect(sessionFiles(home)).toEqual([`${real}.jsonl`]);

    suite.server.enqueue({ httpError: { status: 400, message: 'scripted refusal' } });
    const failed = await seek(['-p', 'doomed question', '--output-format', 'json'], root, home);
    expect(failed).toMatchObject({ code: 1 });
    const doomed = sessionId(failed);
    expect(sessionFiles(home)).toHaveLength(2); // the prompt is kept: the user typed it

    suite.server.enqueue({ text: 'continued' });
    const continued = await seek(['-c', '-p', 'next', '--output-format', 'json'], root, home);
    expect(continued).toMatchObject({ code: 0 });
    expect(sessionId(continued)).toBe(doomed);
    expect(texts(suite.server.requests.at(-1)!)).toEqual(['doomed question', 'next']);
    expect(suite.server.violations).toEqual([]);
  });
});

describe('a session killed before its first answer', () => {
  it.each(['deepseek', 'anthropic'] as const)('keeps its prompt on disk, and --continue resumes it and sends the prompt (%s wire)', async (wire) => {
    const { root, home } = project();
    let arrived!: () => void;
    const inRequest = new Promise<void>((resolve) => (arrived = resolve));
    suite.server.enqueue(() => {
      arrived();
      return { hang: true };
    });
    let child: { kill: (signal: NodeJS.Signals) => boolean } | undefined;
    const killed = runSeek(['-p', 'the precious prompt', '--output-format', 'json'], {
      cwd: root,
      env: env(home, wire),
      timeoutMs: TIMEOUT,
      onSpawn: (spawned) => (child = spawned),
    });
    await inRequest;
    child!.kill('SIGKILL');
    expect(await killed).toMatchObject({ signal: 'SIGKILL', stdout: '' });
    const [file] = sessionFiles(home);
    expect(file).toBeDefined();
    const sid = file!.slice(0, -'.jsonl'.length);
    expect(lines(home, sid).some((l) => l.type === 'message' && JSON.stringify(l.message).includes('the precious prompt'))).toBe(true);

    suite.server.reset();
    suite.server.enqueue({ text: 'answered at last' });
    const resumed = await seek(['-c', '-p', 'go on', '--output-format', 'stream-json'], root, home, { wire });
    expect(resumed).toMatchObject({ code: 0 });
    const { sessionId: continued, notices } = streamed(resumed);
    expect(continued).toBe(sid);
    expect(notices).toContainEqual(expect.stringContaining(`session ${sid} ended before the model answered its last prompt ("the precious prompt`));
    expect(texts(suite.server.requests[0]!)).toEqual([expect.stringContaining('the precious prompt'), expect.stringContaining('go on')]);
    expect(suite.server.violations).toEqual([]);
  });
});

describe('an unreadable newest session', () => {
  it('stops --continue with exit 2, naming the file and why, and never picks another; --list still names it', async () => {
    const { root, home } = project();
    suite.server.enqueue({ text: 'real answer' });
    const real = sessionId(await seek(['-p', 'real question', '--output-format', 'json'], root, home));
    const future = Date.now() / 1000 + 3600;
    const newer = join(sessionsDir(home), '20991231-000000-abcdef.jsonl');
    writeFileSync(newer, `${JSON.stringify({ type: 'session', schema_version: 2, id: '20991231-000000-abcdef' })}\n`);
    utimesSync(newer, future, future);

    suite.server.reset();
    const run = await seek(['-c', '-p', 'next'], root, home);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(`seek: --continue stopped: the newest session of this project cannot be read. ${newer} was written by a newer seek (session schema 2; this seek reads 1). Upgrade seek to open it.`);
    expect(run.stderr).toContain('--continue never takes an older session in its place: resume another with `seek --resume ID`');
    expect(run.stderr).toContain(`or move ${newer} out of the sessions folder`);
    expect(suite.server.requests).toHaveLength(0); // no model call, no new session
    expect(sessionFiles(home)).toEqual([`${real}.jsonl`, '20991231-000000-abcdef.jsonl']);

    // A bad header newer still: the same, naming that file.
    const broken = join(sessionsDir(home), '20991230-000000-fedcba.jsonl');
    writeFileSync(broken, '{"type":"sess');
    utimesSync(broken, future + 10, future + 10);
    const again = await seek(['-c', '-p', 'next'], root, home);
    expect(again).toMatchObject({ code: 2 });
    expect(again.stderr).toContain(`${broken} is not a seek session: its first line is not a valid session header.`);
    expect(suite.server.requests).toHaveLength(0);

    const list = await seek(['--list'], root, home);
    expect(list).toMatchObject({ code: 0 });
    expect(list.stdout).toContain(real);
    expect(list.stderr).toContain(`seek: ${newer} was written by a newer seek`);
    expect(list.stderr).toContain(`${broken} is not a seek session`);

    // Resuming another by id still works.
    suite.server.enqueue({ text: 'continued' });
    const byId = await seek(['--resume', real, '-p', 'next'], root, home);
    expect(byId).toMatchObject({ code: 0, stdout: 'continued\n' });
  });
});
