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

type Line = { type: string; name?: string; position?: number; message?: { content: string } };
const lines = (path: string): Line[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as Line);

describe('SessionWriter.reserve', () => {
  it('writes what comes after a reservation at once; a late fill is appended with the position it stands for', async () => {
    const path = sessionPath();
    const writer = SessionWriter.create(path, header('20260101-000000-aaaaaa'));
    writer.append({ type: 'message', message: user('before') });
    const fill = writer.reserve();
    expect(writer.append({ type: 'message', message: user('after') })).toBe(1);
    expect(names(path)).toEqual(['message:before', 'message:after']); // nothing waits for the reservation
    fill({ type: 'event', name: 'checkpoint', data: { turn: 1 } });
    expect(names(path)).toEqual(['message:before', 'message:after', 'event:checkpoint']);
    expect(lines(path)[2]).toMatchObject({ name: 'checkpoint', position: 1 });
    fill({ type: 'event', name: 'twice', data: {} }); // a second fill is ignored
    await writer.close();
    const read = await readSession(path);
    expect(read.entries.map(({ index }) => index)).toEqual([0, 1, 2]);
    expect(read.entries[2]!.entry).toMatchObject({ type: 'event', position: 1 });
  });

  it('writes a fill in place, without a position, when nothing came after the reservation', async () => {
    const path = sessionPath();
    const writer = SessionWriter.create(path, header('20260101-000000-dddddd'));
    const fill = writer.reserve();
    fill({ type: 'event', name: 'checkpoint', data: {} });
    writer.append({ type: 'message', message: user('after') });
    await writer.close();
    expect(lines(path)).toEqual([expect.not.objectContaining({ position: expect.anything() }), expect.objectContaining({ type: 'message' })]);
  });

  it('creates a deferred session with its prompt at once, even behind a reservation: a kill before the answer keeps the prompt', async () => {
    const path = sessionPath();
    const writer = SessionWriter.deferred(path, header('20260101-000000-bbbbbb'));
    const fill = writer.reserve();
    writer.append({ type: 'message', message: user('the prompt') });
    expect(writer.created).toBe(true);
    expect(names(path)).toEqual(['message:the prompt']);
    fill({ type: 'event', name: 'checkpoint', data: {} });
    expect(names(path)).toEqual(['message:the prompt', 'event:checkpoint']);
    expect(lines(path)[1]).toMatchObject({ position: 0 });
    await writer.close();
  });

  it('leaves nothing for a reservation never filled: the entries after it keep their indexes', async () => {
    const path = sessionPath();
    const writer = SessionWriter.create(path, header('20260101-000000-cccccc'));
    writer.reserve();
    writer.append({ type: 'message', message: user('kept') });
    await writer.close();
    expect(names(path)).toEqual(['message:kept']);
    expect((await readSession(path)).entries.map(({ index }) => index)).toEqual([0]);
  });
});
