/**
 * The input editor's behaviour without React: the buffer, history walking, the completion menu
 * and paste handling, driven by `handleKey` with what Ink's `useInput` reports. `<InputEditor>`
 * owns one controller and re-renders when it reports a change.
 *
 * State lives here rather than in React state on purpose: Ink delivers each key of a chunk
 * (`ab` then ESC[D then `c`) in its own callback within one batch, and every callback must see
 * the result of the previous one, which closures over React state would not.
 */
import type { Key } from 'ink';
import type { ToolImage } from '../../providers/types.js';
import { ImageAttachments, imageMentions, type ImageSource } from './image-attachments.js';
import type { Completer, Completion, InputHistory } from '../types.js';
import { acceptCompletion, completionContext, type CompletionContext } from './completion.js';
import * as edit from './editor-state.js';
import { EMPTY_EDITOR_STATE, type EditorState } from './editor-state.js';
import { actionForKey, type EditorAction } from './key-bindings.js';
import {
  PASTE_SETTLE_MS,
  PasteCollector,
  expandPlaceholders,
  shownPlaceholders,
  needsPlaceholder,
  placeholderEndingAt,
  placeholderToken,
} from './paste.js';

export interface EditorControllerOptions {
  history: InputHistory;
  completer: Completer;
  /** Cells available for text on one row; Up/Down move by rows of this width. */
  textWidth: number;
  /** Called with the submitted text: placeholders expanded, trimmed, never empty. The editor only
   * reads `history`; recording the text there is the caller's job (the App does it on submit). */
  /** `shown`: the text as the transcript shows it, when that differs (pastes folded). */
  onSubmit(text: string, shown?: string, images?: ToolImage[]): void;
  /** Where attached images come from (image-attachments.ts); without it there are none. */
  images?: ImageSource;
  /** A message for the user (an image that could not be attached). */
  onNotice?(text: string): void;
  /** Esc with no menu open (`empty`: the buffer is empty). Returns true when the parent used it
   * (cancelled a run), or text to put back into the input (prompts that were queued and are now
   * taken back). */
  onEscape?(empty: boolean): boolean | string;
  /** Ctrl+C on an empty prompt (a draft is cleared instead); the same return as `onEscape`. */
  onInterrupt?(): boolean | string;
  /** The buffer's text (as shown, placeholders unexpanded) after every change. */
  onChange?(text: string): void;
  /** The text the buffer starts with (editing an existing text), cursor at its end. */
  initialText?: string;
}

export interface CompletionMenu {
  kind: 'slash' | 'file';
  items: readonly Completion[];
  selected: number;
}

export interface EditorView {
  readonly editor: EditorState;
  readonly menu: CompletionMenu | null;
}

/** A chunk shorter than this without a line break is inserted at once instead of being collected
 * as a possibly split paste: small pastes and piled-up typing need no placeholder. */
const DIRECT_INSERT_MAX = 256;
/** One line of text ending in a single carriage return: Enter pressed after typing ahead. */
const TYPED_THEN_ENTER = /^[^\r\n]+\r$/;

export class EditorController {
  private options: EditorControllerOptions;
  private editor: EditorState = EMPTY_EDITOR_STATE;
  /** Large pastes by id, shown as placeholder tokens; cleared on submit. */
  private pastes = new Map<number, string>();
  private nextPasteId = 1;
  /** Index of the history entry shown, or null while editing the draft. */
  private historyIndex: number | null = null;
  private draft: EditorState = EMPTY_EDITOR_STATE;
  /** The text at which Esc closed the menu; it stays closed until the text changes. */
  private dismissedAt: string | null = null;
  private context: CompletionContext | null = null;
  private menuKey = '';
  private selected = 0;
  private view: EditorView | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly paste: PasteCollector;
  private attachments: ImageAttachments | undefined;

  constructor(options: EditorControllerOptions, pasteSettleMs: number = PASTE_SETTLE_MS) {
    this.options = options;
    this.paste = new PasteCollector((text) => this.insertPaste(text), pasteSettleMs);
    if (options.initialText) this.editor = edit.editorStateFrom(edit.normalizeText(options.initialText));
    if (options.images) this.attachments = new ImageAttachments(options.images);
  }

  /** Takes the latest props. Never notifies (it runs during render); the next view reflects them. */
  setOptions(options: EditorControllerOptions): void {
    const refresh = options.completer !== this.options.completer;
    this.options = options;
    if (refresh) this.view = null;
  }

  /** For `useSyncExternalStore`: an arrow so it can be passed unbound. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current view; the same object until something changes (`useSyncExternalStore` needs that). */
  readonly getView = (): EditorView => {
    if (!this.view) {
      this.context = this.computeContext();
      const key = this.context ? `${this.context.kind}:${this.context.start}:${this.context.typed}` : '';
      if (key !== this.menuKey) this.selected = 0;
      this.menuKey = key;
      const items = this.context?.items ?? [];
      this.selected = Math.min(this.selected, Math.max(0, items.length - 1));
      this.view = {
        editor: this.editor,
        menu: this.context ? { kind: this.context.kind, items, selected: this.selected } : null,
      };
    }
    return this.view;
  };

