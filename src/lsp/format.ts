/**
 * The text the model reads: diagnostics as `path:line:col error: message`, locations, symbols.
 * Lines and columns are 1-based, as in read_file and every compiler's output.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';

export const SEVERITY = ['', 'error', 'warning', 'info', 'hint'] as const;

/** The diagnostics worth reporting: errors, and warnings when asked. */
export function reportable(items: readonly Diagnostic[], warnings: boolean): Diagnostic[] {
  return items.filter((item) => (item.severity ?? 1) === 1 || (warnings && item.severity === 2));
}

export function shownPath(uri: string, base: string): string {
  let file: string;
  try {
    file = fileURLToPath(uri);
  } catch {
    return uri;
  }
  const relative = path.relative(base, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

export function diagnosticLine(shown: string, item: Diagnostic): string {
  const where = `${shown}:${item.range.start.line + 1}:${item.range.start.character + 1}`;
  const code = item.code !== undefined && item.code !== '' ? ` [${String(item.code)}]` : '';
  const message = (typeof item.message === 'string' ? item.message : item.message.value).replace(/\s*\n\s*/g, ' ').slice(0, 400);
  return `${where} ${SEVERITY[item.severity ?? 1] ?? 'error'}: ${message}${code}`;
}

/** "2 errors", "1 error, 3 warnings". */
export function countText(items: readonly Diagnostic[]): string {
  const errors = items.filter((item) => (item.severity ?? 1) === 1).length;
  const warnings = items.filter((item) => item.severity === 2).length;
  const parts = [];
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return parts.join(', ') || 'no errors';
}

export interface FileDiagnostics {
  uri: string;
  items: Diagnostic[];
}

/**
 * One block for a result: a heading per file, then its diagnostics sorted by position, at most
 * `max` lines in all (the rest counted).
 */
export function formatDiagnostics(files: readonly FileDiagnostics[], base: string, max: number, heading: string): string {
  const lines: string[] = [];
  let left = max;
  let omitted = 0;
  for (const file of files) {
    const shown = shownPath(file.uri, base);
    const sorted = [...file.items].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    lines.push(`${heading} ${shown}: ${countText(sorted)}`);
    for (const item of sorted) {
      if (left <= 0) {
        omitted += 1;
        continue;
      }
      lines.push(`  ${diagnosticLine(shown, item)}`);
      left -= 1;
    }
  }
  if (omitted > 0) lines.push(`  … ${omitted} more not shown`);
  return lines.join('\n');
}
