/**
 * Imported before Ink (and chalk) by run.tsx, because both read the environment once, when they
 * load:
 * - NO_COLOR turns colour off everywhere (chalk honours FORCE_COLOR=0);
 * - a CI variable in an interactive terminal must not switch Ink to its CI output mode, so it is
 *   hidden while Ink loads and put back right after (`restoreCiVariable`), so that commands the
 *   agent runs still see it.
 */
export const colorEnabled = !process.env.NO_COLOR;
if (!colorEnabled) process.env.FORCE_COLOR = '0';

const savedCi = process.env.CI;
process.env.CI = 'false';

export function restoreCiVariable(): void {
  if (savedCi === undefined) delete process.env.CI;
  else process.env.CI = savedCi;
}
