/**
 * An image's bytes made ready for a provider: its type checked by signature, its dimensions read,
 * and, when it is over the provider's limits (limits.ts), scaled down with sharp (libvips; its
 * platform binaries come from npm packages) or refused naming the limit. sharp is loaded at the
 * first image, never at start-up.
 */
import type { ToolImage } from '../providers/types.js';
import { base64Size, formatImageBytes, imageTypeName, sniffImageType, type ImageType } from './formats.js';
import { MAX_IMAGE_FILE_BYTES, MAX_IMAGE_PIXELS, type ImageLimits } from './limits.js';

/** An image that cannot be used; the message says why, for the user or the model. */
export class ImageError extends Error {
  override readonly name = 'ImageError';
}

/** A prepared image, and the size it had when it was scaled down. */
export interface PreparedImage {
  image: ToolImage;
  scaledFrom?: { width: number; height: number; bytes: number };
}

type Sharp = typeof import('sharp').default;
let sharpModule: Sharp | undefined;

async function loadSharp(): Promise<Sharp> {
  if (!sharpModule) {
    const loaded = (await import('sharp')) as unknown as Sharp | { default: Sharp };
    sharpModule = 'default' in loaded ? loaded.default : loaded;
  }
  return sharpModule;
}

/** `bytes` (named `name`) as an image within `limits`. Throws ImageError when it is not a PNG,
 * JPEG, GIF or WebP image, cannot be decoded, or is still too large once scaled down. */
export async function prepareImage(bytes: Buffer, name: string, limits: ImageLimits): Promise<PreparedImage> {
  if (bytes.length > MAX_IMAGE_FILE_BYTES) {
    throw new ImageError(`${name} is ${formatImageBytes(bytes.length)}; seek takes images up to ${formatImageBytes(MAX_IMAGE_FILE_BYTES)}.`);
  }
  const type = sniffImageType(bytes);
  if (!type) throw new ImageError(`${name} is not a PNG, JPEG, GIF or WebP image.`);
  const sharp = await loadSharp();
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
    width = meta.width ?? 0;
    height = meta.pageHeight ?? meta.height ?? 0;
  } catch (error) {
    const message = (error as Error).message;
    if (/pixel limit/i.test(message)) throw new ImageError(`${name} has more than ${MAX_IMAGE_PIXELS / 1e6} million pixels; seek does not decode images that large.`);
    throw new ImageError(`${name} could not be read as a ${imageTypeName(type)} image: ${message}`);
  }
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageError(`${name} is ${width}x${height}, more than ${MAX_IMAGE_PIXELS / 1e6} million pixels; seek does not decode images that large.`);
  const fits = Math.max(width, height) <= limits.maxEdge && base64Length(bytes.length) <= limits.maxBase64Bytes;
  if (fits) return { image: { mimeType: type, data: bytes.toString('base64'), name, width, height } };
  const scaled = await scaleDown(sharp, bytes, type, limits, name);
  return { image: { ...scaled, name }, scaledFrom: { width, height, bytes: bytes.length } };
}

function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** Scaled to fit `limits.maxEdge`, in its own format (a GIF's first frame as PNG); a PNG still too
 * large becomes a JPEG, and a JPEG or WebP loses quality step by step before it is refused. */
async function scaleDown(sharp: Sharp, bytes: Buffer, type: ImageType, limits: ImageLimits, name: string): Promise<Omit<ToolImage, 'name'>> {
  const attempts: Array<{ format: 'png' | 'jpeg' | 'webp'; quality: number }> =
    type === 'image/webp' ? [{ format: 'webp', quality: 85 }, { format: 'webp', quality: 65 }] : type === 'image/jpeg' ? [] : [{ format: 'png', quality: 100 }];
  attempts.push({ format: 'jpeg', quality: 85 }, { format: 'jpeg', quality: 70 }, { format: 'jpeg', quality: 50 });
  for (const attempt of attempts) {
    let pipeline = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().resize({ width: limits.maxEdge, height: limits.maxEdge, fit: 'inside', withoutEnlargement: true });
    if (attempt.format === 'jpeg') pipeline = pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: attempt.quality });
    else if (attempt.format === 'webp') pipeline = pipeline.webp({ quality: attempt.quality });
    else pipeline = pipeline.png();
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    if (base64Length(data.length) <= limits.maxBase64Bytes) {
      return { mimeType: `image/${attempt.format}`, data: data.toString('base64'), width: info.width, height: info.height };
    }
  }
  throw new ImageError(
    `${name} is too large for ${limits.owner}, even scaled down to ${limits.maxEdge} pixels: images are limited to ${formatImageBytes(limits.maxBase64Bytes)} (base64).`,
  );
}

/** A short description of an image for a model that cannot see it: "PNG image, 1280x720, 210 KB". */
export function describeImage(image: ToolImage): string {
  const dims = image.width && image.height ? `, ${image.width}x${image.height}` : '';
  return `${imageTypeName(image.mimeType)} image${dims}, ${formatImageBytes(base64Size(image.data))}`;
}
