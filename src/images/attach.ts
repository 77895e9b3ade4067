/**
 * Images the user attaches: a file (`-i PATH`, a pasted or dropped path, `@shot.png`), clipboard
 * bytes, or an image content block (stream-json input: Anthropic's `{type: "image", source}` or
 * OpenAI's `{type: "image_url", image_url: {url: "data:…"}}`). Each becomes the message image the
 * providers send, prepared for the session's provider (prepare.ts).
 */
import { constants, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readClipboardImage } from './clipboard.js';
import type { ToolImage } from '../providers/types.js';
import { base64Size, formatImageBytes, looksLikeImagePath, sniffImageType } from './formats.js';
import { imageLimitsFor, MAX_IMAGE_FILE_BYTES } from './limits.js';
import { ImageError, prepareImage, type PreparedImage } from './prepare.js';

/** The image file at `path` (relative to `cwd`), prepared for `provider`. Throws ImageError with
 * a message naming the file when it is missing, not an image, or too large. */
export async function loadImageFile(path: string, cwd: string, provider: string | undefined): Promise<PreparedImage> {
  const absolute = resolve(cwd, path);
  return prepareImage(await readImageBytes(absolute, path), basename(absolute), imageLimitsFor(provider));
}

/**
 * The bytes of the image file at `absolute` (named `shown` in errors), never more than
 * MAX_IMAGE_FILE_BYTES of them: opened without blocking (a FIFO put in its place never hangs the
 * read), checked to be a regular file on the open descriptor (what is read is what was checked),
 * and read up to the cap (a file whose size says 0, as /proc's do, or that grows, is still bounded).
 */
export async function readImageBytes(absolute: string, shown: string): Promise<Buffer> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile()) throw new ImageError(`${shown} is not a file.`);
    if (info.size > MAX_IMAGE_FILE_BYTES) throw tooLarge(shown, formatImageBytes(info.size));
    const buffer = Buffer.alloc(Math.min(MAX_IMAGE_FILE_BYTES + 1, Math.max(info.size, 64 * 1024)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length > MAX_IMAGE_FILE_BYTES) throw tooLarge(shown);
        return readImageBytesGrown(handle, buffer, shown);
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) return buffer.subarray(0, length);
      length += bytesRead;
    }
  } catch (error) {
    if (error instanceof ImageError) throw error;
    const code = (error as { code?: string }).code;
    throw new ImageError(code === 'ENOENT' ? `No image file at ${shown}.` : `${shown} could not be read: ${(error as Error).message}`);
  } finally {
    await handle?.close();
  }
}

/** The rest of a file that held more than its size said, up to the cap. */
async function readImageBytesGrown(handle: FileHandle, start: Buffer, shown: string): Promise<Buffer> {
  const buffer = Buffer.alloc(MAX_IMAGE_FILE_BYTES + 1);
  start.copy(buffer);
  let length = start.length;
  while (length < buffer.length) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
  }
  throw tooLarge(shown);
}

function tooLarge(shown: string, size = `over ${formatImageBytes(MAX_IMAGE_FILE_BYTES)}`): ImageError {
  return new ImageError(`${shown} is ${size}; seek takes images up to ${formatImageBytes(MAX_IMAGE_FILE_BYTES)}.`);
}

/**
 * The image file a paste or a drop names, as an absolute path: one path alone (quoted, with
 * backslash-escaped spaces, or a file:// URL, as terminals and file managers drop them) of an
 * existing file whose name says image. Undefined for anything else (text is pasted as text).
 */
export function pastedImagePath(text: string, cwd: string): string | undefined {
  let candidate = text.trim();
  if (candidate === '' || candidate.includes('\n')) return undefined;
  if (/^(['"]).*\1$/.test(candidate)) candidate = candidate.slice(1, -1);
  else candidate = candidate.replace(/\\(.)/g, '$1');
  if (candidate.startsWith('file://')) {
    try {
      candidate = fileURLToPath(candidate);
    } catch {
      return undefined;
    }
  }
  if (!looksLikeImagePath(candidate)) return undefined;
  const absolute = resolve(cwd, candidate.startsWith('~/') ? join(homedir(), candidate.slice(2)) : candidate);
  try {
    return statSync(absolute).isFile() ? absolute : undefined;
  } catch {
    return undefined;
  }
}

/** The clipboard's image prepared for `provider` (named clipboard.png and so on). */
export async function clipboardImage(provider: string | undefined): Promise<PreparedImage> {
  const bytes = await readClipboardImage();
  const extension = (sniffImageType(bytes) ?? 'image/png').slice('image/'.length).replace('jpeg', 'jpg');
  return prepareImage(bytes, `clipboard.${extension}`, imageLimitsFor(provider));
}

/** An image content block as stream-json input may carry it. */
export type ImageContentBlock =
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } }
  | { type: 'image_url'; image_url: { url: string } | string };

/**
 * An image content block (Anthropic's or OpenAI's shape, base64 or a data URL) as a message image
 * prepared for `provider`. Remote URLs are refused: seek does not fetch images from the web.
 * For the stream-json input reader; `name` names it in labels and errors.
 */
export async function imageFromContentBlock(block: ImageContentBlock, provider: string | undefined, name = 'image'): Promise<PreparedImage> {
  const url = block.type === 'image_url' ? (typeof block.image_url === 'string' ? block.image_url : block.image_url.url) : block.source.type === 'url' ? block.source.url : undefined;
  let data: string;
  if (url !== undefined) {
    const match = /^data:image\/[\w.+-]+;base64,(.*)$/s.exec(url);
    if (!match) throw new ImageError(`${name}: only base64 data URLs are taken for images, not ${url.slice(0, 40)}…`);
    data = match[1]!;
  } else {
    data = (block as { source: { data: string } }).source.data;
  }
  if (base64Size(data) > MAX_IMAGE_FILE_BYTES) throw new ImageError(`${name} is larger than ${formatImageBytes(MAX_IMAGE_FILE_BYTES)}.`);
  return prepareImage(Buffer.from(data, 'base64'), name, imageLimitsFor(provider));
}

/** An attachment as the user sees it: `[Image #1: shot.png, 1280x720, 210 KB]`. */
export function imageLabel(image: ToolImage, ordinal: number): string {
  const dims = image.width && image.height ? `, ${image.width}x${image.height}` : '';
  return `[Image #${ordinal}: ${image.name ?? 'image'}${dims}, ${formatImageBytes(base64Size(image.data))}]`;
}

/** A note for a scaled image: "scaled down from 4000x3000 (3.1 MB)". */
export function scaledNote(prepared: PreparedImage): string | undefined {
  const from = prepared.scaledFrom;
  return from ? `scaled down from ${from.width}x${from.height} (${formatImageBytes(from.bytes)})` : undefined;
}

export { ImageError, describeImage, type PreparedImage } from './prepare.js';
export { looksLikeImagePath, sniffImageType } from './formats.js';
export { ClipboardError } from './clipboard.js';
export { imageLimitsFor } from './limits.js';
