/** The prompt input: editor component, its pure model, history, and completion sources. */
export { InputEditor, MENU_ROWS, type InputEditorProps } from './InputEditor.js';
export {
  EditorController,
  type CompletionMenu,
  type EditorControllerOptions,
  type EditorView,
} from './editor-controller.js';
export * from './editor-state.js';
export { actionForKey, type EditorAction } from './key-bindings.js';
export { acceptCompletion, completionContext, type AcceptedCompletion, type CompletionContext } from './completion.js';
export {
  DISABLE_BRACKETED_PASTE,
  ENABLE_BRACKETED_PASTE,
  PASTE_SETTLE_MS,
  PLACEHOLDER_MIN_CHARS,
  PLACEHOLDER_MIN_LINES,
  PasteCollector,
  expandPlaceholders,
  placeholderToken,
} from './paste.js';
export { layoutRows, rowIndexAt, type VisualRow } from './text-layout.js';
export { graphemeWidth, graphemes, textWidth } from './text-width.js';
export {
  DEFAULT_HISTORY_MAX,
  createInputHistory,
  type InputHistoryOptions,
  type PersistentInputHistory,
} from './history.js';
export { DEFAULT_MAX_FILES, createFileIndex, type FileIndex, type FileIndexOptions } from './file-index.js';
export { createSlashCompleter, type SlashCommandSpec } from './slash-completer.js';
