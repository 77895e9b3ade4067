import { ConfigError } from '../config/config.js';
import { redact } from '../util/redact.js';
import { soulFile } from '../config/paths.js';
import { formatCost } from '../cost/format.js';
import { readDreamState, writeDreamState } from '../memory/auto-dream.js';
import { dream, DreamError, describeDream, writeDream } from '../memory/dream.js';
import { openSideModel } from '../runtime/side-model.js';
import type { RootOptions } from './root-options.js';

/**
 * `seek -dream [--write]`: distils user traits from every project's memory and the newest sessions
 * into soul.md (seek-spec 5.5). Without --write it only shows what would change. Exit 1 when the
 * model fails or its answer cannot be read (nothing is written then).
 */
export async function runDream(options: RootOptions): Promise<number> {
  try {
    const side = await openSideModel({ cwd: process.cwd(), env: process.env, ...(options.provider ? { provider: options.provider } : {}), ...(options.model ? { model: options.model } : {}), ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) });
    const preview = await dream({ seekHome: side.seekHome, stream: side.stream, model: side.model });
    const cost = preview.call ? ` (${formatCost(preview.call.costUsd)})` : '';
    process.stdout.write(`${describeDream(preview).join('\n')}\n`);
    const file = soulFile(side.seekHome);
    if (!options.write) {
      process.stdout.write(preview.before === preview.after ? `preview only${cost}\n` : `preview only: seek -dream --write saves it to ${file}${cost}\n`);
      return 0;
    }
    if (preview.before !== preview.after) await writeDream(side.seekHome, preview);
    const state = await readDreamState(side.seekHome);
    await writeDreamState(side.seekHome, { ...state, sessions_since_dream: 0, last_dream_at: new Date().toISOString() });
    process.stdout.write(preview.before === preview.after ? `soul.md unchanged${cost}\n` : `saved ${file}${cost}\n`);
    return 0;
  } catch (error) {
    if (error instanceof DreamError || error instanceof ConfigError) {
      process.stderr.write(`seek: ${redact(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}
