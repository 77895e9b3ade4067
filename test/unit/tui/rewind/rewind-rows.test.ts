import { describe, expect, it } from 'vitest';
import { changedSummary, codeRestoredNotice, rewindChoices, rewindRows } from '../../../../src/tui/state/rewind.js';

const NOW = new Date('2026-01-01T12:00:00.000Z');

describe('/rewind rows', () => {
  it('sums the files and lines changed since, binary files counted without lines', () => {
    expect(changedSummary([])).toBe('no change since');
    expect(changedSummary([{ path: 'a', added: 1, removed: 0 }])).toBe('1 file +1 −0');
    expect(changedSummary([{ path: 'a', added: 3, removed: 2 }, { path: 'b.png' }, { path: 'c', added: 1, removed: 4 }])).toBe('3 files +4 −6');
  });

  it('lists newest first: age, changes, prompt; restore points in parentheses; files as the description', () => {
    const rows = rewindRows(
      [
        { turn: 1, kind: 'turn', prompt: 'fix the bug', at: '2026-01-01T11:00:00.000Z', changedSince: [{ path: 'a.ts', added: 2, removed: 1 }, { path: 'b.ts', added: 0, removed: 3 }] },
        { turn: 2, kind: 'restore', prompt: 'before rewinding to 1', at: '2026-01-01T11:58:00.000Z', changedSince: [] },
        { turn: 3, kind: 'turn', prompt: '', at: '2026-01-01T11:59:30.000Z', changedSince: [] },
      ],
      NOW,
    );
    expect(rows).toEqual([
      { value: '3', label: '30s ago  no change since   (empty prompt)' },
      { value: '2', label: ' 2m ago  no change since   (before rewinding to 1)' },
      { value: '1', label: ' 1h ago  2 files +2 −4     fix the bug', description: 'a.ts, b.ts' },
    ]);
  });

  it('offers the conversation only for a turn (a restore point has no turn to go back to)', () => {
    expect(rewindChoices('turn').map((c) => c.value)).toEqual(['both', 'code', 'conversation', 'diff']);
    expect(rewindChoices('restore').map((c) => c.value)).toEqual(['code', 'diff']);
  });

  it('says how to undo a code restore, in the session that recorded it', () => {
    const here = codeRestoredNotice({ target: 1, before: 4, files: 2, sessionId: 'S', forked: false, skippedIgnored: [] });
    expect(here).toBe('restored the code to checkpoint 1 (2 files changed). To undo: /rewind to "(before rewinding to 1)", or seek rewind 4 --code --session S');
    const forked = codeRestoredNotice({ target: 1, before: 4, files: 1, sessionId: 'S', forked: true, skippedIgnored: ['x.log'] });
    expect(forked).toContain('(1 file changed). Left alone (ignored by git now): x.log. To undo: /resume S, then /rewind');
  });
});
