import { expect, it } from 'vitest';
import { clearMarkdownCache, renderMarkdown } from '../../../../src/tui/markdown/render.js';

/** A scripted answer of about 2,000 tokens (~8,000 characters): headings, prose, lists, code
 * blocks and tables, as a model would stream it. */
function scriptedAnswer(): string {
  const section = (index: number): string => `## Step ${index}: update the loader

We change **several** things in \`src/loader${index}.ts\` so that *lazy* modules load once. See the
[design notes](https://example.com/notes/${index}) for the reasoning behind this choice.

- Read the configuration and validate it against the schema
- Call \`load()\` with the parsed options
  - retry transient failures
  - log a warning for deprecated keys

\`\`\`ts
export async function load${index}(options: LoaderOptions): Promise<Result> {
  const values = options.values.map((value) => value * ${index}); // scale
  if (values.length === 0) throw new Error('nothing to load');
  return { ok: true, values };
}
\`\`\`

| Option | Default | Meaning |
|---|---|---|
| retries | 3 | attempts before giving up |
| timeout | 30s | per request |
`;
  let answer = '';
  for (let index = 1; answer.length < 8000; index += 1) answer += `${section(index)}\n`;
  return answer;
}

it('renders a streamed 2,000-token answer quickly (prints the mean time per render)', () => {
  const answer = scriptedAnswer();
  const steps = 200;
  const prefixes = Array.from({ length: steps }, (_unused, step) =>
    answer.slice(0, Math.ceil((answer.length * (step + 1)) / steps)),
  );
  clearMarkdownCache();
  const started = performance.now();
  let last = '';
  for (const prefix of prefixes) last = renderMarkdown(prefix, { width: 100, color: true });
  const streamingMean = (performance.now() - started) / steps;

  clearMarkdownCache();
  const coldStarted = performance.now();
  for (const prefix of prefixes) {
    clearMarkdownCache();
    renderMarkdown(prefix, { width: 100, color: true });
  }
  const coldMean = (performance.now() - coldStarted) / steps;

  console.log(
    `markdown: ${answer.length} chars in ${steps} prefixes: ${streamingMean.toFixed(2)} ms/render streaming ` +
      `(incremental + memo), ${coldMean.toFixed(2)} ms/render from scratch (markdown cache cleared, ` +
      `highlighted blocks reused as after a resize)`,
  );
  expect(last).toContain('Step 1');
});
