import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { ConfigError } from '../../config/config.js';
import { formatCost } from '../../cost/format.js';
import { distill, DistillError } from '../../memory/distill.js';
import { cleanInput, EntryInputError, type EntryInput } from '../../memory/entry.js';
import { entryToText, textToEntry } from '../../memory/entry-text.js';
import { rememberEntry } from '../../memory/operations.js';
import { MemoryStore } from '../../memory/store.js';
import { openSideModel } from '../../runtime/side-model.js';
import { findSession, newestSession } from '../../session/list.js';
import { readSession } from '../../session/reader.js';
import { editText } from '../editor.js';

interface DistillOptions {
  session?: string;
  json?: boolean;
  model?: string;
}

/**
 * `seek distill [--session SID] [--json]`: one flash-model call proposes at most three project
 * decisions from a session (default: the newest), then each is reviewed: y save, n drop, e edit
 * in $EDITOR, q stop. Answers come from the terminal, or line by line from piped stdin (no input:
 * nothing is saved). `--json` prints the candidates and saves nothing. Exit 1 when the session or
 * the model's answer cannot be used.
 */
export function createDistillCommand(): Command {
  return new Command('distill')
    .description('extract up to 3 project decisions from a session into memory, each reviewed by you')
    .option('--session <sid>', 'the session (default: the newest of this project)')
    .option('--json', 'print the candidates as JSON and save nothing')
    .option('--model <name>', 'model for the extraction (default: SEEK_FLASH_MODEL)')
    .action(async (options: DistillOptions) => {
      process.exitCode = await runDistill(options).catch((error: unknown) => {
        if (error instanceof DistillError || error instanceof ConfigError || (error instanceof Error && error.name === 'SessionError')) {
          process.stderr.write(`seek: ${error.message}\n`);
          return 1;
        }
        throw error;
      });
    });
}

async function runDistill(options: DistillOptions): Promise<number> {
  const side = await openSideModel({ cwd: process.cwd(), env: process.env, ...(options.model ? { model: options.model } : {}) });
  const ref = options.session ? await findSession(side.seekHome, side.projectId, options.session) : await newestSession(side.seekHome, side.projectId, { what: 'seek distill', another: 'name another with `--session ID`' });
  if (!ref) {
    process.stderr.write('seek: this project has no session to distill yet\n');
    return 1;
  }
  const session = await readSession(ref.path);
  const store = new MemoryStore({ seekHome: side.seekHome, projectId: side.projectId, projectRoot: side.projectRoot });
  const result = await distill({ stream: side.stream, model: side.model, messages: session.messages, existing: (await store.load()).entries });
  const cost = formatCost(result.call.costUsd);
  if (options.json) {
    const usage = result.call.usage;
    process.stdout.write(
      `${JSON.stringify({
        session_id: session.header.id,
        candidates: result.candidates,
        rejected: result.rejected,
        model: result.call.model,
        usage: usage ? { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, cache_read_input_tokens: usage.cacheReadTokens } : null,
        total_cost_usd: result.call.costUsd,
        saved: [],
      }, null, 2)}\n`,
    );
    return 0;
  }
  for (const item of result.rejected) process.stderr.write(`(left out "${item.name}": ${item.problem})\n`);
  if (result.candidates.length === 0) {
    process.stdout.write(`nothing worth keeping in session ${session.header.id} (${cost})\n`);
    return 0;
  }
  const answers = lineReader();
  let saved = 0;
  let dropped = 0;
  let skipped = 0;
  try {
    for (const [index, original] of result.candidates.entries()) {
      let candidate: EntryInput = original;
      for (;;) {
        process.stdout.write(`\n⚡ distill candidate ${index + 1}/${result.candidates.length}: ${candidate.name}\n${candidate.tagline}\n${candidate.tags?.length ? `tags: ${candidate.tags.join(', ')}\n` : ''}\n${candidate.content}\n\n`);
        const answer = await answers.ask('[y] save · [n] drop · [e] edit · [q] stop: ');
        if (answer === undefined || answer === 'q') {
          skipped = result.candidates.length - index;
          break;
        }
        if (answer === 'y') {
          await rememberEntry(store, candidate, { sessionId: session.header.id });
          process.stdout.write(`saved "${candidate.name}"\n`);
          saved += 1;
        } else if (answer === 'n') {
          dropped += 1;
        } else if (answer === 'e') {
          candidate = editCandidate(candidate);
          continue;
        } else {
          continue; // bare Enter or anything else: ask again
        }
        break;
      }
      if (skipped > 0) break;
    }
  } finally {
    answers.close();
  }
  process.stdout.write(`distill review done: ${saved} saved, ${dropped} dropped${skipped ? `, ${skipped} skipped` : ''} (${cost})\n`);
  return 0;
}

/** Opens the candidate in $EDITOR; an unusable edit keeps the candidate as it was and says why. */
function editCandidate(candidate: EntryInput): EntryInput {
  if (!process.stdin.isTTY) {
    process.stdout.write('(editing needs a terminal)\n');
    return candidate;
  }
  const edited = editText(entryToText(candidate), `${candidate.name}.md`);
  try {
    const { pinned: _pinned, ...entry } = textToEntry(edited.text);
    const clean = cleanInput(entry);
    edited.discard();
    return clean;
  } catch (error) {
    if (!(error instanceof EntryInputError)) throw error;
    process.stdout.write(`(not usable: ${error.message}; your edit is in ${edited.file})\n`);
    return candidate;
  }
}

/** Answers one line at a time from stdin (terminal or pipe); undefined at the end of input. */
function lineReader(): { ask(prompt: string): Promise<string | undefined>; close(): void } {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines: string[] = [];
  const waiters: Array<(line: string | undefined) => void> = [];
  let ended = false;
  rl.on('line', (line) => (waiters.length > 0 ? waiters.shift()!(line) : lines.push(line)));
  rl.on('close', () => {
    ended = true;
    for (const waiter of waiters.splice(0)) waiter(undefined);
  });
  return {
    async ask(prompt) {
      process.stdout.write(prompt);
      const line = lines.length > 0 ? lines.shift() : ended ? undefined : await new Promise<string | undefined>((resolve) => waiters.push(resolve));
      if (line !== undefined && !process.stdin.isTTY) process.stdout.write(`${line}\n`);
      return line?.trim().toLowerCase();
    },
    close: () => rl.close(),
  };
}
