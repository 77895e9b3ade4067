import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { onWriteFailure, StandardOutput } from '../../../src/cli/standard-output.js';

const MEGABYTE = 'x'.repeat(1 << 20);

/** A real pipe to a child that reads `bytes` bytes (all, when undefined) and exits; resolves with how many it read. */
function pipeToReader(bytes?: number) {
  const script = bytes === undefined
    ? "let n = 0; process.stdin.on('data', (c) => (n += c.length)); process.stdin.on('end', () => process.stdout.write(String(n)));"
    : `let n = 0; process.stdin.on('data', (c) => { n += c.length; if (n >= ${bytes}) { process.stdout.write(String(n)); process.exit(0); } });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let read = '';
  child.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
  const done = new Promise<number>((resolve) => child.on('close', () => resolve(Number(read))));
  return { stream: child.stdin, done };
}

describe('StandardOutput', () => {
  it('drain resolves once a megabyte has gone through a real pipe, and keeps the exit status', async () => {
    const reader = pipeToReader();
    const output = new StandardOutput({ stdout: reader.stream, stderr: new PassThrough() });
    reader.stream.write(MEGABYTE);
    expect(await output.drain(0)).toBe(0);
    reader.stream.end();
    expect(await reader.done).toBe(MEGABYTE.length);
    expect(output.failed).toBeUndefined();
  });

  it('a reader that leaves early turns success into 1, keeps a failure status, and tells whoever listens', async () => {
    for (const status of [0, 2]) {
      const reader = pipeToReader(1);
      const output = new StandardOutput({ stdout: reader.stream, stderr: new PassThrough() });
      const failures: Error[] = [];
      onWriteFailure(reader.stream, (error) => failures.push(error));
      reader.stream.write(MEGABYTE);
      expect(await reader.done).toBeGreaterThan(0);
      reader.stream.write(MEGABYTE); // after the reader is gone: fails, without an uncaught error
      expect(await output.drain(status)).toBe(status === 0 ? 1 : status);
      expect(output.failed).toMatchObject({ stream: 'stdout', error: { code: 'EPIPE' } });
      expect(failures.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['EPIPE']);
    }
  });

  it('says what failed on stderr when it was not the reader leaving', async () => {
    const failing = new Writable({ write: (_chunk, _encoding, callback) => callback(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })) });
    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const output = new StandardOutput({ stdout: failing, stderr });
    failing.write('answer\n');
    expect(await output.drain(0)).toBe(1);
    expect(said).toBe('seek: could not write the output: ENOSPC: no space left on device, write\n');
  });
});
