import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageError, imageFromContentBlock, imageLabel, loadImageFile, pastedImagePath } from '../../../src/images/attach.js';
import { readImageFile } from '../../../src/tools/image-file.js';
import { prepareImage } from '../../../src/images/prepare.js';
import { tempDir } from '../../support/temp-dirs.js';

const pngOf = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#808080' } }).png().toBuffer();

describe('image attachments', () => {
  it('an image content block, Anthropic or OpenAI shaped, becomes the same prepared image', async () => {
    const data = (await pngOf(8, 4)).toString('base64');
    const anthropic = await imageFromContentBlock({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }, 'anthropic', 'a.png');
    const openai = await imageFromContentBlock({ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } }, 'openai', 'a.png');
    expect(anthropic.image).toEqual({ mimeType: 'image/png', data, name: 'a.png', width: 8, height: 4 });
    expect(openai.image).toEqual(anthropic.image);
    expect(imageLabel(anthropic.image, 2)).toMatch(/^\[Image #2: a\.png, 8x4, 1 KB\]$/);
    await expect(imageFromContentBlock({ type: 'image_url', image_url: 'https://example.com/x.png' }, 'openai')).rejects.toThrow(/only base64 data URLs/);
  });

  it('read_file of a huge file with an image header is refused by its size, not read into memory', async () => {
    const dir = tempDir('seek-img-huge-');
    const file = join(dir, 'huge.png');
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    truncateSync(file, 3 * 1024 ** 3); // sparse: 3 GB that take no disk
    const result = await readImageFile(file, 'huge.png');
    expect(result).toMatchObject({ isError: true, content: expect.stringMatching(/^huge\.png is 3072\.0 MB; seek takes images up to 50\.0 MB\.$/) });
  });

  it('a FIFO named like an image is refused at once, never waited on', async () => {
    const dir = tempDir('seek-img-fifo-');
    execFileSync('mkfifo', [join(dir, 'shot.png')]);
    await expect(loadImageFile('shot.png', dir, 'anthropic')).rejects.toThrow('shot.png is not a file.');
  });

  it('refuses what is not an image, and names the limit when even scaled down it is too large', async () => {
    await expect(prepareImage(Buffer.from('hello'), 'x.png', { maxEdge: 100, maxBase64Bytes: 1000, owner: 'Test' })).rejects.toThrow(ImageError);
    // Noise does not compress: 200x200 pixels cannot fit in 1000 bytes of base64 at any quality.
    const noise = Buffer.alloc(200 * 200 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const bytes = await sharp(noise, { raw: { width: 200, height: 200, channels: 3 } }).png().toBuffer();
    await expect(prepareImage(bytes, 'noise.png', { maxEdge: 100, maxBase64Bytes: 1000, owner: 'Test' })).rejects.toThrow(/too large for Test, even scaled down to 100 pixels: images are limited to 1 KB/);
  });

  it('a small PNG claiming more pixels than seek decodes is refused before decoding', async () => {
    const chunk = (type: string, data: Buffer): Buffer => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);
      return Buffer.concat([length, Buffer.from(type), data, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(10_000, 0); // 10,000 x 10,000: 100 million pixels in a 100-byte file
    header.writeUInt32BE(10_000, 4);
    header[8] = 8;
    const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(16))), chunk('IEND', Buffer.alloc(0))]);
    await expect(prepareImage(png, 'bomb.png', { maxEdge: 100, maxBase64Bytes: 1000, owner: 'Test' })).rejects.toThrow(/bomb\.png has more than 50 million pixels/);
  });

  it('a pasted or dropped path of an image file: plain, quoted, escaped, file:// URL; text stays text', async () => {
    const dir = tempDir('seek-img-paste-');
    mkdirSync(join(dir, 'my shots'));
    const file = join(dir, 'my shots', 'a b.png');
    writeFileSync(file, await pngOf(2, 2));
    expect(pastedImagePath(`'${file}'`, '/')).toBe(file);
    expect(pastedImagePath(file.replaceAll(' ', '\\ '), '/')).toBe(file);
    expect(pastedImagePath(pathToFileURL(file).href, '/')).toBe(file);
    expect(pastedImagePath('my shots/a b.png', dir)).toBe(file);
    expect(pastedImagePath('missing.png', dir)).toBeUndefined();
    expect(pastedImagePath('some text', dir)).toBeUndefined();
    expect(pastedImagePath(`${file}\nmore`, dir)).toBeUndefined();
  });
});
