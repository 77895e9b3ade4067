/**
 * The notices of a session being opened: what start-up found (shown before the first prompt) and
 * problems found later (a failing observer hook, an MCP question no front end answers), which go
 * to the front end through `sink` once the session connects it.
 */
import type { Notice, PreparedSession } from '../session-types.js';

export interface NoticeBoard {
  /** Start-up notices, in the order they were found. */
  readonly notices: Notice[];
  readonly sink: PreparedSession['noticeSink'];
  /** A start-up notice: listed before the first prompt. */
  add(level: Notice['level'], text: string): void;
  /** A problem found at any time: to the front end when connected, else listed. */
  problem(text: string): void;
  /** Information found at any time (a worktree tool's note), the same way. */
  info(text: string): void;
  notify(level: Notice['level'], text: string): void;
}

export function createNoticeBoard(): NoticeBoard {
  const notices: Notice[] = [];
  const sink: PreparedSession['noticeSink'] = {};
  const notify = (level: Notice['level'], text: string): void => {
    if (sink.emit) sink.emit({ level, text });
    else notices.push({ level, text });
  };
  return {
    notices,
    sink,
    add: (level, text) => void notices.push({ level, text }),
    problem: (text) => notify('warn', text),
    info: (text) => notify('info', text),
    notify,
  };
}
