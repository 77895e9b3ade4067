import { readFileSync } from 'node:fs';

/** seek's version, from package.json (read once, on first use). */
export const SEEK_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
