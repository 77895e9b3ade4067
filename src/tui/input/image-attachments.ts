/**
 * Images attached in the input: each stands in the text as its label, `[Image #1: shot.png,
 * 1280x720, 210 KB]`, where the cursor was. Backspace at a label's end deletes it whole, and with
 * it the attachment; a label deleted or edited before sending means that image is not sent. What
 * is submitted keeps the labels (the transcript and the model see them) and carries the images
 * whose labels are intact, in the order they appear.
 *
 * Where images come from is the App's `ImageSource` (Ctrl+V reads the clipboard, a pasted or
 * dropped path of an image file, `@shot.png` in the text).
 */
import type { ToolImage } from '../../providers/types.js';

export interface ImageSource {
  /** The clipboard's image (Ctrl+V); rejects with a message saying what is missing. */
  clipboard(): Promise<ToolImage>;
  /** The image file at `path` (relative to the working directory). */
  file(path: string): Promise<ToolImage>;
  /** The path a paste or a drop names when it is one existing image file, else undefined. */
  pastedPath(text: string): string | undefined;
  /** The image label as the input and the transcript show it. */
  label(image: ToolImage, ordinal: number): string;
}

const LABEL_START = '[Image #';

export class ImageAttachments {
  private readonly images = new Map<number, { image: ToolImage; label: string }>();
  private nextId = 1;

  constructor(private readonly source: ImageSource) {}

  /** Takes `image` and returns its label, to be put into the text. */
  add(image: ToolImage): string {
    const id = this.nextId++;
    const label = this.source.label(image, id);
    this.images.set(id, { image, label });
    return label;
  }

  get size(): number {
    return this.images.size;
  }

  /** The start of the intact label that ends exactly at `offset`, if any. */
  labelEndingAt(value: string, offset: number): number | null {
    if (value[offset - 1] !== ']') return null;
    const start = value.lastIndexOf(LABEL_START, offset);
    if (start === -1) return null;
    const token = value.slice(start, offset);
    for (const { label } of this.images.values()) if (label === token) return start;
    return null;
  }

  /** The images whose labels `value` holds intact, in the order they appear. */
  collect(value: string): ToolImage[] {
    return [...this.images.values()]
      .map((entry) => ({ entry, at: value.indexOf(entry.label) }))
      .filter(({ at }) => at !== -1)
      .sort((a, b) => a.at - b.at)
      .map(({ entry }) => entry.image);
  }

  /** Reads the clipboard's image and hands its label to `insert`; a failure goes to `notice`. */
  pasteClipboard(insert: (label: string) => void, notice: (text: string) => void): void {
    this.source.clipboard().then(
      (image) => insert(this.add(image)),
      (error: unknown) => notice(messageOf(error)),
    );
  }

  /** When `text` (a paste, a drop) names one image file: attaches it and returns true. */
  attachPasted(text: string, insert: (label: string) => void, notice: (text: string) => void): boolean {
    const path = this.source.pastedPath(text);
    if (path === undefined) return false;
    this.source.file(path).then(
      (image) => insert(this.add(image)),
      (error: unknown) => notice(messageOf(error)),
    );
    return true;
  }

  /** `value` with each `@image.png` mention replaced by the label of the file it names, and the
   * images it then carries. Rejects (naming the file) when a mentioned image cannot be used. */
  async resolve(value: string): Promise<{ text: string; images: ToolImage[] }> {
    let text = value;
    for (const path of imageMentions(value)) {
      const image = await this.source.file(path);
      const mention = text.includes(`@"${path}"`) ? `@"${path}"` : `@${path}`;
      text = text.replace(mention, this.add(image));
    }
    return { text, images: this.collect(text) };
  }

  /** After a submit: numbering starts again at #1. */
  clear(): void {
    this.images.clear();
    this.nextId = 1;
  }
}

/** `@path` mentions in `value` whose name says image (`@shot.png`, `@"my shot.png"`). */
export function imageMentions(value: string): string[] {
  const found: string[] = [];
  for (const match of value.matchAll(/(?:^|\s)@(?:"([^"\n]+)"|(\S+))/g)) {
    const path = match[1] ?? match[2]!;
    if (/\.(png|jpe?g|gif|webp)$/i.test(path)) found.push(path);
  }
  return found;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
