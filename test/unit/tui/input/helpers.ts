import type { Key } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import type { Completer, Completion, InputHistory } from '../../../../src/tui/types.js';
import { NO_KEY } from '../../../../src/tui/input/line-keys.js';

/** Key sequences as a terminal sends them (verified against Ink 6.8's parser in the tests). */
export const KEYS = {
  enter: '\r',
  altEnter: '\u001b\r',
  ctrlJ: '\n',
  escape: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  home: '\u001b[H',
  end: '\u001b[F',
  tab: '\t',
  shiftTab: '\u001b[Z',
  backspace: '\u007f',
  delete: '\u001b[3~',
  ctrlA: '\u0001',
  ctrlE: '\u0005',
  ctrlK: '\u000b',
  ctrlU: '\u0015',
  ctrlW: '\u0017',
  altLeft: '\u001b[1;3D',
  ctrlLeft: '\u001b[1;5D',
  pasteStart: '\u001b[200~',
  pasteEnd: '\u001b[201~',
} as const;

/** Lets Ink deliver pending input (a lone ESC waits one setImmediate) and re-render. */
export async function flush(): Promise<void> {
  for (let round = 0; round < 3; round++) await tick();
}

/** One turn of the event loop: what a passive effect (and the render it causes) waits for. */
export function tick(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** The most event-loop turns `attached` waits: far more than the few a component's effects take,
 * so a component that never draws fails here, at once, rather than in a later assertion. */
export const ATTACH_TICKS = 50;

/**
 * Waits until a component that draws only once it can hear keys (`useInputAttached`: its first
 * frame is empty, its question appears after its effects ran) has drawn something: checks
 * `lastFrame()` now and after each event-loop turn, at most ATTACH_TICKS turns; throws if nothing
 * was drawn by then. Resolves the turn the frame is seen, with the number of turns it took.
 */
export async function attached(view: { lastFrame: () => string | undefined }): Promise<number> {
  for (let turns = 0; ; turns++) {
    if ((view.lastFrame() ?? '') !== '') return turns;
    if (turns === ATTACH_TICKS) throw new Error(`nothing drawn after ${ATTACH_TICKS} event-loop turns: the component never attached its input`);
    await tick();
  }
}

/** `render`, then `attached`: the view of a component that can already hear keys. */
export async function renderAttached(element: ReactElement): Promise<ReturnType<typeof render>> {
  const view = render(element);
  await attached(view);
  return view;
}

/** Polls until `check` stops throwing (for timers such as the paste settle delay). */
export async function waitFor(check: () => void, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

export function memoryHistory(initial: string[] = []): InputHistory & { added: string[] } {
  const entries = [...initial];
  const added: string[] = [];
  return {
    entries: () => entries,
    add(text) {
      added.push(text);
      entries.push(text);
    },
    added,
  };
}

export function staticCompleter(options: { slash?: (line: string) => Completion[]; files?: (query: string) => Completion[] } = {}): Completer {
  return { slash: options.slash ?? (() => []), files: options.files ?? (() => []) };
}

/** A Key with every flag off, overridden by `flags`. */
export function keyOf(flags: Partial<Key> = {}): Key {
  return { ...NO_KEY, ...flags };
}

const ANSI = /\u001b\[[0-9;]*m/g;

export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(ANSI, '');
}
