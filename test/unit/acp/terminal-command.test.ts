import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { terminalCommand } from '../../../src/acp/terminal-command.js';

const dir = mkdtempSync(join(tmpdir(), 'seek-terminal-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a terminal command line as an editor would: argv, cwd, its variables over the editor's environment. */
function run(line: ReturnType<typeof terminalCommand>, editorEnv: NodeJS.ProcessEnv): { status: number | null; stdout: string } {
  const env = { ...editorEnv, ...Object.fromEntries(line.env.map((variable) => [variable.name, variable.value])) };
  const result = spawnSync(line.command, line.args, { cwd: dir, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout };
}

describe('terminalCommand', () => {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', SECRET: 'editor-secret' };

  it('an environment that only adds goes as the variables that differ; argv unchanged', () => {
    const line = terminalCommand({ file: 'bash', args: ['-c', 'echo "$SEEK_AGENT $SECRET"'], cwd: dir, env: { ...base, SEEK_AGENT: '1' } }, base);
    expect(line).toEqual({ command: 'bash', args: ['-c', 'echo "$SEEK_AGENT $SECRET"'], env: [{ name: 'SEEK_AGENT', value: '1' }] });
    expect(run(line, base).stdout).toBe('1 editor-secret\n');
  });

  it('a reduced environment is set with env -i: nothing of the editor’s own reaches the command', () => {
    const line = terminalCommand({ file: 'bash', args: ['-c', 'echo "[$SECRET] $SEEK_SANDBOX"'], cwd: dir, env: { PATH: base.PATH, SEEK_SANDBOX: 'read-only' } }, base);
    expect(line.command).toBe('env');
    expect(line.args.slice(0, 1)).toEqual(['-i']);
    expect(line.env).toEqual([]);
    expect(run(line, base).stdout).toBe('[] read-only\n');
  });

  it('inherited files become descriptors 3, 4 opened by a shell prelude; a missing one stops the program', () => {
    const first = join(dir, 'first');
    const second = join(dir, 'second');
    writeFileSync(first, 'one\n');
    writeFileSync(second, 'two\n');
    const spec = { file: 'bash', args: ['-c', 'cat <&3; cat <&4'], cwd: dir, env: base, inheritFiles: [first, second] };
    expect(run(terminalCommand(spec, base), base)).toEqual({ status: 0, stdout: 'one\ntwo\n' });
    const missing = terminalCommand({ ...spec, args: ['-c', 'echo ran'], inheritFiles: [join(dir, 'absent')] }, base);
    const result = run(missing, base);
    expect(result.stdout).toBe('');
    expect(result.status).not.toBe(0);
  });

  it('refuses more descriptors than a shell can number', () => {
    expect(() => terminalCommand({ file: 'true', args: [], cwd: dir, env: base, inheritFiles: Array.from({ length: 8 }, (_, i) => `/f${i}`) }, base)).toThrow(/at most 7/);
  });
});
