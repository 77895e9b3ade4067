/**
 * read_file of an image (PNG, JPEG, GIF, WebP, recognised by its first bytes): the image goes to
 * the model with a short description of it (type, dimensions, size). Prepared within the limits
 * every provider takes (the session may switch provider later), scaled down when larger. A model
 * that takes no images gets the description only (the providers leave the image out for it).
 */
import path from 'node:path';
import type { ToolResult } from '../agent/types.js';
import { describeImage, ImageError, imageLimitsFor, readImageBytes, scaledNote, sniffImageType } from '../images/attach.js';
import { prepareImage } from '../images/prepare.js';

/** Whether the file's first bytes are one of the image formats read_file returns as an image. */
export function isImageHead(head: Buffer): boolean {
  return sniffImageType(head) !== undefined;
}

/** The read_file result of the image at `absPath` (shown to people as `shown`). */
export async function readImageFile(absPath: string, shown: string): Promise<ToolResult> {
  try {
    const prepared = await prepareImage(await readImageBytes(absPath, shown), path.basename(absPath), imageLimitsFor(undefined));
    const scaled = scaledNote(prepared);
    const description = `${describeImage(prepared.image)}${scaled ? `, ${scaled}` : ''}`;
    return {
      content: `${shown} is an image: ${description}. The image itself is attached for models that take images.`,
      images: [prepared.image],
      display: { kind: 'text', text: `${shown}: ${description}` },
    };
  } catch (error) {
    if (error instanceof ImageError) return { content: error.message, isError: true };
    throw error;
  }
}
