import { PlainInteractive } from '../frontends/plain-interactive.js';
import { attachImageFiles } from '../images/attach-files.js';
import { openSession } from '../runtime/session.js';
import type { RootOptions } from './root-options.js';
import { closeSession } from './close-session.js';
import { noteRunKind } from './run-kind.js';
import { sessionOptionsFrom } from './session-options.js';

/** `seek` without -p: the terminal UI when both stdin and stdout are terminals, else the plain
 * line mode (pipes, dumb terminals, `SEEK_PLAIN=1`). */
export async function runInteractive(firstPrompt: string, options: RootOptions): Promise<number> {
  if (process.stdin.isTTY && process.stdout.isTTY && !process.env.SEEK_PLAIN) {
    const { runTui } = await import('../tui/run.js');
    noteRunKind('tui');
    return runTui({ firstPrompt, images: options.image ?? [], session: sessionOptionsFrom(options, { interactive: true }) });
  }
  const ui: { current?: PlainInteractive } = {};
  const session = await openSession(
    sessionOptionsFrom(options, {
      interactive: true,
      ask: async (request) => (ui.current ? ui.current.ask(request) : 'no'),
      reviewPlan: async (request) => (ui.current ? ui.current.reviewPlan(request) : { kind: 'reject', reason: 'no terminal to ask' }),
    }),
  );
  const attached = await attachImageFiles(options.image ?? [], process.cwd(), session.provider, session.model);
  if ('error' in attached) {
    process.stderr.write(`seek: ${attached.error}\n`);
    await closeSession(session);
    return 2;
  }
  for (const note of attached.notes) process.stderr.write(`seek: ${note}\n`);
  const plain = new PlainInteractive(session, process.stdin, process.stdout);
  ui.current = plain;
  const onSigint = () => {
    if (plain.interrupt() === 'exit') plain.close();
  };
  process.on('SIGINT', onSigint);
  try {
    return await plain.run(firstPrompt, attached.images);
  } finally {
    process.off('SIGINT', onSigint);
    plain.close();
    await closeSession(session);
  }
}
