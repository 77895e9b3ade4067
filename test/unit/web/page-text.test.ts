/** What web_fetch makes of a body (src/web/page-text.ts) and how it pages it (page-cache.ts). */
import { describe, expect, it } from 'vitest';
import { pageSlice } from '../../../src/web/page-cache.js';
import { pageText, UnreadableContentError } from '../../../src/web/page-text.js';

describe('pageText', () => {
  it('reads a <meta charset> when the header names none', async () => {
    const html = Buffer.concat([Buffer.from('<html><head><meta charset="iso-8859-1"><title>x</title></head><body><p>'), Buffer.from([0x63, 0x61, 0x66, 0xe9]), Buffer.from('</p></body></html>')]);
    const page = await pageText(html, 'text/html', 'http://example.com/');
    expect(page.text).toContain('café');
  });

  it('passes JSON and text through, sniffs an untyped body, and refuses binary', async () => {
    expect(await pageText(Buffer.from('{"a":1}'), 'application/vnd.api+json', 'http://x/')).toEqual({ form: 'application/vnd.api+json', text: '{"a":1}' });
    expect((await pageText(Buffer.from('[1,2]'), '', 'http://x/')).form).toBe('application/json');
    expect((await pageText(Buffer.from('plain words'), 'text/plain; charset=utf-8', 'http://x/')).text).toBe('plain words');
    await expect(pageText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'image/png', 'http://x/a.png')).rejects.toBeInstanceOf(UnreadableContentError);
    await expect(pageText(Buffer.from([1, 0, 2]), 'application/octet-stream', 'http://x/bin')).rejects.toThrow(/not text: web_fetch reads HTML, JSON and text/);
  });
});

describe('pageSlice', () => {
  it('cuts on character boundaries, never inside a UTF-8 sequence', () => {
    const bytes = Buffer.from('aé€😀b', 'utf8'); // 1 + 2 + 3 + 4 + 1 bytes
    expect(pageSlice(bytes, 0, 2)).toEqual({ text: 'a', start: 0, end: 1 });
    expect(pageSlice(bytes, 2, 4)).toEqual({ text: 'é', start: 1, end: 3 }); // both ends moved back
    expect(pageSlice(bytes, 3, 3)).toEqual({ text: '€', start: 3, end: 6 });
    expect(pageSlice(bytes, 6, 100)).toEqual({ text: '😀b', start: 6, end: 11 });
  });
});
