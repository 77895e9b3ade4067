import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SlotQueue } from '../../../src/subagents/slots.js';

describe('SlotQueue', () => {
  it('queues many waiters on one signal with a single abort listener, waking them in arrival order', async () => {
    const queue = new SlotQueue();
    const controller = new AbortController();
    let slots = 0;
    const order: number[] = [];
    const waiters = Array.from({ length: 16 }, (_, i) =>
      queue.wait(() => slots > 0, controller.signal).then(() => {
        slots -= 1;
        order.push(i);
      }),
    );
    await Promise.resolve();
    expect(queue.waiting).toBe(16);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (let i = 0; i < 16; i++) {
      slots += 1;
      queue.released();
      await waiters[i];
    }
    expect(order).toEqual([...Array(16).keys()]);
    expect(queue.waiting).toBe(0);
  });

  it('an abort wakes every waiter of that signal only; the others keep waiting', async () => {
    const queue = new SlotQueue();
    const aborted = new AbortController();
    const other = new AbortController();
    const woken: string[] = [];
    const a = [1, 2, 3].map((i) => queue.wait(() => false, aborted.signal).then(() => woken.push(`a${i}`)));
    const b = queue.wait(() => woken.length > 10, other.signal).then(() => woken.push('b'));
    await Promise.resolve();
    aborted.abort();
    await Promise.all(a);
    expect(woken).toEqual(['a1', 'a2', 'a3']);
    expect(queue.waiting).toBe(1);
    expect(getEventListeners(aborted.signal, 'abort')).toHaveLength(0);
    other.abort();
    await b;
    expect(woken).toEqual(['a1', 'a2', 'a3', 'b']);
  });
});
