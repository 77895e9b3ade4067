/**
 * A call's display as its result message keeps it (ToolCallView.display, written to the session
 * file for resumed sessions). A command's output and a text display most often begin the result's
 * content: kept once, not twice (a 30 KB bash output would otherwise be stored twice per
 * call). `displayFromView` rebuilds the display from the kept view and the result's content.
 */
import type { ToolDisplay } from './types.js';

/** What the session file holds in place of a field that begins the result's content (bash's
 * content is its output, then the exit status): how many characters of the content it is. */
type KeptDisplay =
  | ToolDisplay
  | (Omit<Extract<ToolDisplay, { kind: 'command' }>, 'output'> & { outputInContent: number })
  | (Omit<Extract<ToolDisplay, { kind: 'text' }>, 'text'> & { textInContent: number });

export function keptDisplay(display: ToolDisplay, content: string): KeptDisplay {
  if (display.kind === 'command' && display.output.length > 0 && content.startsWith(display.output)) {
    const { output, ...rest } = display;
    return { ...rest, outputInContent: output.length };
  }
  if (display.kind === 'text' && display.text.length > 0 && content.startsWith(display.text)) return { kind: 'text', textInContent: display.text.length };
  return display;
}

/** The display a kept view stands for (undefined when it kept none). */
export function displayFromView(kept: unknown, content: string): ToolDisplay | undefined {
  if (!kept || typeof kept !== 'object') return undefined;
  const display = kept as Record<string, unknown>;
  if (typeof display.outputInContent === 'number') {
    const { outputInContent, ...rest } = display;
    return { ...rest, output: content.slice(0, outputInContent) } as ToolDisplay;
  }
  if (typeof display.textInContent === 'number') return { kind: 'text', text: content.slice(0, display.textInContent) };
  return kept as ToolDisplay;
}
