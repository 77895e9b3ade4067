import { PlainInteractive } from '../frontends/plain-interactive.js';
import { openSession } from '../runtime/session.js';
import type { RootOptions } from './root.js';
import { sessionOptionsFrom } from './session-options.js';

/** `seek` without -p. The plain line mode runs for now; the full-screen UI plugs in here. */
export async function runInteractive(firstPrompt: string, options: RootOptions): Promise<number> {
  let ui: PlainInteractive | undefined;
  const session = await openSession(
    sessionOptionsFrom(options, {
      interactive: true,
      ask: async (request) => (ui ? ui.ask(request.action, request.subagent?.description) : 'no'),
    }),
  );
  ui = new PlainInteractive(session, process.stdin, process.stdout);
  const onSigint = () => {
    if (ui?.interrupt() === 'exit') {
      ui.close();
    }
  };
  process.on('SIGINT', onSigint);
  try {
    return await ui.run(firstPrompt);
  } finally {
    process.off('SIGINT', onSigint);
    ui.close();
    await session.close();
  }
}