  /** Drops a paste still being collected (its timer would fire after unmount). */
  dispose(): void {
    this.paste.dispose();
  }

  handleKey(input: string, key: Key, raw?: string): void {
    const action = actionForKey(input, key, raw);
    if (this.paste.active) return this.continuePaste(action);
    this.apply(action);
  }

  /**
   * Puts `text` back into the input, before the draft (on a line of its own), cursor at the end of
   * the draft: queued prompts taken back so they can be edited or sent again.
   */
  restore(text: string): void {
    if (text === '') return;
    const draft = this.editor.value;
    const value = draft === '' ? text : `${text}\n${draft}`;
    this.setEditor(edit.editorStateFrom(value, value.length));
  }

  private apply(action: EditorAction): void {
    const state = this.editor;
    const menu = this.getView().menu;
    switch (action.type) {
      case 'ignore':
      case 'pasteEnd':
        return;
      case 'keys':
        for (const key of action.actions) this.apply(key);
        return;
      case 'interrupt':
        if (state.value !== '') {
          this.historyIndex = null;
          return this.setEditor(EMPTY_EDITOR_STATE);
        }
        return this.handBack(this.options.onInterrupt?.());
      case 'insert':
        return this.setEditor(edit.insertText(state, action.text));
      case 'pasteImage':
        return this.attachments?.pasteClipboard(this.insertLabel, this.notice);
      case 'paste':
        if (this.attachments?.attachPasted(action.text, this.insertLabel, this.notice)) return;
        if (action.text.length < DIRECT_INSERT_MAX && !/[\r\n]/.test(action.text)) {
          return this.setEditor(edit.insertText(state, action.text));
        }
        // Typing that piled up into one read, Enter included ("fix it\r"): text, then submit.
        // Real multi-line pastes come bracketed (the UI enables bracketed paste) or hold more lines.
        if (action.text.length < DIRECT_INSERT_MAX && TYPED_THEN_ENTER.test(action.text)) {
          this.setEditor(edit.insertText(state, action.text.slice(0, -1)));
          return this.enter();
        }
        return this.paste.push(action.text);
      case 'pasteStart':
        return this.paste.beginBracketed();
      case 'newline':
        return this.setEditor(edit.insertNewline(state));
      case 'enter':
        return this.enter();
      case 'tab':
        if (menu) this.accept();
        return;
      case 'escape':
        if (menu) {
          this.dismissedAt = state.value;
          return this.changed();
        }
        return this.handBack(this.options.onEscape?.(state.value === ''));
      case 'up':
        if (menu) return this.moveSelection(-1);
        if (!edit.isOnFirstRow(state, this.options.textWidth)) return this.setEditor(edit.moveUp(state, this.options.textWidth));
        return this.walkHistory(-1);
      case 'down':
        if (menu) return this.moveSelection(1);
        if (!edit.isOnLastRow(state, this.options.textWidth)) return this.setEditor(edit.moveDown(state, this.options.textWidth));
        return this.walkHistory(1);
      case 'backspace': {
        const tokenStart = placeholderEndingAt(state.value, state.cursor, this.pastes) ?? this.attachments?.labelEndingAt(state.value, state.cursor) ?? null;
        if (tokenStart === null) return this.setEditor(edit.deleteBackward(state));
        return this.setEditor({ value: state.value.slice(0, tokenStart) + state.value.slice(state.cursor), cursor: tokenStart });
      }
      default:
        return this.setEditor(SIMPLE_EDITS[action.type](state));
    }
  }

  private handBack(outcome: boolean | string | undefined): void {
    if (typeof outcome === 'string') this.restore(outcome);
  }

  private continuePaste(action: EditorAction): void {
    switch (action.type) {
      case 'pasteEnd':
        return this.paste.finish();
      case 'keys':
        // Inside a bracketed paste everything is pasted text; an unbracketed paste ends at a key.
        if (this.paste.bracketed) return this.paste.push(action.text);
        this.paste.finish();
        return this.apply(action);
      case 'insert':
      case 'paste':
        return this.paste.push(action.text);
      case 'enter':
      case 'newline':
        return this.paste.push('\n');
      case 'tab':
        return this.paste.push('\t');
      default:
        return; // cursor keys or stray sequences inside a paste carry no text
    }
  }

  private insertPaste(raw: string): void {
    const text = edit.normalizeText(raw);
    if (text === '' || this.attachments?.attachPasted(text, this.insertLabel, this.notice)) return;
    if (!needsPlaceholder(text)) return this.setEditor(edit.insertText(this.editor, text));
    const id = this.nextPasteId++;
    this.pastes.set(id, text);
    this.setEditor(edit.insertText(this.editor, placeholderToken(id, text)));
  }

  private enter(): void {
    if (this.getView().menu) {
      if (this.accept()) this.submit();
      return;
    }
    const { value, cursor } = this.editor;
    if (cursor > 0 && value[cursor - 1] === '\\') {
      const joined = value.slice(0, cursor - 1) + '\n' + value.slice(cursor);
      return this.setEditor({ value: joined, cursor });
    }
    this.submit();
  }

