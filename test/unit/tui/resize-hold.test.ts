import { describe, expect, it } from 'vitest';
import { ResizeHold } from '../../../src/tui/resize-hold.js';

/** Waits (up to ten seconds, for a saturated CPU) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('ResizeHold', () => {
  it('lets writes through while the width stays, and holds them from the first write at a new width', async () => {
    let width = 80;
    let released = 0;
    const hold = new ResizeHold(() => width, () => released++, 20);
    const out: string[] = [];
    expect(hold.defer(() => out.push('a'))).toBe(false);
    width = 40;
    expect(hold.defer(() => out.push('b'))).toBe(true);
    expect(hold.defer(() => out.push('c'))).toBe(true);
    expect(hold.holding).toBe(true);
    expect(out).toEqual([]);
    await until(() => released === 1);
    expect(out).toEqual(['b', 'c']);
    expect(hold.holding).toBe(false);
    expect(hold.defer(() => out.push('d'))).toBe(false);
  });

  it('keeps holding while the width keeps changing, and goes out at the last one', async () => {
    // What each read of the width returns (the first is the constructor's); the last one stays.
    const widths = [80, 40, 120, 40, 120];
    let reads = 0;
    const columns = () => widths[Math.min(reads++, widths.length - 1)]!;
    let releasedAt: number | undefined;
    const hold = new ResizeHold(columns, () => (releasedAt = columns()), 5);
    hold.resized();
    expect(hold.holding).toBe(true);
    await until(() => releasedAt !== undefined);
    expect(releasedAt).toBe(120);
    expect(reads).toBeGreaterThanOrEqual(widths.length);
  });

  it('a size report at the same width holds nothing; release() lets everything out at once', () => {
    let width = 80;
    const hold = new ResizeHold(() => width, () => {}, 60_000);
    hold.resized();
    expect(hold.holding).toBe(false);
    width = 40;
    hold.resized();
    const out: string[] = [];
    hold.defer(() => out.push('frame'));
    hold.release();
    expect(out).toEqual(['frame']);
    expect(hold.holding).toBe(false);
  });
});
