/**
 * Imported before Ink (and chalk) by run.tsx, because both read the environment once, when they
 * load. Colour in the terminal UI follows NO_COLOR and FORCE_COLOR, nothing else:
 * - NO_COLOR (non-empty) turns colour off everywhere (chalk honours FORCE_COLOR=0, set for the load);
 * - FORCE_COLOR is left to chalk (0/false off, 1-3 a level);
 * - CI variables must change neither colour nor Ink's output mode in an interactive terminal: chalk
 *   takes any `CI` (even CI=false) for "no colour", and Ink (is-in-ci) switches to its CI mode for
 *   CI/CONTINUOUS_INTEGRATION. They are hidden while Ink loads.
 * `restoreEnvironment` puts every variable back right after, so commands the agent runs see the
 * user's environment unchanged.
 */
const HIDDEN_WHILE_LOADING = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

const forceColor = process.env.FORCE_COLOR;
const noColor = Boolean(process.env.NO_COLOR);

/** Whether the UI draws colour (explicit colours in our own renderers follow this too). */
export const colorEnabled = !noColor && forceColor !== '0' && forceColor !== 'false';

/**
 * Whether links in answers are OSC 8 hyperlinks (clickable in terminals that support them; the
 * text shown is the same either way). Off with colour (NO_COLOR: no escape codes at all), for
 * TERM=dumb, and with SEEK_HYPERLINKS=0 (or false/off) for a terminal or multiplexer that shows
 * the sequences as text.
 */
export const hyperlinksEnabled =
  colorEnabled && process.env.TERM !== 'dumb' && !['0', 'false', 'off', 'no'].includes((process.env.SEEK_HYPERLINKS ?? '').toLowerCase());

const saved = new Map<string, string | undefined>();
for (const name of HIDDEN_WHILE_LOADING) {
  saved.set(name, process.env[name]);
  delete process.env[name];
}
if (noColor) {
  saved.set('FORCE_COLOR', forceColor);
  process.env.FORCE_COLOR = '0';
}

/** Puts back what this module changed for the load of Ink and chalk. Idempotent. */
export function restoreEnvironment(): void {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
}
