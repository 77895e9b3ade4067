import { PlainInteractive } from '../frontends/plain-interactive.js';
import { openSession } from '../runtime/session.js';
import type { RootOptions } from './root.js';
import { sessionOptionsFrom } from './session-options.js';

/** `seek` without -p. The plain line mode runs for now; the full-screen UI plugs in here. */
export async function runInteractive(firstPrompt: string, options: RootOptions): Promise<number> {
  const ui: { current?: PlainInteractive } = {};
  const session = await openSession(
    sessionOptionsFrom(options, {
      interactive: true,
      ask: async (request) => (ui.current ? ui.current.ask(request.action, request.subagent?.description) : 'no'),
    }),
  );
  const plain = new PlainInteractive(session, process.stdin, process.stdout);
  ui.current = plain;
  const onSigint = () => {
    if (plain.interrupt() === 'exit') plain.close();
  };
  process.on('SIGINT', onSigint);
  try {
    return await plain.run(firstPrompt);
  } finally {
    process.off('SIGINT', onSigint);
    plain.close();
    await session.close();
  }
}
