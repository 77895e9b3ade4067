/**
 * `-i/--image PATH` for a prompt (`seek -p` and the terminal UI's first prompt): each file read and prepared for the session's provider
 * (src/images). A model the catalog knows takes no images, a missing file, a file that is not an
 * image, or one too large even scaled down: one clear line on stderr, exit status 2, and nothing
 * is sent.
 */
import { imageRefusal } from '../providers/index.js';
import type { ToolImage } from '../providers/types.js';
import { ImageError, imageLabel, loadImageFile, scaledNote } from './attach.js';

export type AttachedImages = { images: ToolImage[]; notes: string[] } | { error: string };

/** The images at `paths` for a prompt to `model` on `provider`, or the reason they cannot go. */
export async function attachImageFiles(paths: readonly string[], cwd: string, provider: string, model: string): Promise<AttachedImages> {
  if (paths.length === 0) return { images: [], notes: [] };
  const refusal = imageRefusal(model);
  if (refusal) return { error: refusal.replace('Remove the image', 'Drop -i') };
  const images: ToolImage[] = [];
  const notes: string[] = [];
  for (const path of paths) {
    try {
      const prepared = await loadImageFile(path, cwd, provider);
      images.push(prepared.image);
      const scaled = scaledNote(prepared);
      if (scaled) notes.push(`${imageLabel(prepared.image, images.length)} ${scaled}`);
    } catch (error) {
      if (error instanceof ImageError) return { error: error.message };
      throw error;
    }
  }
  return { images, notes };
}
