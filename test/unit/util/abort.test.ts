/** The abort helpers leave no listener on a long-lived signal once each call is done. */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortOrDelay, linkedAbort } from '../../../src/util/abort.js';

describe('abort helpers', () => {
  it('abortOrDelay: cancelled, timed out or aborted, the listener goes', async () => {
    const session = new AbortController();
    for (let n = 0; n < 30; n++) {
      const wait = abortOrDelay(session.signal, 60_000);
      wait.cancel();
      await wait.done;
    }
    await abortOrDelay(session.signal, 1).done;
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    const pending = abortOrDelay(session.signal);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1);
    session.abort();
    await pending.done;
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    await abortOrDelay(session.signal, 60_000).done; // already aborted: resolves at once
  });

  it('linkedAbort: follows the parent, times out on its own, and its dispose removes the listener', async () => {
    const session = new AbortController();
    for (let n = 0; n < 30; n++) linkedAbort(session.signal, 60_000).dispose();
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    const timed = linkedAbort(session.signal, 5);
    await expect.poll(() => timed.signal.aborted).toBe(true);
    expect(timed.timedOut()).toBe(true);
    timed.dispose();
    const linked = linkedAbort(session.signal);
    session.abort('bye');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('bye');
    expect(linked.timedOut()).toBe(false);
    linked.dispose();
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });
});
