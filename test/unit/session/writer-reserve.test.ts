import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSession } from '../../../src/session/reader.js';
import { SessionWriter } from '../../../src/session/writer.js';
import { header, user } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function sessionPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'seek-reserve-'));
  dirs.push(dir);
  return join(dir, 'session.jsonl');
}
const names = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const entry = JSON.parse(line) as { type: string; name?: string; message?: { content: string } };
      return entry.type === 'event' ? `event:${entry.name}` : `message:${entry.message?.content}`;
    });

describe('SessionWriter.reserve', () => {
  it('holds later entries behind a reservation and writes them in index order once it is filled', async () => {
    const path = sessionPath();
    const writer = SessionWriter.create(path, header('20260101-000000-aaaaaa'));
    writer.append({ type: 'message', message: user('before') });
    const fill = writer.reserve();
    expect(writer.append({ type: 'message', message: user('after') })).toBe(2);
    expect(names(path)).toEqual(['message:before']); // "after" waits for the reservation
    fill({ type: 'event', name: 'checkpoint', data: { turn: 1 } });
    expect(names(path)).toEqual(['message:before', 'event:checkpoint', 'message:after']);
    fill({ type: 'event', name: 'twice', data: {} }); // a second fill is ignored
    await writer.close();
    const read = await readSession(path);
    expect(read.entries.map(({ index }) => index)).toEqual([0, 1, 2]);
  });

  it('keeps a deferred session deferred until a conversation message, even behind a reservation', async () => {
    const path = sessionPath();
    const writer = SessionWriter.deferred(path, header('20260101-000000-bbbbbb'));
    const fill = writer.reserve();
    writer.append({ type: 'message', message: user('the prompt') });
    expect(writer.created).toBe(false);
    fill({ type: 'event', name: 'checkpoint', data: {} });
    expect(writer.created).toBe(true);
    expect(names(path)).toEqual(['event:checkpoint', 'message:the prompt']);
    await writer.close();
  });

  it('writes an unfilled reservation as a `reserved` event at close, so the entries after it keep their indexes', async () => {
    const path = sessionPath();
    const writer = SessionWriter.create(path, header('20260101-000000-cccccc'));
    writer.reserve();
    writer.append({ type: 'message', message: user('kept') });
    await writer.close();
    expect(names(path)).toEqual(['event:reserved', 'message:kept']);
  });
});
