import { readdir } from 'node:fs/promises';
import { addUsage, ZERO_USAGE } from '../providers/types.js';
import { subagentsDir, subagentTranscriptFile } from '../config/paths.js';
import { readSession, type TranscriptTotals } from '../session/reader.js';

/**
 * What every child of session `sid` billed, summed from their transcripts (nested children live in
 * the same flat directory, so each is counted once). A resumed session adds this to its base
 * instead of adopting the old children again: no double count. Unreadable transcripts count 0.
 */
export async function childrenTotals(home: string, pid: string, sid: string): Promise<TranscriptTotals> {
  let names: string[];
  try {
    names = await readdir(subagentsDir(home, pid, sid));
  } catch {
    return { usage: { ...ZERO_USAGE }, costUsd: 0, turns: 0 };
  }
  const totals = await Promise.all(
    names.map(async (subSid) => {
      try {
        return (await readSession(subagentTranscriptFile(home, pid, sid, subSid))).totals;
      } catch {
        return undefined;
      }
    }),
  );
  return totals.reduce<TranscriptTotals>(
    (sum, one) => (one ? { usage: addUsage(sum.usage, one.usage), costUsd: sum.costUsd + one.costUsd, turns: sum.turns + one.turns } : sum),
    { usage: { ...ZERO_USAGE }, costUsd: 0, turns: 0 },
  );
}
