/**
 * `seek --list` with a session billed by a model without known prices: its cost column shows
 * "—", not $0.00; a priced session keeps its figure. Real transcript files in a temp home.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRow } from '../../../src/cli/list-sessions.js';
import { sessionFile } from '../../../src/config/paths.js';
import { listSessions } from '../../../src/session/list.js';
import { SessionWriter } from '../../../src/session/writer.js';
import type { Message } from '../../../src/providers/types.js';
import { assistant, header, user } from '../session/helpers.js';

const PID = 'fedcba9876543210';
const UNKNOWN = '20250102-090000-bbbbbb';
const KNOWN = '20250103-090000-abcdef';
let home: string;

async function writeSession(id: string, model: string, messages: Message[]): Promise<void> {
  const writer = SessionWriter.create(sessionFile(home, PID, id), header(id, { model }));
  for (const message of messages) writer.append({ type: 'message', message });
  await writer.close();
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'seek-list-cost-'));
  await writeSession(UNKNOWN, 'no-such-model-for-prices', [user('hi'), { ...assistant('ok', [], 10, 5, 0), model: 'no-such-model-for-prices' }]);
  await writeSession(KNOWN, 'deepseek-v4-flash', [user('hi'), assistant('ok', [], 10, 5, 0.25)]);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('session list cost', () => {
  it('shows — for a session billed by an unknown model and the figure for a priced one', async () => {
    const sessions = await listSessions(home, PID);
    const unknown = sessions.find((session) => session.id === UNKNOWN)!;
    const known = sessions.find((session) => session.id === KNOWN)!;
    expect(unknown.cost_known).toBe(false);
    expect(known.cost_known).toBe(true);
    expect(sessionRow(unknown, '')).toContain('—');
    expect(sessionRow(unknown, '')).not.toContain('$');
    expect(sessionRow(known, '')).toContain('$0.25');
  });
});
