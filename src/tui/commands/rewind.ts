import type { SessionRewind, SessionRewindPoint } from '../../checkpoints/session-rewind.js';
import { conflictText, notRestorableText } from '../../checkpoints/describe.js';
import { codeRestoredNotice, rewindChoices, rewindRows, type RewindChoice } from '../state/rewind.js';
import type { CommandContext, SlashCommand } from './types.js';

/**
 * `/rewind` (and Esc Esc on an empty prompt): the session's checkpoints newest first (a turn's
 * start, or the state before an earlier rewind), then what to restore: code and conversation,
 * code only, conversation only, or the diff first. Code goes through the same plan and restore as
 * `seek rewind` (files changed outside seek are listed and must be confirmed); the conversation
 * is a fork the UI switches to, with the rewound prompt back in the input.
 */
export const rewindCommand: SlashCommand = {
  name: 'rewind',
  description: 'go back to the start of a turn: code, conversation, or both',
  async run(context) {
    const rewind = context.session.rewind;
    const points = rewind ? await rewind.points() : [];
    if (!rewind || points.length === 0) {
      context.notice('nothing to rewind yet: a checkpoint is taken at the start of every turn');
      return;
    }
    const byTurn = new Map(points.map((point) => [String(point.turn), point]));
    context.openPicker({
      title: 'Rewind to',
      items: rewindRows(points, new Date()),
      onSelect: (value) => chooseWhat(context, rewind, byTurn.get(value)!),
    });
  },
};

/** /rewind from a key (Esc Esc): failures become a notice, as a typed command's do. */
export async function openRewind(context: CommandContext): Promise<void> {
  try {
    await rewindCommand.run(context, '');
  } catch (error) {
    context.notice(error instanceof Error ? error.message : String(error), 'error');
  }
}

function chooseWhat(context: CommandContext, rewind: SessionRewind, point: SessionRewindPoint): void {
  const title = point.kind === 'turn' ? `Turn ${point.turn}: ${point.prompt}` : `Checkpoint ${point.turn} (${point.prompt})`;
  context.openPicker({
    title,
    items: rewindChoices(point.kind),
    onSelect: (value) => act(context, rewind, point, value as RewindChoice),
  });
}

async function act(context: CommandContext, rewind: SessionRewind, point: SessionRewindPoint, choice: RewindChoice): Promise<void> {
  if (choice === 'diff') return showDiff(context, rewind, point);
  if (choice === 'conversation') return forkConversation(context, rewind, point);
  const plan = await rewind.plan(point);
  if (plan.changes.length === 0) {
    // Nothing to write: no restore point either (it would only lengthen the list).
    if (choice === 'both') return forkConversation(context, rewind, point);
    return context.notice(`the code already equals checkpoint ${point.turn}: nothing to restore`);
  }
  const restore = async () => {
    const sessionId = context.session.id;
    const result = await rewind.restoreCode(plan);
    // After the fork: switching sessions reprints the screen, and the undo point stays in this one.
    if (choice === 'both') await forkConversation(context, rewind, point);
    context.notice(codeRestoredNotice({ target: point.turn, files: plan.changes.length, before: result.before.turn, sessionId, forked: choice === 'both', skippedIgnored: result.skippedIgnored }));
  };
  if (plan.notRestorable.length > 0) context.notice(notRestorableText(plan.notRestorable), 'warn');
  if (plan.conflicts.length === 0) return restore();
  context.notice(conflictText(plan.conflicts, plan.unrecoverable), 'warn');
  context.openPicker({
    title: `Overwrite ${plan.conflicts.length === 1 ? 'that file' : `those ${plan.conflicts.length} files`}?`,
    items: [
      { value: 'no', label: 'no, leave everything as it is' },
      { value: 'yes', label: 'yes, overwrite them (the current state is checkpointed first)' },
    ],
    onSelect: (value) => (value === 'yes' ? restore() : context.notice('rewind cancelled: nothing changed')),
  });
}

async function showDiff(context: CommandContext, rewind: SessionRewind, point: SessionRewindPoint): Promise<void> {
  const lines = await rewind.diffLines(await rewind.plan(point));
  if (lines.length === 0) {
    context.notice(`the code already equals checkpoint ${point.turn}: a code restore changes nothing`);
    return chooseWhat(context, rewind, point);
  }
  context.openPanel({ kind: 'text', title: `What rewinding to ${point.turn} changes`, lines, style: 'diff', onClose: () => chooseWhat(context, rewind, point) });
}

async function forkConversation(context: CommandContext, rewind: SessionRewind, point: SessionRewindPoint): Promise<void> {
  const previous = context.session.id;
  const fork = await rewind.forkBefore(point);
  await context.switchSession({ resume: fork.id, fork: true, ...(fork.prompt ? { draft: fork.prompt } : {}) });
  context.notice(`conversation rewound to before turn ${point.turn}: this is a new session; session ${previous} is unchanged (/resume ${previous})`);
}
