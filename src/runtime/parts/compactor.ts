/** The session's compactor, per model (`/model` asks for a new one). */
import { lookupModel } from '../../providers/index.js';
import type { StreamFn } from '../../providers/types.js';
import type { HookRunner } from '../../hooks/runner.js';
import { createCompactor, type Compactor } from '../compaction.js';
import type { OpenSessionOptions } from '../session-types.js';
import type { SessionBase } from './base.js';

export function compactorsFor(base: SessionBase, options: OpenSessionOptions, stream: StreamFn, hooks: HookRunner | undefined): (model: string) => Compactor {
  return (model) =>
    createCompactor({
      stream,
      model,
      contextWindow: lookupModel(model).contextWindow,
      env: options.env,
      ...(hooks ? { hooks } : {}),
      onProblem: base.board.problem,
    });
}
