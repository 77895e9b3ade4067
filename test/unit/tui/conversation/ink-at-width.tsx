import { EventEmitter } from 'node:events';
import { render } from 'ink';
import type { ReactElement } from 'react';
import stringWidth from 'string-width';
import { stripAnsi } from '../../../../src/tui/markdown/ansi.js';

/**
 * Renders an element with Ink at a chosen terminal width (ink-testing-library is fixed at 100
 * columns, which would re-wrap our 200-column layouts) and returns the last frame.
 */
class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  constructor(readonly columns: number) {
    super();
  }
  readonly rows = 50;
  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  readonly isTTY = false;
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  read(): null {
    return null;
  }
}

export function frameAtWidth(element: ReactElement, columns: number): string {
  const stdout = new FakeStdout(columns);
  const instance = render(element, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout(columns) as unknown as NodeJS.WriteStream,
    stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const frame = stdout.frames[stdout.frames.length - 1] ?? '';
  instance.unmount();
  instance.cleanup();
  return frame;
}

/** Columns of the widest line of a frame, escape codes ignored. */
export function widestLine(frame: string): number {
  return Math.max(0, ...frame.split('\n').map((line) => stringWidth(stripAnsi(line))));
}

/** Any SGR escape at all. */
export const HAS_ANSI = /\u001b\[/;
