import { formatCost } from '../../cost/format.js';
import type { SlashCommand } from './types.js';

/** `/distill`: the flash model proposes up to three project decisions from this session (billed
 * to it), then you review each in a panel: nothing is saved without your y. */
export const distillCommand: SlashCommand = {
  name: 'distill',
  description: 'propose up to 3 project decisions from this session for memory; you review each',
  async run(context) {
    const result = await context.runBusy('distilling this session', (signal) => context.session.distill(signal)).catch((error: unknown) => {
      context.notice((error as Error).message, 'error');
      return undefined;
    });
    if (!result) return;
    for (const item of result.rejected) context.notice(`distill left out "${item.name}": ${item.problem}`, 'warn');
    if (result.candidates.length === 0) {
      context.notice(`distill: nothing in this session worth keeping (${formatCost(result.call.costUsd)})`);
      return;
    }
    context.openPanel({ kind: 'distill', candidates: result.candidates });
  },
};
