import { detectSandbox } from '../../src/sandbox/detect.js';

/**
 * Whether this machine can run the OS sandbox. In CI it must (`.ci/run` installs bubblewrap): a
 * missing sandbox there is an error, so sandbox tests can never be skipped silently. Elsewhere (a
 * fresh machine without bubblewrap) the tests that need it are skipped, and say so.
 */
export const sandboxStatus = detectSandbox({ env: process.env });

if (!sandboxStatus.available && process.env.CI === 'true') {
  throw new Error(`CI must run the sandbox tests, but no sandbox is available: ${sandboxStatus.reason ?? ''} ${sandboxStatus.fix ?? ''}`);
}

export const hasSandbox = sandboxStatus.available;
