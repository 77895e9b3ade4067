/**
 * Images kept with sessions by content hash. A message's image goes to the session file as a
 * reference, `{"mimeType", "sha256", "name"?, "width"?, "height"?}`, and its bytes once to
 * `projects/<pid>/images/<sha256>` (0600), shared by every session and subagent transcript of the
 * project: an image sent on every turn, or pasted twice, is stored once. Reading a session puts the
 * base64 back, byte for byte, so a resumed or rewound session sends the very request prefix it
 * sent before. An image whose file is gone is dropped from its message, and the message says so.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Message, ToolImage } from '../providers/types.js';

/** The image store of the session file at `sessionPath`: `images/` in the project's folder (the
 * parent of the `sessions` folder it sits under), else next to the file. */
export function imageStoreDir(sessionPath: string): string {
  for (let dir = dirname(sessionPath); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'sessions') return join(dirname(dir), 'images');
  }
  return join(dirname(sessionPath), 'images');
}

interface ImageRef {
  mimeType: string;
  sha256: string;
  name?: string;
  width?: number;
  height?: number;
}

function hasImages(message: Message): message is Exclude<Message, { role: 'assistant' }> & { images: ToolImage[] } {
  return message.role !== 'assistant' && (message.images?.length ?? 0) > 0;
}

/** `message` as the session file holds it: each image's bytes stored under its hash, the message
 * keeping the reference. Messages without images are returned as they are. */
export function storeMessageImages(message: Message, sessionPath: string): Message {
  if (!hasImages(message)) return message;
  const store = imageStoreDir(sessionPath);
  const refs = message.images.map((image): ImageRef => {
    const bytes = Buffer.from(image.data, 'base64');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = join(store, sha256);
    if (!existsSync(file)) {
      mkdirSync(store, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, bytes, { mode: 0o600 });
      renameSync(temporary, file);
    }
    const { data: _data, ...rest } = image;
    return { ...rest, sha256 };
  });
  return { ...message, images: refs as unknown as ToolImage[] };
}

/** `message` as read from a session file, its image references filled in from the store. */
export function restoreMessageImages(message: Message, sessionPath: string): Message {
  if (message.role === 'assistant' || !message.images?.length) return message;
  const store = imageStoreDir(sessionPath);
  const images: ToolImage[] = [];
  const missing: string[] = [];
  for (const entry of message.images as Array<ToolImage | ImageRef>) {
    if ('data' in entry && typeof entry.data === 'string') {
      images.push(entry);
      continue;
    }
    const { sha256, ...rest } = entry as ImageRef;
    try {
      const bytes = readFileSync(join(store, sha256.replace(/[^0-9a-f]/g, '')));
      if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new Error('hash mismatch');
      images.push({ ...rest, data: bytes.toString('base64') });
    } catch {
      missing.push(rest.name ?? sha256.slice(0, 12));
    }
  }
  const note = missing.length > 0 ? `\n[image${missing.length === 1 ? '' : 's'} no longer stored with the session: ${missing.join(', ')}]` : '';
  const { images: _images, ...base } = message;
  return { ...base, content: message.content + note, ...(images.length > 0 ? { images } : {}) } as Message;
}
