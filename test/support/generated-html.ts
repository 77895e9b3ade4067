/**
 * A generated article page of about `bytes` bytes of HTML (headings, paragraphs with links and
 * inline code, lists, a code block and a table per section): the shape of documentation pages,
 * without the network. Used by the web_fetch tests and bench/web-convert.ts.
 */
export function generatedArticleHtml(bytes: number, title = 'Generated guide'): string {
  const head = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>p{margin:0}</style></head><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><article><h1>${title}</h1>`;
  const tail = '</article><footer>generated</footer></body></html>';
  const sections: string[] = [];
  let size = head.length + tail.length;
  for (let index = 0; size < bytes; index++) {
    const section = [
      `<section><h2 id="s${index}">Section ${index}</h2>`,
      `<p>Paragraph ${index} explains <a href="/page/${index}">a linked idea</a> with <code>code_${index}()</code> and <em>emphasis</em>; the text goes on for a while so that readers have something to read.</p>`,
      `<ul><li>item one of ${index}</li><li>item two with <strong>bold</strong></li><li>item three</li></ul>`,
      `<pre><code>function f${index}(x) {\n  return x * ${index};\n}</code></pre>`,
      `<table><tr><th>key</th><th>value</th></tr><tr><td>k${index}</td><td>v${index}</td></tr></table></section>`,
    ].join('');
    sections.push(section);
    size += section.length;
  }
  return head + sections.join('') + tail;
}
