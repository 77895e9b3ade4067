import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeBwrap } from '../support/fake-bwrap.js';
import { useScriptedServer } from '../support/scripted-suite.js';
import { makeProject, runSeek } from '../support/seek-process.js';

/**
 * A headless session detects the OS sandbox on the first call that needs it: file and memory
 * tools never do (their decision does not depend on it), commands and children do, before the
 * policy decides. The bwrap is a script that logs each run and passes as a working bubblewrap.
 */
const suite = useScriptedServer();

describe.skipIf(process.platform !== 'linux')('sandbox detection in a headless run', () => {
  it('file tools run without probing bubblewrap; the first command probes it once, before its decision', async () => {
    const { root, home } = makeProject({ 'README.md': '# demo\n' });
    const bwrap = fakeBwrap();
    suite.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] });
    suite.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hi\n' } }] });
    suite.server.enqueue({ toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'hi', new_string: 'hello' } }] });
    suite.server.enqueue({ text: 'done' });
    const files = await runSeek(['-p', 'edit notes', '--auto', '--no-save'], { cwd: root, env: suite.env(home, { SEEK_SANDBOX_BWRAP: bwrap.program }) });
    expect(files.code).toBe(0);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('hello\n');
    expect(bwrap.runs()).toEqual([]);

    // --auto runs a command inside the project only in a sandbox: the probes must have run for
    // the policy to allow it (without them it would be denied headless).
    suite.server.reset();
    suite.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] });
    suite.server.enqueue({ toolCalls: [{ name: 'bash', arguments: { command: 'echo ran' } }] });
    suite.server.enqueue({ text: 'done' });
    const command = await runSeek(['-p', 'run it', '--auto', '--no-save', '--output-format', 'json'], { cwd: root, env: suite.env(home, { SEEK_SANDBOX_BWRAP: bwrap.program }) });
    expect(command.code).toBe(0);
    // The two probes (version, then a trial run), then the command itself, inside bubblewrap.
    const runs = bwrap.runs();
    expect(runs.filter((arg) => arg === '--version')).toHaveLength(1);
    expect(runs).toHaveLength(3);
    // Allowed (not denied) and run: the fake bubblewrap prints nothing and exits 0.
    const messages = (suite.server.requests[2]!.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages.at(-1)).toMatchObject({ role: 'tool', content: '(no output)\n\nexit code 0' });
  });
});
