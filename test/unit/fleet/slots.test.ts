import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Slots } from '../../../src/fleet/slots.js';

const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('Slots (--max-jobs)', () => {
  it('a waiter that gave up leaves the line: the release wakes the next live waiter', async () => {
    const slots = new Slots(1);
    const run = new AbortController();
    const first = await slots.acquire(run.signal);
    expect(first).toBeDefined();
    const quitter = new AbortController();
    const gaveUp = slots.acquire(quitter.signal);
    const next = slots.acquire(run.signal);
    quitter.abort();
    expect(await gaveUp).toBeUndefined();
    first!();
    const second = await next; // before the fix, the release woke the quitter's spent wait and this never resolved
    expect(second).toBeDefined();
    second!();
    second!(); // releasing twice frees one place only
    const a = await slots.acquire(run.signal);
    const b = slots.acquire(run.signal);
    let bGot = false;
    void b.then(() => (bGot = true));
    await Promise.resolve();
    expect(bGot).toBe(false);
    a!();
    expect(await b).toBeDefined();
  });

  it('leaves no listener on the run\'s signal once each wait is over', async () => {
    const slots = new Slots(1);
    const run = new AbortController();
    const held = await slots.acquire(run.signal);
    const waits = Array.from({ length: 50 }, () => slots.acquire(run.signal));
    await Promise.resolve();
    expect(listeners(run.signal)).toBe(50); // the count is real: every waiter listens while it waits
    let release = held!;
    for (const wait of waits) {
      release();
      release = (await wait)!;
    }
    release();
    expect(listeners(run.signal)).toBe(0);
  });
});
