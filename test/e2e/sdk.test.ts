import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject } from '../support/seek-process.js';
import { tempDir } from '../support/temp-dirs.js';

const run = promisify(execFile);
const suite = useScriptedServer();
const PACKAGE_ROOT = new URL('../..', import.meta.url).pathname;

/** A user's project in another folder, with this package installed as node_modules/seek-agent. */
function userProject(files: Record<string, string>): string {
  const dir = tempDir('seek-sdk-user-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(PACKAGE_ROOT, join(dir, 'node_modules', 'seek-agent'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'sdk-user', type: 'module', private: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A conversation of two messages: the first asks for a command, which canUseTool allows with
 * another command; between them the program switches the model. */
const CONVERSATION = `
import { query } from 'seek-agent/sdk';
let firstDone;
const afterFirst = new Promise((resolve) => (firstDone = resolve));
async function* conversation() {
  yield { type: 'user', message: { role: 'user', content: 'make a file' } };
  await afterFirst;
  yield { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'and now?' }] } };
}
const asked = [];
const q = query({
  prompt: conversation(),
  options: {
    cwd: process.argv[2],
    canUseTool: async (toolName, input, context) => {
      asked.push({ toolName, input, toolUseId: context.toolUseId });
      return { behavior: 'allow', updatedInput: { ...input, command: 'echo from-sdk > sdk.txt' } };
    },
  },
});
const seen = [];
for await (const message of q) {
  seen.push(message);
  if (message.type === 'result' && seen.filter((m) => m.type === 'result').length === 1) {
    await q.setModel('deepseek-reasoner');
    firstDone();
  }
}
console.log(JSON.stringify({ asked, results: seen.filter((m) => m.type === 'result'), types: [...new Set(seen.map((m) => m.type))] }));
`;

/** interrupt() mid-stream, then a second message; then a second query aborted mid-stream. */
const INTERRUPT_AND_ABORT = `
import { query, AbortError } from 'seek-agent/sdk';
let interrupted;
const afterInterrupt = new Promise((resolve) => (interrupted = resolve));
async function* conversation() {
  yield { type: 'user', message: { role: 'user', content: 'talk a lot' } };
  await afterInterrupt;
  yield { type: 'user', message: { role: 'user', content: 'short now' } };
}
const q = query({ prompt: conversation(), options: { cwd: process.argv[2] } });
const results = [];
let asked = false;
for await (const message of q) {
  if (message.type === 'text_delta' && !asked) {
    asked = true;
    await q.interrupt();
  }
  if (message.type === 'result') {
    results.push({ result: message.result, stop_reason: message.stop_reason });
    interrupted();
  }
}
const controller = new AbortController();
let aborted;
try {
  for await (const message of query({ prompt: 'again a lot', options: { cwd: process.argv[2], abortController: controller } })) {
    if (message.type === 'text_delta') controller.abort();
  }
} catch (error) {
  aborted = { name: error.name, isAbort: error instanceof AbortError };
}
console.log(JSON.stringify({ results, aborted }));
`;

/** Two messages sent at once; the first permission answer is malformed (seek answers it with an
 * invalid_input error about that control line), the second allows. */
const MALFORMED_ANSWER = `
import { query } from 'seek-agent/sdk';
async function* conversation() {
  yield { type: 'user', message: { role: 'user', content: 'first' } };
  yield { type: 'user', message: { role: 'user', content: 'second' } };
}
const asked = [];
const results = [];
const q = query({
  prompt: conversation(),
  options: {
    cwd: process.argv[2],
    canUseTool: async (toolName, input) => {
      asked.push(input.command);
      return asked.length === 1 ? { behavior: 'maybe' } : { behavior: 'allow' };
    },
  },
});
for await (const message of q) if (message.type === 'result') results.push(message.result);
console.log(JSON.stringify({ asked, results }));
`;

const NO_KEY = `
import { query, NoApiKeyError, SeekError } from 'seek-agent/sdk';
try {
  for await (const message of query({ prompt: 'hi', options: { cwd: process.argv[2] } })) void message;
  console.log('no error');
} catch (error) {
  console.log(JSON.stringify({ name: error.name, noKey: error instanceof NoApiKeyError, seek: error instanceof SeekError, message: error.message }));
}
`;

/** Type-checked against the package's declarations (dist/sdk/*.d.ts) as a user's TypeScript would. */
const TYPED = `
import { query, ProcessExitError, type SeekMessage, type PermissionResult, type Query } from 'seek-agent/sdk';
const q: Query = query({ prompt: 'hi', options: { model: 'x', permissionMode: 'acceptEdits', maxTurns: 3, canUseTool: async (): Promise<PermissionResult> => ({ behavior: 'deny', message: 'no' }) } });
export async function read(): Promise<string> {
  for await (const message of q as AsyncIterable<SeekMessage>) {
    if (message.type === 'result') return message.result + message.session_id;
    if (message.type === 'tool_end') return message.content;
  }
  await q.setPermissionMode('plan');
  return String(new ProcessExitError(1, null, '').code);
}
// @ts-expect-error: prompt is a string or an async iterable of user messages
query({ prompt: 42 });
`;

describe('seek-agent/sdk from a user project', { timeout: 180_000 }, () => {
  it('holds a conversation through the package and answers a permission question from canUseTool', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'echo from-model > model.txt' } }] }, { text: 'Made it.' }, { text: 'Nothing more.' });
    const dir = userProject({ 'main.mjs': CONVERSATION });
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...suite.env(home) };
    const { stdout } = await run(process.execPath, ['main.mjs', root], { cwd: dir, env, timeout: 150_000 });
    const report = JSON.parse(stdout) as { asked: Array<{ toolName: string; input: { command: string } }>; results: Array<{ result: string; is_error: boolean; session_id: string }>; types: string[] };
    expect(report.asked).toEqual([{ toolName: 'bash', input: { command: 'echo from-model > model.txt' }, toolUseId: expect.any(String) }]);
    expect(readFileSync(join(root, 'sdk.txt'), 'utf8')).toBe('from-sdk\n');
    expect(report.results.map((r) => r.result)).toEqual(['Made it.', 'Nothing more.']);
    expect(new Set(report.results.map((r) => r.session_id)).size).toBe(1);
    expect(report.types).toEqual(expect.arrayContaining(['system', 'message', 'tool_start', 'tool_end', 'result']));
    expect(report.types).not.toContain('control_request');
    expect(suite.server.requests.map((r) => r.body.model)).toEqual(['deepseek-v4-flash', 'deepseek-v4-flash', 'deepseek-reasoner']);
  });

  it('interrupt() ends a turn mid-stream and the conversation goes on; abortController stops seek with an AbortError', async () => {
    const { root, home } = makeProject();
    const never = new Promise(() => {});
    suite.server.enqueue({ text: 'A long answer', pauseAfterChunks: { chunks: 2, until: never } }, { text: 'Short.' }, { text: 'Another long one', pauseAfterChunks: { chunks: 2, until: never } });
    const dir = userProject({ 'interrupt.mjs': INTERRUPT_AND_ABORT });
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...suite.env(home) };
    const { stdout } = await run(process.execPath, ['interrupt.mjs', root], { cwd: dir, env, timeout: 150_000 });
    const report = JSON.parse(stdout) as { results: Array<{ result: string; stop_reason: string }>; aborted: { name: string; isAbort: boolean } };
    expect(report.results).toEqual([{ result: expect.any(String), stop_reason: 'aborted' }, { result: 'Short.', stop_reason: 'completed' }]);
    expect(report.aborted).toEqual({ name: 'AbortError', isAbort: true });
    expect(suite.server.requests).toHaveLength(3);
    // The aborted query's session was saved with its prompt (seek ended its turn on SIGTERM).
    const sessions = join(home, 'projects', readdirSync(join(home, 'projects'))[0]!, 'sessions');
    const saved = readdirSync(sessions).filter((name) => name.endsWith('.jsonl')).map((name) => readFileSync(join(sessions, name), 'utf8'));
    expect(saved).toHaveLength(2);
    expect(saved.some((text) => text.includes('again a lot'))).toBe(true);
  });

  it('an invalid_input error about a control line answers no user message: the next question is still asked', async () => {
    const { root, home } = makeProject();
    suite.server.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo one > one.txt' } }] },
      { text: 'First done.' },
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo two > two.txt' } }] },
      { text: 'Second done.' },
    );
    const dir = userProject({ 'main.mjs': MALFORMED_ANSWER });
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...suite.env(home) };
    const { stdout } = await run(process.execPath, ['main.mjs', root], { cwd: dir, env, timeout: 150_000 });
    const report = JSON.parse(stdout) as { asked: string[]; results: string[] };
    expect(report.asked).toEqual(['echo one > one.txt', 'echo two > two.txt']);
    expect(readFileSync(join(root, 'two.txt'), 'utf8')).toBe('two\n');
    expect(report.results.at(-1)).toBe('Second done.');
  });

  it('throws a typed NoApiKeyError when seek has no key', async () => {
    const { root, home } = makeProject();
    const dir = userProject({ 'no-key.mjs': NO_KEY });
    const { stdout } = await run(process.execPath, ['no-key.mjs', root], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SEEK_HOME: home }, timeout: 60_000 });
    const report = JSON.parse(stdout) as { name: string; noKey: boolean; seek: boolean; message: string };
    expect(report).toMatchObject({ name: 'NoApiKeyError', noKey: true, seek: true });
    expect(report.message).toContain('DEEPSEEK_API_KEY');
  });

  it("the package's declarations type-check a user's TypeScript", async () => {
    const dir = userProject({ 'use.ts': TYPED });
    const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023'], types: ['node'], typeRoots: [join(PACKAGE_ROOT, 'node_modules/@types')], skipLibCheck: true }, files: ['use.ts'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(PACKAGE_ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, timeout: 150_000 }).catch((error: { stdout: string }) => ({ stdout: `FAILED ${error.stdout}` }));
    expect(result.stdout).toBe('');
    // A use the declarations forbid is refused: the check can fail.
    writeFileSync(join(dir, 'use.ts'), `${TYPED.replace('// @ts-expect-error: prompt is a string or an async iterable of user messages\n', '')}`);
    const refused = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, timeout: 150_000 }).catch((error: { stdout: string }) => ({ stdout: `FAILED ${error.stdout}` }));
    expect(refused.stdout).toContain('FAILED');
  });
});
