/**
 * Hostile pages for web_fetch's conversion (src/web/html-markdown.ts, hostile-html.ts): deep
 * nesting that would overflow the DOM libraries' recursion or stall the event loop, terminal
 * control sequences in the text, and data:/javascript: URLs.
 */
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/web/html-markdown.js';
import { MAX_NESTING } from '../../../src/web/hostile-html.js';
import { pageText } from '../../../src/web/page-text.js';

const nested = (depth: number): string => `<html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}deep &amp; text<script>evil()</script>${'</div>'.repeat(depth)}</body></html>`;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('hostile HTML', () => {
  it('a page nested 3,000 and 30,000 deep comes back as its plain text, quickly, not as a stack overflow or a stall', { timeout: 60_000 }, async () => {
    for (const depth of [3_000, 30_000]) {
      const started = Date.now();
      const page = await pageText(Buffer.from(nested(depth)), 'text/html', 'https://example.com/');
      expect(page).toEqual({ form: 'text/html, as plain text (nested too deeply for Markdown)', title: 'Deep', text: 'deep & text' });
      expect(Date.now() - started).toBeLessThan(20_000);
    }
  });

  it('a page nested up to the limit still converts to Markdown', { timeout: 60_000 }, async () => {
    const page = await htmlToMarkdown(`<html><body>${'<div>'.repeat(MAX_NESTING - 5)}<h2>Heading</h2><p><a href="/a">link</a></p>${'</div>'.repeat(MAX_NESTING - 5)}</body></html>`, 'https://example.com/');
    expect(page.plain).toBeUndefined();
    expect(page.markdown).toContain('## Heading');
    expect(page.markdown).toContain('[link](/a)');
  });

  it('terminal escapes, bells, C1 controls, lone carriage returns and bidi overrides never reach the text or the title', async () => {
    const html = `<html><head><title>T\x1b]0;owned\x07itle</title></head><body><article><h1>Hi &#27;[31mred</h1><p>Some text \x1b[2J cleared, \x07 bell, \u009b31m c1, \u202eevil\u202c, back\x08space and a\rreturn: long enough for an article paragraph to be kept by the reader view.</p></article></body></html>`;
    const page = await pageText(Buffer.from(html), 'text/html; charset=utf-8', 'https://example.com/');
    expect(page.title).toBe('T]0;owneditle');
    expect(page.text).not.toMatch(CONTROLS);
    expect(page.text).toContain('cleared');
    const plain = await pageText(Buffer.from('plain \x1b[31mred\x1b[0m\r\nnext\tline'), 'text/plain', 'https://example.com/');
    expect(plain.text).toBe('plain [31mred[0m\nnext\tline');
  });

  it('data: and javascript: URLs keep only their text; a data image its alt text', async () => {
    const blob = 'A'.repeat(50_000);
    const html = `<html><body><article><h1>Pics</h1><p>A paragraph long enough for the reader view to keep this article and its pictures.</p><img src="data:image/png;base64,${blob}" alt="a chart"><img src="data:image/gif;base64,${blob}"><p><a href="javascript:alert(1)">click</a> and <a href="data:text/html,hi">open</a> and <a href="https://example.com/ok">ok</a></p><img src="https://example.com/real.png" alt="real"></article></body></html>`;
    const page = await htmlToMarkdown(html, 'https://example.com/');
    expect(page.markdown).not.toContain('AAAA');
    expect(page.markdown).not.toMatch(/javascript:|data:/);
    expect(page.markdown).toContain('[image: a chart]');
    expect(page.markdown).toContain('click and open and [ok](https://example.com/ok)');
    expect(page.markdown).toContain('![real](https://example.com/real.png)');
  });
});
