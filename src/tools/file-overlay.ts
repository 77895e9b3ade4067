/**
 * Where the file tools read and write text when an editor holds the truth: its open buffers, with
 * their unsaved changes (ACP's `fs/read_text_file` and `fs/write_text_file`, see src/acp). The
 * tools still ask the disk whether a file exists, is a directory or binary, and how big it is; only
 * the text goes through the overlay. Absent (every front end but ACP): the disk alone.
 */
export interface TextFileOverlay {
  /** The text of `absPath` as the editor has it; undefined when the overlay does not take this
   * path (then the disk is read). */
  readText(absPath: string): Promise<string | undefined>;
  /** Writes `text` to `absPath` through the editor. False when the overlay does not take this path
   * (then the disk is written); a failure throws. */
  writeText(absPath: string, text: string): Promise<boolean>;
}

/** Files larger than this on disk are read from the disk even with an overlay: a whole file goes
 * over the editor's connection in one message. */
export const OVERLAY_MAX_BYTES = 4 * 1024 * 1024;
