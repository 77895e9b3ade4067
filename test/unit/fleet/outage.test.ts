/**
 * The outage bookkeeping without Redis: which errors are a connection going away (silenced, the
 * two lines say it), the lost/back lines of a watched client, BullMQ's lock errors explained once
 * by the worker's lock watch, and bounded waits.
 */
import { EventEmitter } from 'node:events';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { LOCK_LOST, LockWatch } from '../../../src/fleet/lock.js';
import { ConnectionWatch, isConnectionError, valueWithin, within } from '../../../src/fleet/outage.js';

describe('connection watch', () => {
  it('says lost once and back once however many times the client retries; connection errors are silent, others said once', () => {
    const lines: string[] = [];
    const watch = new ConnectionWatch('redis://u:secret@127.0.0.1:6379', (line) => lines.push(line));
    const client = new EventEmitter();
    watch.watch(client as unknown as Redis);
    for (let i = 0; i < 5; i++) {
      client.emit('error', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }));
      client.emit('close');
    }
    expect(watch.lost).toBe(true);
    client.emit('ready');
    client.emit('ready');
    watch.onError(new Error('Connection is closed.'));
    watch.onError(new Error('ERR unknown command'));
    watch.onError(new Error('ERR unknown command'));
    expect(lines).toEqual([
      'lost the connection to Redis at redis://u:***@127.0.0.1:6379; reconnecting by itself (work waits, nothing is lost)',
      'the connection to Redis at redis://u:***@127.0.0.1:6379 is back',
      'queue error: ERR unknown command',
    ]);
    expect(isConnectionError(new Error('read ECONNRESET'))).toBe(true);
    expect(isConnectionError(new Error('Missing lock for job a.b. moveToFinished'))).toBe(false);
  });

  it('bounds a wait that never ends', async () => {
    expect(await within(new Promise(() => undefined), 10)).toBe(false);
    expect(await within(Promise.reject(new Error('x')), 1000)).toBe(true);
    expect(await valueWithin(new Promise<number>(() => undefined), 10, 7)).toBe(7);
    expect(await valueWithin(Promise.resolve(3), 1000, 7)).toBe(3);
  });
});

describe('lock watch', () => {
  it("reports a lost lock once, aborts the running attempt, and explains BullMQ's later errors about it", () => {
    const lines: string[] = [];
    const cancelled: Array<[string, string | undefined]> = [];
    const worker = { cancelJob: (id: string, reason?: string) => (cancelled.push([id, reason]), true) } as unknown as Worker;
    const locks = new LockWatch(() => worker, (line) => lines.push(line));
    locks.track('s.h.e', 2);
    expect(locks.explains(new Error('could not renew lock for job s.h.e'))).toBe(true);
    expect(locks.explains(new Error('Missing lock for job s.h.e. moveToFailed'))).toBe(true);
    expect(locks.explains(new Error('Lock mismatch for job s.h.e. Cmd moveToFinished from active'))).toBe(true);
    expect(locks.explains(new Error('something else'))).toBe(false);
    expect(locks.isLost('s.h.e')).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^job s\.h\.e attempt 2 lost its lock .*publishes nothing/);
    expect(cancelled).toEqual([['s.h.e', LOCK_LOST]]);
    locks.track('s.h.e', 3); // a later attempt here starts clean
    expect(locks.isLost('s.h.e')).toBe(false);
  });
});
