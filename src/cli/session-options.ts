import type { OpenSessionOptions } from '../runtime/session.js';
import type { RootOptions } from './root.js';

/** Maps parsed root flags to the runtime's session options. */
export function sessionOptionsFrom(options: RootOptions, extra: Pick<OpenSessionOptions, 'interactive'> & Partial<OpenSessionOptions>): OpenSessionOptions {
  return {
    cwd: process.cwd(),
    env: process.env,
    maxTurns: options.maxTurns,
    save: options.save,
    yolo: options.yolo === true,
    plan: options.plan === true,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    ...(options.continue ? { continueLatest: true } : {}),
    ...extra,
  };
}
