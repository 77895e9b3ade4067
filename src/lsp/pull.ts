/**
 * Diagnostics asked for instead of waited for, where a server can answer the question directly:
 * typescript-language-server publishes a file's diagnostics only when they change (a clean edit
 * of a clean file publishes nothing, so a waiter cannot tell "no errors" from "not yet"), but it
 * forwards tsserver requests: `syntacticDiagnosticsSync` and `semanticDiagnosticsSync` answer with
 * the file's diagnostics as of the text it was sent.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LanguageServer, Published } from './server.js';

/** How long an answer may still come after its edit's result went (it then comes late). */
const LATE_MS = 120_000;

/** The diagnostics of `uri` newer than `serial`: asked for where the server pulls, else the next
 * publication; undefined when none came within `ms`. An answer asked for that comes later is
 * still recorded (for the late report). */
export function freshDiagnostics(server: LanguageServer, uri: string, serial: number, ms: number): Promise<Published | undefined> {
  if (!server.pulls) return server.waitPublished(uri, serial, ms);
  const asked = pullTypescript(server, uri, Math.max(ms, LATE_MS)).then(
    (items) => server.record(uri, items),
    () => undefined,
  );
  return Promise.race([asked, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), Math.max(0, ms)).unref())]);
}

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
}

const SEVERITY: Record<string, 1 | 2 | 3 | 4> = { error: 1, warning: 2, message: 3, suggestion: 4 };

/** True for servers whose diagnostics are asked for (see above). */
export function pullsDiagnostics(command: readonly string[]): boolean {
  return /(^|\/)typescript-language-server$/.test(command[0] ?? '');
}

/** The file's diagnostics from tsserver through typescript-language-server. */
export async function pullTypescript(server: LanguageServer, uri: string, ms: number): Promise<Diagnostic[]> {
  const ask = (command: string): Promise<{ body?: TsDiagnostic[] } | TsDiagnostic[] | null> =>
    server.request('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: [command, { file: uri, includeLinePosition: false }] }, ms);
  const [syntactic, semantic] = await Promise.all([ask('syntacticDiagnosticsSync'), ask('semanticDiagnosticsSync')]);
  return [...bodyOf(syntactic), ...bodyOf(semantic)].map(toDiagnostic);
}

function bodyOf(answer: { body?: TsDiagnostic[] } | TsDiagnostic[] | null): TsDiagnostic[] {
  if (Array.isArray(answer)) return answer;
  return Array.isArray(answer?.body) ? answer.body : [];
}

function toDiagnostic(item: TsDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: item.start.line - 1, character: item.start.offset - 1 },
      end: { line: item.end.line - 1, character: item.end.offset - 1 },
    },
    message: item.text,
    severity: SEVERITY[item.category ?? 'error'] ?? 1,
    ...(item.code !== undefined ? { code: item.code } : {}),
    source: 'typescript',
  };
}
