/**
 * Input piped to `seek -p` is part of the prompt (`git diff | seek -p "review this"`).
 *
 * - `all` (no prompt argument, or `-` among the arguments): stdin is read to its end;
 * - `if-ready` (a prompt argument): stdin is read only when it is a regular file, or a pipe or
 *   socket that already holds data (or its end) when seek looks, which one non-blocking read tells.
 *   Nothing waits on a timer: a parent that leaves an idle pipe open (CI runners, editors) costs
 *   nothing, and a producer slower than seek's start-up is read with `-`.
 *
 * A terminal is never read here.
 */
import { fstatSync, readSync } from 'node:fs';
import { Socket } from 'node:net';
import { isatty } from 'node:tty';
import type { Readable } from 'node:stream';

export type PipedInputMode = 'all' | 'if-ready';

export async function readPipedInput(mode: PipedInputMode): Promise<string> {
  if (isatty(0)) return '';
  if (mode === 'all') return readToEnd(process.stdin, []);
  let kind: 'file' | 'stream' | 'other';
  try {
    const stat = fstatSync(0);
    kind = stat.isFile() ? 'file' : stat.isFIFO() || stat.isSocket() ? 'stream' : 'other';
  } catch {
    return ''; // no stdin at all
  }
  // /dev/null and devices are never read, and process.stdin is not even made: for a device Node
  // builds an fs.ReadStream, which loads the fs streams (1-3 ms of a headless start).
  if (kind === 'other' || process.platform === 'win32') return '';
  // For a pipe or socket this opens fd 0 as a libuv stream, which puts it in non-blocking mode
  // (readSync below then answers EAGAIN instead of waiting); it starts no reading by itself.
  const stdin = process.stdin;
  if (kind === 'file') return readToEnd(stdin, []);
  // Only a libuv stream is known to be non-blocking.
  if (!(stdin instanceof Socket)) return '';
  const first = readWaiting();
  if (!first?.length) return ''; // nothing there yet, or the writer already closed it empty
  return readToEnd(stdin, [first]);
}

/** What the pipe holds right now: its bytes (up to 64 KiB), an empty buffer at its end, or
 * undefined when it is open but empty (EAGAIN). */
function readWaiting(): Buffer | undefined {
  const buffer = Buffer.alloc(64 * 1024);
  try {
    return buffer.subarray(0, readSync(0, buffer, 0, buffer.length, null));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EAGAIN' || code === 'EWOULDBLOCK' ? undefined : Buffer.alloc(0);
  }
}

function readToEnd(stdin: Readable, chunks: Buffer[]): Promise<string> {
  return new Promise((resolve) => {
    const done = () => {
      stdin.off('data', onData);
      stdin.off('end', done);
      stdin.off('error', done);
      stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8').trim());
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    stdin.on('data', onData);
    stdin.once('end', done);
    stdin.once('error', done);
  });
}
