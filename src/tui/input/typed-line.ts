/**
 * One-line text fields (an archive reason, a search, a picker filter, the "tell seek" answer) get
 * keys from Ink's useInput, which hands over a whole read at once. Typed text and Enter often
 * arrive in one read (`"some reason\r"`, always under a busy CPU); the Enter must submit, not
 * become part of the text. A chunk with line breaks inside is a paste: its breaks become spaces.
 */
export function typedLine(input: string): { text: string; submit: boolean } {
  const cleaned = input.replace(/\u001b?\[20[01]~/g, ''); // bracketed-paste markers
  const submit = cleaned.length > 1 && cleaned.endsWith('\r') && !/[\r\n]/.test(cleaned.slice(0, -1));
  const body = submit ? cleaned.slice(0, -1) : cleaned;
  return { text: body.replace(/\r?\n|\r/g, ' ').replace(/[\u0000-\u001f\u007f]/g, ''), submit };
}
