/**
 * The image blocks of a stream-json user message made into the message's images (src/images),
 * when its turn comes: for the session's provider and model at that moment (`set_model` may have
 * changed it). A model known to take no images, a block that is not a PNG, JPEG, GIF or WebP image,
 * a remote URL, or an image too large even scaled down: the reason, and nothing is sent.
 */
import { ImageError, imageFromContentBlock, type ImageContentBlock } from '../../images/attach.js';
import { imageRefusal } from '../../providers/index.js';
import type { ToolImage } from '../../providers/types.js';

export async function imagesFromBlocks(blocks: readonly ImageContentBlock[], provider: string, model: string): Promise<{ images: ToolImage[] } | { error: string }> {
  if (blocks.length === 0) return { images: [] };
  const refusal = imageRefusal(model);
  if (refusal) return { error: refusal.replace('Remove the image', 'Send the message without its image blocks') };
  const images: ToolImage[] = [];
  for (const [index, block] of blocks.entries()) {
    try {
      images.push((await imageFromContentBlock(block, provider, `image ${index + 1}`)).image);
    } catch (error) {
      if (error instanceof ImageError) return { error: error.message };
      throw error;
    }
  }
  return { images };
}
