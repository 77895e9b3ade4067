import { describe, expect, it } from 'vitest';
import { LiveFrame } from '../../../src/tui/live-frame.js';

describe('LiveFrame', () => {
  const status = 's'.repeat(120);
  it('recounts the erase of a frame a narrower terminal reflowed, from the resting cursor or a parked one', () => {
    const frame = new LiveFrame();
    frame.observe(`› prompt\n${status}\n`, 120);
    expect(frame.mustRecount('\u001b[?2026h', 80)).toBe(false);
    expect(frame.mustRecount('x', 80)).toBe(false);
    expect(frame.mustRecount('\u001b[2K\u001b[1A\u001b[2K\u001b[Gnext\n', 80)).toBe(true);
    // Resting below the frame: the prompt row and the status bar's two rows are above it.
    expect(frame.eraseReflowed('\u001b[2K\u001b[1A\u001b[2K\u001b[Gnext\n', 80, undefined)).toBe('\u001b[3A\r\u001b[Jnext\n');
    const parked = new LiveFrame();
    parked.observe(`› prompt\n${status}\n`, 120);
    expect(parked.eraseReflowed('', 80, { up: 2, column: 2 })).toBe('\r\u001b[J');
  });

  it('recounts a frame whose lines were wider than the terminal when written', () => {
    const frame = new LiveFrame();
    frame.observe(`a\n${status}\n`, 80);
    expect(frame.mustRecount('\u001b[2K\u001b[G', 80)).toBe(true);
    expect(frame.eraseReflowed('\u001b[2K\u001b[1A\u001b[2K\u001b[G', 80, undefined)).toBe('\u001b[3A\r\u001b[J');
    expect(frame.mustRecount('x', 80)).toBe(false);
  });
});
