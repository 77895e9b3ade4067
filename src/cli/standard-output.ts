/**
 * Standard output and error to the last byte. Node writes to a pipe asynchronously: whatever the
 * reader has not taken yet waits in the process, and `process.exit` drops it (a 1 MB JSON result
 * piped to a slow reader used to stop after ~200 KB, with exit status 0). So every front end's
 * output is drained before seek exits, and a write that fails (the reader went away: EPIPE; a full
 * disk: ENOSPC) is a failure (exit status 1), never a crash with an unhandled 'error' event and
 * never a success.
 */
import type { Writable } from 'node:stream';

export interface OutputFailure {
  stream: 'stdout' | 'stderr';
  error: NodeJS.ErrnoException;
}

export class StandardOutput {
  private failure: OutputFailure | undefined;

  constructor(private readonly streams: { stdout: Writable; stderr: Writable } = { stdout: process.stdout, stderr: process.stderr }) {
    for (const name of ['stdout', 'stderr'] as const) {
      // A listener is what keeps a failed write from becoming an uncaught exception.
      this.streams[name].on('error', (error: NodeJS.ErrnoException) => {
        this.failure ??= { stream: name, error };
      });
    }
  }

  /** The first write that failed, if one did. */
  get failed(): OutputFailure | undefined {
    return this.failure;
  }

  /**
   * Resolves once everything written so far has been handed to the operating system (however slow
   * the reader), or a write failed. Returns the exit status to use: `status`, or 1 when output
   * was lost and `status` would have said success.
   */
  async drain(status: number): Promise<number> {
    await Promise.all([flushed(this.streams.stdout), flushed(this.streams.stderr)]);
    const failure = this.failure;
    if (!failure) return status;
    // A reader that closed early (`| head`) knows it did; anything else deserves a word, if
    // stderr still takes one.
    if (failure.error.code !== 'EPIPE' && failure.stream === 'stdout') {
      this.streams.stderr.write(`seek: could not write the output: ${failure.error.message}\n`);
      await flushed(this.streams.stderr);
    }
    return status === 0 ? 1 : status;
  }
}

/** Calls `listener` once when a write to `stream` fails; returns the way to stop listening. */
export function onWriteFailure(stream: Writable, listener: (error: Error) => void): () => void {
  if (stream.destroyed && stream.errored) {
    listener(stream.errored);
    return () => {};
  }
  stream.once('error', listener);
  return () => void stream.off('error', listener);
}

/** Writes are queued in order, so the callback of an empty write runs after all earlier ones. */
function flushed(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}
