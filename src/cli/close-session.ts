import type { AgentSession } from '../runtime/session.js';
import { redact } from '../util/redact.js';

/** Closes the session, then tells the user what became of its `--worktree` worktree (stderr, so
 * json output on stdout stays one document). */
export async function closeSession(session: AgentSession, err: { write(text: string): unknown } = process.stderr): Promise<void> {
  await session.close();
  for (const note of session.closingNotes) err.write(`seek: ${redact(note)}\n`);
}
