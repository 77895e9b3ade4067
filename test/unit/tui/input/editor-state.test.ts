import { describe, expect, it } from 'vitest';
import {
  EMPTY_EDITOR_STATE,
  clear,
  deleteBackward,
  deleteForward,
  deleteWordBackward,
  deleteWordForward,
  editorStateFrom,
  insertNewline,
  insertText,
  isOnFirstRow,
  isOnLastRow,
  killToLineEnd,
  killToLineStart,
  moveBufferEnd,
  moveBufferStart,
  moveDown,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveUp,
  moveWordLeft,
  moveWordRight,
  normalizeText,
  type EditorState,
} from '../../../../src/tui/input/editor-state.js';

/** `ab|cd` → state with the cursor at the bar. */
function at(marked: string): EditorState {
  const cursor = marked.indexOf('|');
  return { value: marked.slice(0, cursor) + marked.slice(cursor + 1), cursor };
}

/** The state written as `ab|cd`. */
function show(state: EditorState): string {
  return `${state.value.slice(0, state.cursor)}|${state.value.slice(state.cursor)}`;
}

function apply(state: EditorState, ...steps: Array<(s: EditorState) => EditorState>): EditorState {
  return steps.reduce((current, step) => step(current), state);
}

describe('editor state: inserting', () => {
  it('inserts at the cursor and moves past the text', () => {
    expect(show(insertText(at('ab|cd'), 'XY'))).toBe('abXY|cd');
    expect(show(insertText(EMPTY_EDITOR_STATE, 'hello'))).toBe('hello|');
  });

  it('never mutates the state it was given', () => {
    const state = at('ab|');
    const frozen = Object.freeze({ ...state });
    insertText(frozen, 'c');
    expect(frozen).toEqual(state);
  });

  it('normalizes line endings and drops control characters and escape sequences', () => {
    expect(normalizeText('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
    expect(normalizeText('x\u0007y\u0000z\u007f')).toBe('xyz');
    expect(normalizeText('\u001b[31mred\u001b[0m tab\there')).toBe('red tab\there');
    expect(show(insertText(at('|'), 'one\r\ntwo'))).toBe('one\ntwo|');
  });

  it('returns the same state when nothing is inserted', () => {
    const state = at('a|b');
    expect(insertText(state, '\u0000')).toBe(state);
  });

  it('inserts a newline', () => {
    expect(show(insertNewline(at('ab|cd')))).toBe('ab\n|cd');
  });

  it('snaps a cursor given inside a grapheme to its start', () => {
    const flag = '🇯🇵';
    expect(editorStateFrom(`a${flag}b`, 2).cursor).toBe(1);
    expect(editorStateFrom('abc').cursor).toBe(3);
  });
});

describe('editor state: deleting', () => {
  it('deletes backward and forward by one character', () => {
    expect(show(deleteBackward(at('ab|cd')))).toBe('a|cd');
    expect(show(deleteForward(at('ab|cd')))).toBe('ab|d');
  });

  it('does nothing at the edges', () => {
    const start = at('|ab');
    const end = at('ab|');
    expect(deleteBackward(start)).toBe(start);
    expect(deleteForward(end)).toBe(end);
    expect(deleteBackward(EMPTY_EDITOR_STATE)).toBe(EMPTY_EDITOR_STATE);
  });

  it('joins lines when deleting a newline', () => {
    expect(show(deleteBackward(at('ab\n|cd')))).toBe('ab|cd');
    expect(show(deleteForward(at('ab|\ncd')))).toBe('ab|cd');
  });

  it('deletes the previous word (Ctrl+W) with its trailing spaces', () => {
    expect(show(deleteWordBackward(at('git commit  |')))).toBe('git |');
    expect(show(deleteWordBackward(at('git com|mit')))).toBe('git |mit');
    expect(show(deleteWordBackward(at('|abc')))).toBe('|abc');
  });

  it('treats punctuation runs as words of their own', () => {
    const state = at('read src/tui/input|');
    expect(show(deleteWordBackward(state))).toBe('read src/tui/|');
    expect(show(apply(state, deleteWordBackward, deleteWordBackward))).toBe('read src/tui|');
    expect(show(deleteWordBackward(at('foo(...)|')))).toBe('foo|');
  });

  it('deletes the next word (Alt+D)', () => {
    expect(show(deleteWordForward(at('a| big word')))).toBe('a| word');
  });

  it('kills to the end of the line (Ctrl+K), joining the next line at the end', () => {
    expect(show(killToLineEnd(at('ab|cd\nef')))).toBe('ab|\nef');
    expect(show(killToLineEnd(at('ab|\nef')))).toBe('ab|ef');
    const end = at('abc|');
    expect(killToLineEnd(end)).toBe(end);
  });

  it('kills to the start of the line (Ctrl+U), joining the previous line at the start', () => {
    expect(show(killToLineStart(at('ab\ncd|ef')))).toBe('ab\n|ef');
    expect(show(killToLineStart(at('ab\n|ef')))).toBe('ab|ef');
    const start = at('|abc');
    expect(killToLineStart(start)).toBe(start);
  });

  it('clears', () => {
    expect(clear(at('a\nb|c'))).toEqual(EMPTY_EDITOR_STATE);
    expect(clear(EMPTY_EDITOR_STATE)).toBe(EMPTY_EDITOR_STATE);
  });
});

describe('editor state: wide characters and graphemes', () => {
  const cases: Array<[string, string]> = [
    ['CJK', '漢'],
    ['emoji', '👍'],
    ['emoji with skin tone', '👍🏽'],
    ['ZWJ family', '👨‍👩‍👧‍👦'],
    ['flag', '🇫🇷'],
    ['combining accent', 'é'],
    ['Hangul syllable', '한'],
  ];

  it.each(cases)('moves over a %s in one step', (_name, grapheme) => {
    const text = `a${grapheme}b`;
    const afterA = 1;
    const afterGrapheme = 1 + grapheme.length;
    expect(moveRight({ value: text, cursor: afterA }).cursor).toBe(afterGrapheme);
    expect(moveLeft({ value: text, cursor: afterGrapheme }).cursor).toBe(afterA);
  });

  it.each(cases)('deletes a %s whole', (_name, grapheme) => {
    const text = `a${grapheme}b`;
    expect(deleteBackward({ value: text, cursor: 1 + grapheme.length })).toEqual({ value: 'ab', cursor: 1 });
    expect(deleteForward({ value: text, cursor: 1 })).toEqual({ value: 'ab', cursor: 1 });
  });

  it('walks a mixed string grapheme by grapheme', () => {
    let state = editorStateFrom('中文👍🏽x', 0);
    const stops: number[] = [];
    for (let step = 0; step < 5; step++) {
      state = moveRight(state);
      stops.push(state.cursor);
    }
    expect(stops).toEqual([1, 2, 6, 7, 7]);
  });

  it('counts CJK letters as word characters', () => {
    expect(show(moveWordLeft(at('hello 世界|')))).toBe('hello |世界');
  });
});

describe('editor state: horizontal movement', () => {
  it('moves left and right, stopping at the ends', () => {
    expect(show(moveLeft(at('ab|c')))).toBe('a|bc');
    expect(show(moveRight(at('ab|c')))).toBe('abc|');
    const start = at('|ab');
    expect(moveLeft(start)).toBe(start);
    expect(moveRight(at('ab|')).cursor).toBe(2);
  });

  it('crosses line breaks', () => {
    expect(show(moveRight(at('ab|\ncd')))).toBe('ab\n|cd');
    expect(show(moveLeft(at('ab\n|cd')))).toBe('ab|\ncd');
  });

  it('goes to the start and end of the logical line', () => {
    expect(show(moveLineStart(at('ab\ncd|ef\ngh')))).toBe('ab\n|cdef\ngh');
    expect(show(moveLineEnd(at('ab\ncd|ef\ngh')))).toBe('ab\ncdef|\ngh');
    expect(show(moveLineStart(at('abc|')))).toBe('|abc');
  });

  it('goes to the start and end of the buffer', () => {
    expect(show(moveBufferStart(at('ab\nc|d')))).toBe('|ab\ncd');
    expect(show(moveBufferEnd(at('a|b\ncd')))).toBe('ab\ncd|');
  });

  it('moves by words', () => {
    expect(show(moveWordLeft(at('one two three|')))).toBe('one two |three');
    expect(show(moveWordLeft(at('one two |three')))).toBe('one |two three');
    expect(show(moveWordRight(at('|one two')))).toBe('one| two');
    expect(show(moveWordRight(at('one| two')))).toBe('one two|');
    expect(show(moveWordRight(at('one two|')))).toBe('one two|');
    expect(show(moveWordLeft(at('line\n|next')))).toBe('|line\nnext');
  });
});

describe('editor state: vertical movement', () => {
  it('moves between logical lines keeping the column', () => {
    expect(show(moveUp(at('abcd\nef|gh')))).toBe('ab|cd\nefgh');
    expect(show(moveDown(at('ab|cd\nefgh')))).toBe('abcd\nef|gh');
  });

  it('clamps to a shorter line and returns to the goal column afterwards', () => {
    const start = at('abcdef\nxy\nabcdef|');
    const up = moveUp(start);
    expect(show(up)).toBe('abcdef\nxy|\nabcdef');
    expect(show(moveUp(up))).toBe('abcdef|\nxy\nabcdef');
    expect(show(moveDown(moveDown(moveUp(up))))).toBe('abcdef\nxy\nabcdef|');
  });

  it('forgets the goal column after any other operation', () => {
    const up = moveUp(at('abcdef\nxy\nabcdef|'));
    expect(up.goalColumn).toBe(6);
    expect(moveLeft(up).goalColumn).toBeUndefined();
    expect(insertText(up, 'z').goalColumn).toBeUndefined();
  });

  it('stays put on the first and last rows', () => {
    const first = at('ab|c\ndef');
    const last = at('abc\nd|ef');
    expect(moveUp(first)).toBe(first);
    expect(moveDown(last)).toBe(last);
    expect(isOnFirstRow(first)).toBe(true);
    expect(isOnLastRow(first)).toBe(false);
    expect(isOnLastRow(last)).toBe(true);
  });

  it('moves by visual rows when a line wraps', () => {
    // 6 columns: "hello " | "world " | "again" (the break space hangs at the row end)
    const state = at('hello world again|');
    expect(isOnFirstRow(state, 6)).toBe(false);
    expect(show(moveUp(state, 6))).toBe('hello world| again');
    expect(show(moveUp(moveUp(state, 6), 6))).toBe('hello| world again');
    expect(isOnFirstRow(moveUp(moveUp(state, 6), 6), 6)).toBe(true);
    expect(isOnFirstRow(state)).toBe(true);
  });

  it('lands before a wide character instead of splitting it', () => {
    // Column 2 falls in the middle of 中 (columns 1-2).
    expect(show(moveDown(at('ab|c\na中b')))).toBe('abc\na|中b');
    expect(show(moveDown(at('abc|\na中b')))).toBe('abc\na中|b');
    expect(show(moveUp(at('abc\na中|b')))).toBe('abc|\na中b');
  });

  it('never puts the cursor on the end of a wrapped row, which belongs to the next row', () => {
    // 4 columns: "abc" | "def"
    expect(show(moveUp(at('abcdef|'), 4))).toBe('ab|cdef');
    expect(show(moveUp(at('abc|def'), 4))).toBe('|abcdef');
    expect(show(moveDown(at('ab|cdef'), 4))).toBe('abcde|f');
  });
});
