/**
 * Prompt history of one project, shared by all its seek sessions:
 * `<SEEK_HOME>/projects/<pid>/input-history.jsonl`, one `{"text":…,"ts":…}` per line.
 *
 * Concurrency: several seek processes may run in one project. Each appends a whole line with a
 * single O_APPEND write, which the kernel positions atomically, so lines from different
 * processes never interleave. A process sees what others added only when it next starts. The
 * trim to `max` entries rewrites the file atomically (temp file + rename); a line another process
 * appends between our read and the rename is lost, which for a history is acceptable, and to make
 * that rare the file is only rewritten once it is well over `max` (see `REWRITE_SLACK`).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../config/atomic-file.js';
import type { InputHistory } from '../types.js';

export interface InputHistoryOptions {
  /** Entries kept (newest); default 500. */
  max?: number;
  /** Clock for the `ts` field (tests). */
  now?: () => Date;
  /** Told about a failed write; history is best effort, so the default is to ignore it. */
  onError?: (error: unknown) => void;
}

/** A persisted InputHistory; `flush` resolves once every write started so far has finished. */
export interface PersistentInputHistory extends InputHistory {
  flush(): Promise<void>;
}

export const DEFAULT_HISTORY_MAX = 500;
/** The file is rewritten only when it holds more than `max + REWRITE_SLACK` lines, so the
 * rewrite (and its small race with concurrent appends) happens once per many sessions. */
const REWRITE_SLACK = 50;

/**
 * Loads the history synchronously (it is small, and the editor needs it at its first Up) and
 * appends to it as entries are added. A missing file is an empty history; unreadable or corrupt
 * lines are skipped; consecutive duplicates are collapsed.
 */
export function createInputHistory(file: string, options: InputHistoryOptions = {}): PersistentInputHistory {
  const max = Math.max(1, options.max ?? DEFAULT_HISTORY_MAX);
  const now = options.now ?? (() => new Date());
  const onError = options.onError ?? (() => {});
  const loaded = readHistory(file);
  let entries = loaded.entries.slice(-max).map((entry) => entry.text);
  // A torn last line (a crash mid-write) must not swallow the next entry appended after it.
  let separator = loaded.endsWithNewline ? '' : '\n';
  let pending: Promise<void> = Promise.resolve();
  const enqueue = (write: () => Promise<void>): void => {
    pending = pending.then(write).catch(onError);
  };

  if (loaded.lineCount > max + REWRITE_SLACK) {
    const kept = loaded.entries.slice(-max).map((entry) => `${entry.line}\n`).join('');
    separator = '';
    enqueue(() => writeFileAtomic(file, kept));
  }

  return {
    entries: () => entries,
    add(text: string) {
      if (text.trim() === '' || entries[entries.length - 1] === text) return;
      entries = [...entries, text].slice(-max);
      const line = `${separator}${JSON.stringify({ text, ts: now().toISOString() })}\n`;
      separator = '';
      enqueue(async () => {
        await mkdir(dirname(file), { recursive: true });
        await appendFile(file, line, 'utf8');
      });
    },
    flush: () => pending,
  };
}

interface LoadedHistory {
  /** Valid entries, oldest first, consecutive duplicates collapsed, with their original line. */
  entries: Array<{ text: string; line: string }>;
  /** Non-blank lines in the file, valid or not. */
  lineCount: number;
  endsWithNewline: boolean;
}

function readHistory(file: string): LoadedHistory {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return { entries: [], lineCount: 0, endsWithNewline: true };
  }
  const entries: LoadedHistory['entries'] = [];
  let lineCount = 0;
  for (const line of content.split('\n')) {
    if (line.trim() === '') continue;
    lineCount += 1;
    const text = parseEntry(line);
    if (text !== undefined && entries[entries.length - 1]?.text !== text) entries.push({ text, line });
  }
  return { entries, lineCount, endsWithNewline: content === '' || content.endsWith('\n') };
}

function parseEntry(line: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null || !('text' in parsed)) return undefined;
    const { text } = parsed;
    return typeof text === 'string' && text.trim() !== '' ? text : undefined;
  } catch {
    return undefined;
  }
}
