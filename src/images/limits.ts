/**
 * How large an image each provider takes. An image over `maxEdge` pixels on its long side is
 * scaled down to it (the provider would scale it anyway, after the upload, and bill it the same);
 * one still over `maxBytes` once scaled and re-encoded is refused, naming the limit.
 *
 * - Anthropic: 5 MB per image, counted on its base64 text; images are scaled server-side to 1568
 *   pixels on the long edge (https://docs.anthropic.com/en/docs/build-with-claude/vision).
 * - OpenAI and OpenAI-compatible servers: 20 MB per image; high detail fits an image in 2048x2048
 *   (https://platform.openai.com/docs/guides/images-vision).
 */

export interface ImageLimits {
  /** Longest side, in pixels, an image is sent at. */
  maxEdge: number;
  /** Largest image, in bytes of its base64 text (what goes in the request). */
  maxBase64Bytes: number;
  /** Who sets the limit, for a refusal: "Anthropic". */
  owner: string;
}

const MB = 1024 * 1024;

const ANTHROPIC: ImageLimits = { maxEdge: 1568, maxBase64Bytes: 5 * MB, owner: 'Anthropic' };
const OPENAI: ImageLimits = { maxEdge: 2048, maxBase64Bytes: 20 * MB, owner: 'OpenAI' };

/** The largest file seek reads as an image at all (before decoding it). */
export const MAX_IMAGE_FILE_BYTES = 50 * MB;

/** The most pixels seek decodes (a 48-megapixel phone photo fits): a small PNG can claim huge
 * dimensions, and decoding one to scale it down would take gigabytes of memory (sharp's own
 * default stops only at 268 million). */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** The limits for a provider by name; unknown names (and none) get the strictest, which every
 * provider takes (a tool's image, whose session may switch provider later). */
export function imageLimitsFor(provider: string | undefined): ImageLimits {
  if (provider === 'openai' || provider === 'openai-compatible' || provider === 'deepseek') return OPENAI;
  return ANTHROPIC;
}