  /** Accepts the selected completion; returns whether Enter should also submit. */
  private accept(): boolean {
    const context = this.context;
    const item = context?.items[this.selected];
    if (!context || !item) return false;
    const accepted = acceptCompletion(this.editor, context, item);
    this.setEditor(accepted.state);
    return accepted.complete;
  }

  private moveSelection(step: number): void {
    const count = this.context?.items.length ?? 0;
    if (count === 0) return;
    this.selected = (this.selected + step + count) % count;
    this.changed();
  }

  private submit(mentionsResolved = false): void {
    const attachments = this.attachments;
    if (attachments && !mentionsResolved && imageMentions(this.editor.value).length > 0) return this.submitWithMentions(attachments);
    const text = expandPlaceholders(this.editor.value, this.pastes).trim();
    if (text === '') return;
    // What the transcript shows: each paste as `[pasted text: N lines]`, not its whole text.
    const shown = this.pastes.size > 0 ? shownPlaceholders(this.editor.value).trim() : undefined;
    const images = attachments?.collect(text) ?? [];
    attachments?.clear();
    this.pastes = new Map();
    this.nextPasteId = 1;
    this.historyIndex = null;
    this.draft = EMPTY_EDITOR_STATE;
    this.setEditor(EMPTY_EDITOR_STATE);
    this.options.onSubmit(text, shown, ...(images.length > 0 ? [images] : []));
  }

  /** `@image.png` mentions become attachments first; a file that cannot be attached is reported
   * and the text stays in the input. */
  private submitWithMentions(attachments: ImageAttachments): void {
    const value = this.editor.value;
    attachments.resolve(value).then(
      (resolved) => {
        if (this.editor.value !== value) return; // edited meanwhile: the user submits again
        this.setEditor(edit.editorStateFrom(resolved.text, resolved.text.length));
        this.submit(true);
      },
      (error: unknown) => this.notice(error instanceof Error ? error.message : String(error)),
    );
  }

  private readonly insertLabel = (label: string): void => this.setEditor(edit.insertText(this.editor, label));

  private readonly notice = (text: string): void => this.options.onNotice?.(text);

  /**
   * Up (-1) from the first row or Down (+1) from the last: older or newer history entries. The
   * draft being typed is kept when leaving it and comes back after the newest entry. Editing a
   * recalled entry makes it the draft.
   */
  private walkHistory(direction: -1 | 1): void {
    const entries = this.options.history.entries();
    const current = this.historyIndex;
    let next: number | null;
    if (current === null) {
      if (direction === 1 || entries.length === 0) return;
      this.draft = this.editor;
      next = entries.length - 1;
    } else {
      next = Math.min(current, entries.length) + direction;
      if (next < 0) return;
      if (next >= entries.length) next = null;
    }
    this.historyIndex = next;
    if (next === null) {
      this.editor = this.draft;
    } else {
      const text = entries[next]!;
      // Going back, stop on the first line so the next Up keeps walking; going forward, at the end.
      this.editor = edit.editorStateFrom(text, direction === -1 ? edit.lineEndOf(text, 0) : text.length);
    }
    this.changed(true);
  }

  private setEditor(next: EditorState): void {
    if (next === this.editor) return;
    const valueChanged = next.value !== this.editor.value;
    this.editor = next;
    if (valueChanged) this.historyIndex = null;
    this.changed(valueChanged);
  }

  private changed(valueChanged = false): void {
    this.view = null;
    if (valueChanged) {
      if (this.dismissedAt !== this.editor.value) this.dismissedAt = null;
      this.options.onChange?.(this.editor.value);
    }
    for (const listener of this.listeners) listener();
  }

  private computeContext(): CompletionContext | null {
    if (this.historyIndex !== null || this.paste.active || this.dismissedAt === this.editor.value) return null;
    return completionContext(this.editor, this.options.completer);
  }
}

type SimpleEdit = Exclude<
  EditorAction['type'],
  'ignore' | 'keys' | 'interrupt' | 'insert' | 'pasteImage' | 'paste' | 'pasteStart' | 'pasteEnd' | 'newline' | 'enter' | 'tab' | 'escape' | 'up' | 'down' | 'backspace'
>;

const SIMPLE_EDITS: Readonly<Record<SimpleEdit, (state: EditorState) => EditorState>> = {
  delete: edit.deleteForward,
  deleteWordBackward: edit.deleteWordBackward,
  deleteWordForward: edit.deleteWordForward,
  killToLineEnd: edit.killToLineEnd,
  killToLineStart: edit.killToLineStart,
  left: edit.moveLeft,
  right: edit.moveRight,
  wordLeft: edit.moveWordLeft,
  wordRight: edit.moveWordRight,
  lineStart: edit.moveLineStart,
  lineEnd: edit.moveLineEnd,
  bufferStart: edit.moveBufferStart,
  bufferEnd: edit.moveBufferEnd,
};
